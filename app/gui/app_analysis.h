#pragma once
// The app's calls into the analysis engine, all here (the load thread, the session's report
// worker and the benches use them).
//
// The slow part (worker thread): core's prepareAnalysis, whose Result it returns; an exception
// (bad_alloc included) becomes a Failure too (OutOfMemory, or Internal with its text).
#include <functional>

#include "app/gui/opened_trace.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "widgets/heatmap/heatmap_grid.h"

namespace contend::gui {

Result<PreparedPtr> prepareForApp(TracePtr trace, const AnalysisSettings& settings,
                                  const std::function<bool()>& keepGoing = {}, const PrepareProgress& progress = {});
// The re-threshold (any thread): buildReport at `t`, then the what-if (predictGains: gains,
// slack, critical paths), as contend-cli analyze does. Null when keepGoing returned false during
// the what-if (the half-filled report is dropped). With `cache` (made for this prepared
// analysis) the replays of earlier builds whose changes did not move are looked up instead of
// run; the report is the same. `whatIfMs`: the what-if's time.
ReportPtr buildReportForApp(const PreparedAnalysis& prepared, const Thresholds& t,
                            const std::function<bool()>& keepGoing = {}, WhatIfCache* cache = nullptr,
                            double* whatIfMs = nullptr);
// An empty what-if cache for this prepared analysis (null without one).
WhatIfCachePtr makeWhatIfCache(const PreparedPtr& prepared);
// The heatmap's pressure rows from the prepared analysis' resource timelines
// (ResourceTimelines::highShare); the function keeps the analysis alive. Empty when the trace
// has no counters mapped to resources.
widgets::PressureSource pressureSourceOf(const PreparedPtr& prepared);

}  // namespace contend::gui
