#pragma once
// The contention heatmap's grid (pure, no Qt): time bins over a view range by rows of resources
// or streams. A cell's value is the extra wait in it per unit of time: each anomaly's excess
// spread evenly over its run time, in the row of its cause (or of its track), and each cluster's
// gaps spread over the cluster, in the sync row (or its track), as the report's summary counts
// them. 1.0 means one operator was waiting all through the bin. With a pressure source, the
// resource rows can instead show the fraction of the bin the resource spent above its high
// utilisation threshold.
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend::widgets {

enum class HeatmapRows { Resources, Streams };
enum class HeatmapMetric { ExtraWait, Pressure };

// Fraction (0..1) of [t0, t1) the resource spent above its high threshold; NaN if unknown.
using PressureSource = std::function<double(Resource, TimeNs, TimeNs)>;

struct HeatmapGrid {
    TimeNs t0 = 0;
    TimeNs t1 = 0;
    int bins = 0;
    HeatmapRows rows = HeatmapRows::Resources;
    HeatmapMetric metric = HeatmapMetric::ExtraWait;
    std::vector<std::string> labels;      // per row, top to bottom
    std::vector<Resource> rowResource;    // Resources rows
    std::vector<std::uint32_t> rowTrack;  // Streams rows
    std::vector<double> values;           // row-major: values[row * bins + bin]
    double maxValue = 0;

    int rowCount() const { return static_cast<int>(labels.size()); }
    double at(int row, int bin) const {
        return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(bins) + static_cast<std::size_t>(bin)];
    }
    TimeNs binStart(int bin) const;
    TimeNs binEnd(int bin) const { return binStart(bin + 1); }
    int binOf(TimeNs t) const;  // -1 outside
};

// Bandwidth, compute, cache, issue slots and sync always get a row; lock and queue only when flagged.
// `alsoRows`: resources to give a row even when this report flags none (a compare's other run
// flags them, and side-by-side heatmaps share their rows).
HeatmapGrid buildHeatmap(const Trace& trace, const Report& report, TimeNs t0, TimeNs t1, int bins, HeatmapRows rows,
                         HeatmapMetric metric = HeatmapMetric::ExtraWait, const PressureSource& pressure = {},
                         const std::vector<Resource>& alsoRows = {});

// True when a grid built from `a` equals one built from `b` (the same trace, range, bins, rows
// and metric): the same anomalies (slice, excess, cause, in order) and clusters (span, gaps,
// track). A re-threshold that moves only the overlap ratio changes the windows, not these.
bool sameHeatmapFindings(const Report& a, const Report& b);

// The contention window under a cell (same resource, or joining that stream, covering the bin
// time), the longest if several; kNone if none.
std::uint32_t windowAt(const Trace& trace, const Report& report, const HeatmapGrid& grid, int row, int bin);

// The flagged operators a cell counts (in that row: of that cause, or on that track; running
// during the bin), as indices into Report::anomalies, highest score first.
std::vector<std::uint32_t> anomaliesAt(const Trace& trace, const Report& report, const HeatmapGrid& grid, int row,
                                       int bin);

}  // namespace contend::widgets
