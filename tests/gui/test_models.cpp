// The report tables: every model and its sort/filter proxy pass QAbstractItemModelTester, through
// re-thresholds; proxies sort by raw values and filter by words; the network drill-down walks
// type -> signature -> occurrence and back.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QTableView>

#include "app/gui/synthetic_trace.h"
#include "core/analysis/engine.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/cluster_model.h"
#include "widgets/tables/iteration_model.h"
#include "widgets/tables/name_stats_model.h"
#include "widgets/tables/occurrence_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/signature_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/tables/type_model.h"
#include "widgets/tables/window_model.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::WarningCapture;

namespace {

// The bundled sample analysed once for all tests here (or a synthetic trace when it is missing).
struct Analysed {
    TracePtr trace;
    std::shared_ptr<const PreparedAnalysis> prepared;
    std::shared_ptr<const Report> at(double coefficient, double overlap) const {
        return std::make_shared<const Report>(buildReport(*prepared, coefficient, overlap));
    }
};

const Analysed& analysed() {
    static Analysed a = [] {
        Analysed r;
        if (contend::test::haveSample())
            r.trace = loadTrace(contend::test::samplePath().toStdString()).value();
        else
            r.trace = contend::gui::makeSyntheticTrace(20000);
        r.prepared = prepareAnalysis(r.trace, AnalysisSettings{}).value();
        return r;
    }();
    return a;
}

// Runs the tester over a model and over a TableProxy on top of it while `change` mutates the
// source; returns the warnings the tester logged.
QStringList testModel(QAbstractItemModel* model, const std::function<void()>& change) {
    WarningCapture capture;
    {
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
        TableProxy proxy;
        proxy.setSourceModel(model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
        for (int c = 0; c < model->columnCount(); ++c) {
            proxy.sort(c, Qt::AscendingOrder);
            proxy.sort(c, Qt::DescendingOrder);
        }
        proxy.setFilterWords(QStringLiteral("a"));
        proxy.setFilterWords(QString());
        change();
        proxy.sort(0, Qt::AscendingOrder);
    }
    return capture.warnings();
}

}  // namespace

TEST_CASE("report table models pass QAbstractItemModelTester", "[tables][modeltest]") {
    const Analysed& a = analysed();
    REQUIRE(a.prepared);
    auto loose = a.at(1.5, 0.3);
    auto strict = a.at(6.0, 0.9);
    REQUIRE(loose->anomalies.size() > strict->anomalies.size());

    SECTION("anomalies") {
        AnomalyModel m;
        m.setReport(a.trace, loose);
        CHECK(m.rowCount() == static_cast<int>(loose->anomalies.size()));
        CHECK(m.columnCount() == AnomalyModel::ColumnCount);
        CHECK(testModel(&m, [&] {
                  m.setReport(a.trace, strict);
                  m.setReport(a.trace, nullptr);
                  m.setReport(a.trace, loose);
              }).isEmpty());
    }
    SECTION("signatures, types, iterations") {
        SignatureModel s;
        s.setReport(loose);
        CHECK(s.rowCount() == static_cast<int>(loose->operators.size()));
        CHECK(testModel(&s, [&] { s.setReport(strict); }).isEmpty());
        TypeModel t;
        t.setReport(loose);
        CHECK(t.rowCount() == static_cast<int>(loose->types.size()));
        CHECK(testModel(&t, [&] { t.setReport(strict); }).isEmpty());
        IterationModel i;
        i.setReport(a.trace, loose);
        CHECK(i.rowCount() == static_cast<int>(loose->iterations.size()));
        CHECK(testModel(&i, [&] { i.setReport(a.trace, strict); }).isEmpty());
    }
    SECTION("windows and clusters") {
        WindowModel w;
        w.setReport(a.trace, loose);
        CHECK(w.rowCount() == static_cast<int>(loose->windows.size()));
        CHECK(testModel(&w, [&] { w.setReport(a.trace, strict); }).isEmpty());
        ClusterModel c;
        c.setReport(a.trace, loose);
        CHECK(c.rowCount() == static_cast<int>(loose->clusters.size()));
        CHECK(testModel(&c, [&] { c.setReport(a.trace, strict); }).isEmpty());
    }
    SECTION("occurrences and names") {
        OccurrenceModel o;
        REQUIRE(!loose->operators.empty());
        o.setSignature(a.trace, loose, a.prepared->sliceView(), 0);
        CHECK(o.rowCount() == static_cast<int>(loose->operators[0].count));
        CHECK(testModel(&o, [&] {
                  o.updateReport(strict);
                  o.setSignature(a.trace, strict, a.prepared->sliceView(), 1);
                  o.clear();
              }).isEmpty());
        NameStatsModel n;
        n.setTrace(a.trace);
        CHECK(n.rowCount() == static_cast<int>(a.trace->nameStats().size()));
        CHECK(testModel(&n, [&] {
                  n.setTrace(nullptr);
                  n.setTrace(a.trace);
              }).isEmpty());
    }
}

TEST_CASE("a slider step's windows table builds no window while its gains are pending", "[tables][lazy][slider]") {
    const Analysed& a = analysed();
    const auto findings = a.at(0.5, 0.3);
    REQUIRE(findings->windows.size() > 3);
    REQUIRE(findings->windows.lazy());
    WindowModel m;
    m.setReport(a.trace, findings, true);
    TablePanel panel(&m, QString());
    // Sorted by a column the rows carry, and by one the built windows do: neither builds them.
    panel.sortBy(WindowModel::Duration, Qt::DescendingOrder);
    panel.sortBy(WindowModel::ExtraWait, Qt::DescendingOrder);
    for (int row = 0; row < m.rowCount(); ++row)
        for (int col = 0; col < m.columnCount(); ++col) {
            (void)m.index(row, col).data();
            (void)m.index(row, col).data(Qt::ToolTipRole);
        }
    CHECK(!findings->windows.built());
    CHECK(m.index(0, WindowModel::Ops).data().toString() == QStringLiteral("computing…"));
    CHECK(m.index(0, WindowModel::ExtraWait).data().toString() == QStringLiteral("computing…"));
    CHECK(m.index(0, WindowModel::Gain).data().toString() == QStringLiteral("computing…"));
    // The compact cells are the built window's.
    const auto full = a.at(0.5, 0.3);
    const ContentionWindow& w0 = full->windows[0];
    CHECK(m.index(0, WindowModel::Id).data(SortRole).toLongLong() == w0.id);
    CHECK(m.index(0, WindowModel::Start).data(SortRole).toLongLong() == w0.start);
    CHECK(m.index(0, WindowModel::Duration).data(SortRole).toLongLong() == w0.end - w0.start);
    CHECK(m.index(0, WindowModel::Known).data().toString() == QString::fromLatin1(provenanceName(w0.provenance)));
    std::set<std::uint32_t> tracks;
    for (const WindowOp& op : w0.ops) tracks.insert(a.trace->slices()[op.slice].track);
    CHECK(m.index(0, WindowModel::Tracks).data(SortRole).toLongLong() == static_cast<qint64>(tracks.size()));
    // Once the gains are in (the what-if built the windows), the same report shows them.
    m.setReport(a.trace, full, false);
    panel.sortBy(WindowModel::ExtraWait, Qt::DescendingOrder);
    CHECK(m.index(0, WindowModel::Ops).data().toString() == QString::number(w0.ops.size()));
    TimeNs top = 0;
    for (const ContentionWindow& w : full->windows) {
        TimeNs extra = 0;
        for (const WindowOp& op : w.ops) extra += op.extraWaitNs;
        top = std::max(top, extra);
    }
    CHECK(panel.proxy()->index(0, WindowModel::ExtraWait).data(SortRole).toLongLong() == top);
}

TEST_CASE("tables sort by raw values and filter by words", "[tables][proxy]") {
    const Analysed& a = analysed();
    auto r = a.at(1.5, 0.3);
    REQUIRE(r->anomalies.size() >= 3);
    AnomalyModel m;
    m.setReport(a.trace, r);
    TableProxy proxy;
    proxy.setSourceModel(&m);
    SECTION("durations sort as numbers, not as text") {
        proxy.sort(AnomalyModel::Duration, Qt::AscendingOrder);
        qint64 prev = -1;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const qint64 d = proxy.index(row, AnomalyModel::Duration).data(SortRole).toLongLong();
            CHECK(d >= prev);
            prev = d;
        }
    }
    SECTION("the report's order is by score, highest first") {
        for (int row = 1; row < m.rowCount(); ++row)
            CHECK(m.index(row - 1, AnomalyModel::Score).data(SortRole).toDouble() >=
                  m.index(row, AnomalyModel::Score).data(SortRole).toDouble());
    }
    SECTION("every word must match some column") {
        const QString name = m.index(0, AnomalyModel::Name).data().toString();
        const QString cause = m.index(0, AnomalyModel::Cause).data().toString();
        proxy.setFilterWords(name + QStringLiteral(" ") + cause.toUpper());
        REQUIRE(proxy.rowCount() >= 1);
        for (int row = 0; row < proxy.rowCount(); ++row) {
            CHECK(proxy.index(row, AnomalyModel::Name).data().toString().contains(name));
            CHECK(proxy.index(row, AnomalyModel::Cause).data().toString() == cause);
        }
        proxy.setFilterWords(QStringLiteral("no-such-operator-anywhere"));
        CHECK(proxy.rowCount() == 0);
    }
    SECTION("rows carry the slice and span they stand for") {
        const QModelIndex i = m.index(0, 0);
        CHECK(i.data(SliceRole).toUInt() == r->anomalies[0].slice);
        const Slice& s = a.trace->slices()[r->anomalies[0].slice];
        CHECK(i.data(StartRole).toLongLong() == s.start);
        CHECK(i.data(EndRole).toLongLong() == s.end());
        CHECK(m.rowOfSlice(r->anomalies[2].slice) == 2);
        CHECK(m.rowOfSlice(kNone) == -1);
    }
}

TEST_CASE("the network view drills from type to signature to occurrence and back", "[tables][browser]") {
    const Analysed& a = analysed();
    auto r = a.at(3.0, 0.7);
    OperatorBrowser b;
    b.setTrace(a.trace);
    CHECK(b.level() == OperatorBrowser::LevelKind::Root);
    CHECK(b.breadcrumb() == QStringLiteral("Network"));
    b.setReport(r, a.prepared->sliceView());
    b.setGrouping(OperatorBrowser::Grouping::Type);
    REQUIRE(!r->types.empty());
    // Open the first type: only its signatures are listed.
    const QString type = QString::fromStdString(r->types.front().type);
    b.openType(type);
    CHECK(b.level() == OperatorBrowser::LevelKind::TypeSignatures);
    TablePanel* sigs = b.currentPanel();
    REQUIRE(sigs->proxy()->rowCount() >= 1);
    for (int row = 0; row < sigs->proxy()->rowCount(); ++row)
        CHECK(sigs->proxy()->index(row, SignatureModel::Type).data().toString() == type);
    // Open one of its signatures: its occurrences, in time order.
    const auto sig = static_cast<std::uint32_t>(sigs->proxy()->index(0, 0).data(IdRole).toLongLong());
    quint32 picked = kNone;
    QObject::connect(&b, &OperatorBrowser::occurrencePicked, [&](quint32 s) { picked = s; });
    b.openSignature(sig);
    CHECK(b.level() == OperatorBrowser::LevelKind::Occurrences);
    CHECK(b.depth() == 2);
    CHECK(b.occurrenceModel()->rowCount() == static_cast<int>(r->operators[sig].count));
    CHECK(b.breadcrumb().startsWith(QStringLiteral("Network › ") + type + QStringLiteral(" › ")));
    // Picking a row asks for that occurrence on the timeline.
    QTableView* view = b.occurrencePanel()->view();
    view->selectionModel()->setCurrentIndex(view->model()->index(0, 0),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    CHECK(picked == b.occurrenceModel()->slices()[static_cast<std::size_t>(
                        b.occurrencePanel()->proxy()->mapToSource(view->model()->index(0, 0)).row())]);
    // A re-threshold keeps the drill-down where it is.
    b.setReport(a.at(5.0, 0.8), a.prepared->sliceView());
    CHECK(b.level() == OperatorBrowser::LevelKind::Occurrences);
    b.back();
    CHECK(b.level() == OperatorBrowser::LevelKind::TypeSignatures);
    b.back();
    CHECK(b.level() == OperatorBrowser::LevelKind::Root);
    b.back();  // at the root: stays
    CHECK(b.depth() == 0);
}

TEST_CASE("the occurrence table and the breakdown list a signature's occurrences as a pass over every slice does",
          "[tables][breakdown][views]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    const Analysed& a = analysed();
    REQUIRE(a.prepared);
    const auto r = a.at(3.0, 0.7);
    const SliceViewPtr& view = a.prepared->sliceView();
    const auto& slices = a.trace->slices();
    // The brute force: every slice's signature from the operators, each signature's slices
    // gathered by one pass over all of them.
    const OperatorSet& ops = a.prepared->operators();
    std::vector<std::uint32_t> sigOf(slices.size(), kNone);
    for (std::uint32_t op = 0; op < ops.size(); ++op) sigOf[ops.slices[op]] = ops.signatureOf[op];
    REQUIRE(r->operators.size() > 1);
    OccurrenceModel o;
    BreakdownView b;
    b.setTrace(a.trace);
    b.setReport(r, view);
    std::size_t checked = 0;
    for (std::uint32_t sig = 0; sig < r->operators.size(); ++sig) {
        CAPTURE(sig);
        std::vector<std::uint32_t> brute;
        std::vector<TimeNs> durations;
        for (std::uint32_t s = 0; s < slices.size(); ++s)
            if (sigOf[s] == sig) {
                brute.push_back(s);
                durations.push_back(slices[s].dur);
            }
        o.setSignature(a.trace, r, view, sig);
        // The same rows: those slices, by start.
        REQUIRE(o.rowCount() == static_cast<int>(brute.size()));
        std::vector<std::uint32_t> rows = o.slices();
        for (std::size_t k = 1; k < rows.size(); ++k) CHECK(slices[rows[k - 1]].start <= slices[rows[k]].start);
        std::sort(rows.begin(), rows.end());
        CHECK(rows == brute);
        // Each row's score is its operator's.
        for (int row = 0; row < o.rowCount(); ++row) {
            const std::uint32_t s = o.slices()[static_cast<std::size_t>(row)];
            const double score = o.index(row, OccurrenceModel::Score).data(SortRole).toDouble();
            CHECK(score == Approx(a.prepared->baselines().score[ops.opOfSlice[s]]));
        }
        // The breakdown's histogram is that of the same durations; a slice of the signature
        // selects it.
        if (checked < 40 || brute.size() > 100) {
            b.showSignature(sig);
            const DurationHistogram want = makeHistogram(durations);
            CHECK(b.histogram().counts == want.counts);
            CHECK(b.histogram().lo == want.lo);
            CHECK(b.histogram().width == want.width);
            CHECK(b.histogram().max == want.max);
            b.showSlice(brute.front());
            CHECK(b.signature() == sig);
            ++checked;
        }
    }
    CHECK(checked > 0);
    // A signature past the end: no rows.
    o.setSignature(a.trace, r, view, static_cast<std::uint32_t>(r->operators.size()));
    CHECK(o.rowCount() == 0);
}

namespace {
// A model that breaks the rules: children under every index.
class BrokenModel : public QAbstractTableModel {
  public:
    int rowCount(const QModelIndex&) const override { return 3; }
    int columnCount(const QModelIndex&) const override { return 2; }
    QVariant data(const QModelIndex&, int) const override { return {}; }
};
}  // namespace

TEST_CASE("the model test harness does catch a broken model", "[tables][modeltest]") {
    BrokenModel broken;
    CHECK_FALSE(testModel(&broken, [] {}).isEmpty());
}
