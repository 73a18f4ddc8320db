#pragma once
// What a successful open hands to the window: the trace, its timeline index, the prepared
// analysis (null when it failed, with the reason; it owns the per-slice view the views read
// beside each report) and the first report. A preview (analysing) is the same trace as soon as
// it is read and indexed, before its analysis: no prepared analysis and no report yet.
#include <memory>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include "core/analysis/engine.h"
#include "core/analysis/model/report.h"
#include "widgets/timeline/queue_tracks.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/timeline_data.h"

namespace contend {
class WhatIfCache;
}

namespace contend::gui {

using PreparedPtr = std::shared_ptr<const PreparedAnalysis>;
using ReportPtr = std::shared_ptr<const Report>;
// The what-if's replays kept between the re-thresholds of one prepared analysis (whatif.h).
// Used by one report build at a time: each session has its own.
using WhatIfCachePtr = std::shared_ptr<WhatIfCache>;
// A report's timeline overlay (which slices are flagged, windows, clusters, the critical path),
// built off the GUI thread beside the report it draws.
using OverlayPtr = std::shared_ptr<const widgets::ReportOverlay>;

struct OpenedTrace {
    QString path;
    TracePtr trace;
    widgets::TimelineDataPtr timeline;
    // HTA's queue length under each stream: from the analysis' own series once it is in (null in
    // a preview: the first timeline never waits for HTA's scope), from the trace if it failed.
    widgets::QueueTracksPtr queues;
    PreparedPtr prepared;
    ReportPtr report;
    OverlayPtr overlay;      // report's overlay (null: the timeline builds it)
    QString analysisError;   // why there is no report, in words
    QStringList warnings;    // import warnings, in words
    bool analysing = false;  // a preview: the analysis of this trace is still running
    double loadSeconds = 0;
    double analysisSeconds = 0;
    // The trace's per-slice view (slice_view.h: scores, signatures, slack, occurrences), the
    // prepared analysis' own, handed to the views beside every report of this trace; null
    // without an analysis.
    SliceViewPtr sliceView() const { return prepared ? prepared->sliceView() : nullptr; }
};

using OpenedTracePtr = std::shared_ptr<const OpenedTrace>;

// Import warnings and truncation as sentences: "12 events missing ts (first at byte 1234 (line 5))".
QStringList describeWarnings(const Trace& trace);

}  // namespace contend::gui

Q_DECLARE_METATYPE(contend::gui::OpenedTracePtr)
Q_DECLARE_METATYPE(contend::gui::ReportPtr)
Q_DECLARE_METATYPE(contend::gui::OverlayPtr)
