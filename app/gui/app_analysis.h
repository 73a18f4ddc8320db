#pragma once
// The app's calls into the analysis (the load thread, the session's report worker and the
// benches use them). Loading and analysing a trace is core's pipeline
// (core/pipeline/analyze_trace.h), the same as contend-cli's; these turn its results into what
// the app hands around.
#include <functional>

#include "app/gui/opened_trace.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "widgets/heatmap/heatmap_grid.h"

namespace contend::gui {

// The re-threshold (any thread): core's reportOf (buildReport at `t`, then the what-if:
// gains, slack, critical paths), as contend-cli analyze does. Null when keepGoing returned false
// during the what-if (the half-filled report is dropped). With `cache` (made for this prepared
// analysis) the replays of earlier builds whose changes did not move are looked up instead of
// run; the report is the same. `whatIfMs`: the what-if's time.
ReportPtr buildReportForApp(const PreparedAnalysis& prepared, const Thresholds& t,
                            const std::function<bool()>& keepGoing = {}, WhatIfCache* cache = nullptr,
                            double* whatIfMs = nullptr);
// A report for the views, freed off the GUI thread: a report of 240k findings takes ~150 ms to
// free, and a slider step drops the one before it wherever the last view lets go of it (the GUI
// thread, mostly). The last owner hands it to a thread of Qt's global pool to free.
ReportPtr shareReport(Report&& report);
// The two halves of a re-threshold, for a slider that never waits on the what-if: the findings
// at `t` (buildReport, no what-if: gains -1), then the what-if on a copy of them. addGainsForApp
// returns null when keepGoing stopped it (a newer step or trace made it stale), and the findings
// without gains when the what-if failed otherwise.
ReportPtr buildFindingsForApp(const PreparedAnalysis& prepared, const Thresholds& t);
ReportPtr addGainsForApp(const PreparedAnalysis& prepared, const Report& findings,
                         const std::function<bool()>& keepGoing = {}, WhatIfCache* cache = nullptr,
                         double* whatIfMs = nullptr);
// The timeline's overlay of `report` on `trace` (its drawing index and per-slice view), for any
// thread; null without a timeline.
OverlayPtr overlayForApp(const OpenedTrace& trace, const Report& report);
// An empty what-if cache for this prepared analysis (null without one).
WhatIfCachePtr makeWhatIfCache(const PreparedPtr& prepared);
// The heatmap's pressure rows from the prepared analysis' resource timelines
// (ResourceTimelines::highShare); the function keeps the analysis alive. Empty when the trace
// has no counters mapped to resources.
widgets::PressureSource pressureSourceOf(const PreparedPtr& prepared);

}  // namespace contend::gui
