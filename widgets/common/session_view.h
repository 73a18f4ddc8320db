#pragma once
// What a view of one open trace is given, and the two moments it is given it. A window binds its
// views to its analysis session once (app/gui/view_binder.h); the binder hands every view the
// same ViewInputs when a trace opens and when a re-threshold brings a new report, so no window
// feeds its views one by one.
#include <memory>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/heatmap/heatmap_grid.h"
#include "widgets/timeline/queue_tracks.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/timeline_data.h"

namespace contend::widgets {

struct ViewInputs {
    TracePtr trace;
    TimelineDataPtr timeline;  // the trace's drawing index
    // HTA's queue length under each stream (null: not built yet, it comes with the analysis of a
    // trace shown before it; or none).
    QueueTracksPtr queues;
    std::shared_ptr<const Report> report;  // null: no analysis (or none yet)
    SliceViewPtr slices;                   // per-slice scores, signatures, slack; null without analysis
    PressureSource pressure;               // empty without analysis
    bool gainsPending = false;             // the report's what-if is still running: its gains come next
    // The timeline's overlay of `report`, built off the GUI thread (null: the timeline builds it).
    std::shared_ptr<const ReportOverlay> overlay;
};

class SessionView {
  public:
    virtual ~SessionView() = default;
    // A new trace (and its first report, if any): the view starts over on it.
    virtual void showTrace(const ViewInputs& in) = 0;
    // A new report of the same trace (re-thresholded): the view keeps its place.
    virtual void showReport(const ViewInputs& in) = 0;
    // The analysis of the trace the view shows arrived (it was shown as a preview, without one,
    // while the analysis ran): `in` has the same trace and timeline with the report, slices and
    // pressure. A view the user may have moved in meanwhile (zoomed, scrolled, tracks) keeps its
    // place; the others start over, as for a new trace.
    virtual void showAnalysis(const ViewInputs& in) { showTrace(in); }
};

}  // namespace contend::widgets
