// The Breakdowns (HTA) tab's bandwidth histogram (widgets/breakdowns/bandwidth_histogram_chart.h):
// one histogram per copy kind from the report's memory-bandwidth section, shown for a trace with
// copies, absent for one without.
#include <catch2/catch.hpp>
#include <string>

#include <qcustomplot.h>

#include "core/analysis/breakdowns/breakdowns.h"
#include "gui_support.h"
#include "widgets/breakdowns/bandwidth_histogram_chart.h"
#include "widgets/breakdowns/breakdowns_chart.h"

using namespace contend;
using namespace contend::widgets;

namespace {

std::string deviceOp(const char* cat, const char* name, int ts, int dur, const std::string& extra) {
    return std::string("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name +
           "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) +
           ", \"args\": {\"stream\": 7, \"device\": 0" + extra + "}}";
}

// A kernel, two device-to-device copies (4 and 40 GB/s) and a host-to-device one (2 GB/s).
TracePtr withCopies() {
    return test::loadJson(
        "{\"traceEvents\": [\n" + deviceOp("kernel", "gemm", 0, 10, "") + ",\n" +
        deviceOp("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 20, 10, ", \"bytes\": 40000") + ",\n" +
        deviceOp("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 40, 10, ", \"bytes\": 400000") + ",\n" +
        deviceOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 60, 10, ", \"bytes\": 20000") + "\n]}");
}

TracePtr withoutCopies() {
    return test::loadJson("{\"traceEvents\": [\n" + deviceOp("kernel", "gemm", 0, 10, "") + "\n]}");
}

}  // namespace

TEST_CASE("breakdowns tab: a bandwidth histogram per copy kind, absent without copies") {
    BreakdownsChart chart;
    chart.resize(1200, 400);
    chart.show();
    const TraceBreakdowns with = computeBreakdowns(*withCopies());
    REQUIRE(with.memoryBandwidth.rows.size() == 2);
    chart.setBreakdowns(with);
    CHECK(chart.histogram()->isVisible());
    CHECK(chart.histogram()->kinds() == 2);
    // The kind with the most copies first (DtoD: 2), its bars adding up to its copies.
    auto barsSum = [&] {
        auto* bars = qobject_cast<QCPBars*>(chart.histogram()->plot()->plottable(0));
        REQUIRE(bars);
        double sum = 0;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) sum += it->value;
        return sum;
    };
    const std::size_t dtod = with.memoryBandwidth.rows[0].kind == "Memcpy DtoD" ? 0 : 1;
    CHECK(chart.histogram()->shownKind() == static_cast<int>(dtod));
    CHECK(barsSum() == Approx(2.0));
    // Linked to the bandwidth chart: the other kind's bars show its histogram.
    chart.histogram()->showKind(static_cast<int>(1 - dtod));
    CHECK(chart.histogram()->shownKind() == static_cast<int>(1 - dtod));
    CHECK(barsSum() == Approx(1.0));
    chart.setBreakdowns(computeBreakdowns(*withoutCopies()));
    CHECK_FALSE(chart.histogram()->isVisible());
    CHECK(chart.histogram()->kinds() == 0);
    chart.setBreakdowns(with);
    CHECK(chart.histogram()->isVisible());
    chart.clear();  // no report
    CHECK_FALSE(chart.histogram()->isVisible());
}
