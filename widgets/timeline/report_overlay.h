#pragma once
// What the timeline needs from a Report, indexed for drawing (pure, no Qt): which slice is
// flagged, the highest-scoring flagged slice inside any run of a lane and how many are flagged
// there (so a folded mark takes the colour of the worst operator it hides and counts them, in
// O(log n)), and per track the contention windows that shade it and the clusters bracketed over
// it, indexed by time (span_layers.h) so a frame finds and folds the visible ones without
// walking the rest; and per track the stretches of the critical path (the what-if's slices with
// zero slack, touching ones merged), indexed the same way. Rebuilt on every re-threshold (a
// slider step waits for it): O(anomalies log anomalies + findings log findings), or one pass over
// the lanes when a large share is flagged, plus one pass over the per-slice slack; the flags and
// the spans are built on the two cores side by side when both are large.
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/timeline/range_max.h"
#include "widgets/timeline/span_layers.h"
#include "widgets/timeline/timeline_index.h"

namespace contend::widgets {

struct WindowSpan {
    std::uint32_t window = 0;  // index into Report::windows
    TimeNs start = 0;
    TimeNs end = 0;
    Resource resource = Resource::Unknown;
    // Its operators' tracks, ascending: ReportOverlay::tracksOf (one array for all windows, not
    // an allocation per window).
    std::uint32_t tracksBegin = 0, tracksEnd = 0;
};

class ReportOverlay {
  public:
    ReportOverlay() = default;
    // `slices`: the per-slice view handed beside the report (slice_view.h), for the critical path.
    ReportOverlay(const Trace& trace, const TimelineIndex& index, const Report& report, const SliceView& slices);

    double coefficient() const { return m_coefficient; }
    // Index into Report::anomalies of the slice's anomaly, kNone if it is not flagged.
    std::uint32_t anomalyOf(std::uint32_t slice) const {
        return slice < m_anomalyOf.size() ? m_anomalyOf[slice] : kNone;
    }
    // Highest-scoring anomaly among lane positions [begin, end); kNone if none there.
    std::uint32_t maxAnomaly(std::uint32_t lane, std::uint32_t begin, std::uint32_t end) const;
    // Number of flagged slices among lane positions [begin, end).
    std::uint32_t anomalyCount(std::uint32_t lane, std::uint32_t begin, std::uint32_t end) const;
    const std::vector<WindowSpan>& windows() const { return m_windows; }  // by Report::windows index
    std::span<const std::uint32_t> tracksOf(const WindowSpan& w) const {
        return {m_windowTracks.data() + w.tracksBegin, m_windowTracks.data() + w.tracksEnd};
    }
    // Per track: the windows that join it (span id: Report::windows index, class: its resource),
    // and its clusters (id: Report::clusters index, weight: its operators). Empty past the end.
    const SpanLayers& windowsOn(std::uint32_t track) const {
        return track < m_windowsOn.size() ? m_windowsOn[track] : m_none;
    }
    const SpanLayers& clustersOn(std::uint32_t track) const {
        return track < m_clustersOn.size() ? m_clustersOn[track] : m_none;
    }
    // Per track: the critical path's stretches (id: its first slice, weight: its slices), from
    // the slices with SliceView::slackOf == 0. Empty when the report has no what-if.
    const SpanLayers& criticalOn(std::uint32_t track) const {
        return track < m_criticalOn.size() ? m_criticalOn[track] : m_none;
    }
    std::size_t criticalSlices() const { return m_criticalSlices; }

  private:
    void indexAnomalies(const Trace& trace, const TimelineIndex& index, const Report& report);
    void indexSpans(const Trace& trace, const Report& report);
    void indexCriticalPath(const Trace& trace, const SliceView& view);

    struct LaneFlags {
        std::vector<std::uint32_t> positions;  // ascending
        std::vector<std::uint32_t> anomalies;  // parallel
        RangeMax scores;
    };
    double m_coefficient = 0;
    std::vector<std::uint32_t> m_anomalyOf;
    std::vector<LaneFlags> m_lanes;
    std::vector<WindowSpan> m_windows;
    std::vector<std::uint32_t> m_windowTracks;
    std::vector<SpanLayers> m_windowsOn;
    std::vector<SpanLayers> m_clustersOn;
    std::vector<SpanLayers> m_criticalOn;
    std::size_t m_criticalSlices = 0;
    SpanLayers m_none;
};

}  // namespace contend::widgets
