// A contention pattern selected in the app: its runs beside the partner marked on the timeline
// (outlined when wide enough, ticked where they fold, cheap at any zoom), the marks gone on
// another selection, and the breakdown's two distributions (runs beside, runs apart).
#include <catch2/catch.hpp>
#include <numeric>

#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "draw_frame.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/breakdown/duration_histogram.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/slice_marks.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::SampleWindow;
using contend::test::TinyTrace;

namespace {

DrawList drawMarked(const contend::test::DrawFrame& f, const SliceMarks& marks, TimeNs t0, TimeNs t1, double width) {
    DrawInput in;
    in.trace = f.data->trace.get();
    in.index = &f.data->index;
    in.layout = &f.layout;
    in.axis = TimeAxis{t0, t1, width};
    in.viewHeight = 2000;
    in.marks = &marks;
    return buildDrawList(in);
}

std::uint64_t markedCount(const DrawList& l) {
    return std::accumulate(l.marks.begin(), l.marks.end(), std::uint64_t{0},
                           [](std::uint64_t n, const DrawMark& m) { return n + m.count; });
}

}  // namespace

TEST_CASE("marked slices: outlined one by one when wide, folded into ticks when not, the work bounded by pixels",
          "[timeline][marks]") {
    // 4000 runs of "v" (10 ns every 100 ns) between runs of "o" on one stream; every "v" marked.
    TinyTrace b;
    const auto s = b.stream(1);
    for (int i = 0; i < 4000; ++i) {
        b.op(s, "v", 100 * i, 10);
        b.op(s, "o", 100 * i + 50, 20);
    }
    contend::test::DrawFrame f(b.finish());
    const Trace& t = *f.data->trace;
    std::vector<std::uint32_t> marked;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == "v") marked.push_back(i);
    REQUIRE(marked.size() == 4000);
    const SliceMarks marks(t, f.data->index, marked, "4000 runs of v beside o", marked[7]);
    CHECK(marks.size() == 4000);
    CHECK(marks.contains(marked[0]));
    CHECK(marks.keep() == marked[7]);

    // Zoomed in: 1 ns a pixel, each run 10 px wide and outlined on its own.
    const DrawList in = drawMarked(f, marks, 0, 1000, 1000);
    REQUIRE(in.marks.size() == 10);
    for (std::size_t k = 0; k < in.marks.size(); ++k) {
        CHECK(in.marks[k].outline);
        CHECK(in.marks[k].count == 1);
        CHECK(in.marks[k].slice == marked[k]);
        CHECK(in.marks[k].w == Approx(10));
    }
    // Zoomed out: 400 ns a pixel; every run is in one tick or another, and the frame looked at
    // far fewer marks than it stands for.
    const DrawList out = drawMarked(f, marks, 0, 400000, 1000);
    CHECK(markedCount(out) == 4000);
    CHECK(out.marks.size() < 400);
    for (const DrawMark& m : out.marks) {
        CHECK_FALSE(m.outline);
        CHECK(m.w >= kMinMarkPx);
        CHECK(m.h == Approx(kMarkTickPx));
    }
    CHECK(out.stats.findingsWalked < 1000);
    // Out of view: nothing.
    CHECK(drawMarked(f, marks, 500000, 600000, 1000).marks.empty());
}

TEST_CASE("selecting a pattern marks exactly its runs and shows its two distributions, another selection clears them",
          "[app][patterns]") {
    SampleWindow sample({1400, 900});
    gui::MainWindow& w = sample.window;
    const gui::ReportPtr r = w.session()->report();
    REQUIRE(r);
    REQUIRE(!r->patterns.empty());
    const ContentionPattern& p = r->patterns[0];
    REQUIRE(p.runs.size() == p.runsBeside);
    REQUIRE(p.apartSlices.size() == p.runsApart);

    // The Patterns tab's row, as a click on it sends it.
    TablePanel* panel = w.patternPanel();
    emit panel->rowPicked(panel->model()->index(0, 0));
    const quint32 costliest = panel->model()->index(0, 0).data(SliceRole).toUInt();
    REQUIRE(costliest != kNone);
    CHECK(w.timeline()->selectedSlice() == costliest);  // the costliest run stays selected
    const SliceMarks* marks = w.timeline()->marks();
    REQUIRE(marks != nullptr);
    std::vector<std::uint32_t> runs;
    for (const PatternRun& run : p.runs) runs.push_back(run.slice);
    std::sort(runs.begin(), runs.end());
    CHECK(marks->size() == p.runs.size());
    CHECK(marks->slices() == runs);
    CHECK(QString::fromStdString(marks->label()).startsWith(QStringLiteral("%1 runs of ").arg(p.runs.size())));

    // The breakdown: the pattern in its title, two series whose counts are the runs beside and apart.
    BreakdownView* bd = w.breakdown();
    CHECK(bd->pattern() == 0);
    CHECK(bd->slice() == costliest);
    const PairedHistogram& h = bd->patternHistogram();
    auto sum = [](const DurationHistogram& d) {
        return std::accumulate(d.counts.begin(), d.counts.end(), std::uint64_t{0});
    };
    CHECK(sum(h.beside) == p.runsBeside);
    CHECK(sum(h.apart) == p.runsApart);
    CHECK(h.beside.counts.size() == h.apart.counts.size());
    CHECK(h.medianBeside > h.medianApart);  // a pattern: slower beside
    int series = 0;
    for (int i = 0; i < bd->plot()->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(bd->plot()->plottable(i)))
            series += bars->name() == QStringLiteral("beside") || bars->name() == QStringLiteral("apart");
    CHECK(series == 2);

    // Another operator selected: the marks and the distributions go.
    const quint32 other = costliest == 0 ? 1 : 0;
    w.selectSlice(other, false);
    CHECK(w.timeline()->marks() == nullptr);
    CHECK(bd->pattern() == kNone);

    // A window selected: gone too.
    w.showPattern(0);
    REQUIRE(w.timeline()->marks() != nullptr);
    if (!r->windows.empty()) {
        w.showWindow(0);
        CHECK(w.timeline()->marks() == nullptr);
        CHECK(bd->pattern() == kNone);
    }
    // Esc on the timeline: gone.
    w.showPattern(0);
    REQUIRE(w.timeline()->marks() != nullptr);
    CHECK(w.timeline()->navigateKey(Qt::Key_Escape));
    CHECK(w.timeline()->marks() == nullptr);
    CHECK(bd->pattern() == kNone);
}

TEST_CASE("paired histogram: one set of bins, each side's counts its sample, each side's median", "[breakdown]") {
    const PairedHistogram h = makePairedHistogram({10, 12, 14, 100}, {1, 2, 3});
    REQUIRE(h.beside.counts.size() == h.apart.counts.size());
    CHECK(h.beside.lo == h.apart.lo);
    CHECK(h.beside.width == h.apart.width);
    CHECK(std::accumulate(h.beside.counts.begin(), h.beside.counts.end(), 0u) == 4);
    CHECK(std::accumulate(h.apart.counts.begin(), h.apart.counts.end(), 0u) == 3);
    CHECK(h.medianBeside == 13);
    CHECK(h.medianApart == 2);
    const PairedHistogram none = makePairedHistogram({}, {});
    CHECK(none.beside.counts.empty());
    CHECK(none.medianApart == 0);
}
