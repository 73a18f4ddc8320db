// The timeline's overlay of a report (widgets/timeline/report_overlay.h), built on every slider
// step: from a report straight from the engine it reads the windows' tracks from their compact
// rows and builds no window (building them was most of a step at 1M operators), and it indexes
// the same spans as from the same windows built; its flagged-operator index (one walk over the
// lanes when many are flagged, a sort when few) answers every lane range as a brute force does.
#include <catch2/catch.hpp>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/timeline_data.h"

using namespace contend;
using namespace contend::widgets;

namespace {

std::vector<std::uint32_t> tracksOf(const ReportOverlay& o, const WindowSpan& w) {
    const std::span<const std::uint32_t> t = o.tracksOf(w);
    return {t.begin(), t.end()};
}

// The spans of one track's layers, as (start, end, id), in layer order.
std::vector<std::tuple<TimeNs, TimeNs, std::uint32_t>> spansOf(const SpanLayers& layers) {
    std::vector<std::tuple<TimeNs, TimeNs, std::uint32_t>> out;
    for (const SpanLayer& l : layers.layers())
        for (std::size_t k = 0; k < l.size(); ++k) out.emplace_back(l.starts[k], l.ends[k], l.ids[k]);
    return out;
}

}  // namespace

TEST_CASE("a slider step's overlay builds no window and shades the tracks the built windows join",
          "[timeline][overlay][lazy]") {
    const TracePtr trace = test::simulated(sim::Scenario::Mixed, false, 3).trace;
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const auto data = makeTimelineData(trace);
    for (double k : {0.0, 3.0}) {
        INFO("coefficient " << k);
        const Report lazy = buildReport(*p, k, 0.3);
        REQUIRE(lazy.windows.size() > 10);
        REQUIRE(lazy.windows.compactTracks());
        const ReportOverlay fromRows(*trace, data->index, lazy, SliceView::none());
        CHECK(!lazy.windows.built());
        // The same windows built and held as a plain vector (a report read from a file).
        Report built = buildReport(*p, k, 0.3);
        built.windows.edit();
        REQUIRE(!built.windows.lazy());
        const ReportOverlay fromOps(*trace, data->index, built, SliceView::none());
        REQUIRE(fromRows.windows().size() == fromOps.windows().size());
        std::size_t several = 0;
        for (std::size_t w = 0; w < fromOps.windows().size(); ++w) {
            const WindowSpan& a = fromRows.windows()[w];
            const WindowSpan& b = fromOps.windows()[w];
            CHECK(a.window == b.window);
            CHECK(a.start == b.start);
            CHECK(a.end == b.end);
            CHECK(a.resource == b.resource);
            CHECK(tracksOf(fromRows, a) == tracksOf(fromOps, b));
            several += tracksOf(fromOps, b).size() > 1;
        }
        CHECK(several > 0);
        for (std::uint32_t t = 0; t < trace->tracks().size(); ++t) {
            CHECK(spansOf(fromRows.windowsOn(t)) == spansOf(fromOps.windowsOn(t)));
            CHECK(spansOf(fromRows.clustersOn(t)) == spansOf(fromOps.clustersOn(t)));
        }
    }
}

TEST_CASE("the overlay's flagged operators per lane answer as a brute force, many or few flagged",
          "[timeline][overlay]") {
    const TracePtr trace = test::simulated(sim::Scenario::Mixed, false, 5).trace;
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const auto data = makeTimelineData(trace);
    const TimelineIndex& index = data->index;
    // Coefficient 0 flags a large share (the walk over the lanes), 3 a few (the sort).
    for (double k : {0.0, 3.0}) {
        const Report r = buildReport(*p, k, 0.7);
        INFO("coefficient " << k << ", " << r.anomalies.size() << " of " << trace->slices().size() << " flagged");
        REQUIRE(r.anomalies.size() > 0);
        const ReportOverlay o(*trace, index, r, SliceView::none());
        for (std::uint32_t a = 0; a < r.anomalies.size(); ++a) CHECK(o.anomalyOf(r.anomalies.slice(a)) == a);
        std::uint32_t x = 99;
        std::size_t flaggedRanges = 0;
        for (std::uint32_t lane = 0; lane < index.laneCount(); ++lane) {
            const auto n = static_cast<std::uint32_t>(index.lane(lane).slices.size());
            for (int q = 0; q < 40 && n > 0; ++q) {
                x = x * 1664525u + 1013904223u;
                const std::uint32_t b = (x >> 8) % n;
                x = x * 1664525u + 1013904223u;
                const std::uint32_t e = b + 1 + (x >> 8) % (n - b);
                std::uint32_t count = 0, best = kNone;
                for (std::uint32_t pos = b; pos < e; ++pos) {
                    const std::uint32_t a = o.anomalyOf(index.lane(lane).slices[pos]);
                    if (a == kNone) continue;
                    ++count;
                    if (best == kNone ||
                        static_cast<float>(r.anomalies.score(a)) > static_cast<float>(r.anomalies.score(best)))
                        best = a;
                }
                CHECK(o.anomalyCount(lane, b, e) == count);
                CHECK(o.maxAnomaly(lane, b, e) == best);
                flaggedRanges += count > 0;
            }
        }
        CHECK(flaggedRanges > 20);
    }
}
