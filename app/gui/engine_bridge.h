#pragma once
// The app's only door to the analysis engine and the report writers of core/. While those are
// being written the app builds without them (engineAvailable() is false and the views show the
// trace alone); once core/analysis/engine.h and core/report/*.h exist they are used as they are.
// PreparedHandle hides the engine's PreparedAnalysis type from the rest of the app.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/analysis/compare.h"
#include "core/analysis/report.h"
#include "core/trace/trace.h"
#include "widgets/heatmap/heatmap_grid.h"

namespace contend {
class WhatIfCache;
}

namespace contend::gui {

using PreparedHandle = std::shared_ptr<const void>;
// The what-if's replays kept between the re-thresholds of one prepared analysis (whatif.h).
// Used by one report build at a time: each session has its own.
using WhatIfCachePtr = std::shared_ptr<WhatIfCache>;

bool engineAvailable();
// The slow part (worker thread). Null with *error set when it fails.
PreparedHandle prepareAnalysisHandle(TracePtr trace, const AnalysisSettings& settings, std::string* error,
                                     const std::function<bool()>& keepGoing = {});
// The re-threshold (any thread): buildReport, then the what-if (predictGains: gains, slack,
// critical paths), as contend-cli analyze does. Null without an engine, or when keepGoing
// returned false during the what-if (the half-filled report is dropped). With `cache` (made by
// makeWhatIfCache for this prepared analysis) the replays of earlier builds whose changes did
// not move are looked up instead of run; the report is the same. `whatIfMs`: the what-if's time.
std::shared_ptr<const Report> buildReportShared(const PreparedHandle& prepared, double coefficient, double overlapRatio,
                                                const std::function<bool()>& keepGoing = {},
                                                const WhatIfCachePtr& cache = nullptr, double* whatIfMs = nullptr);
// An empty cache for this prepared analysis (null without an engine or a prepared analysis).
WhatIfCachePtr makeWhatIfCache(const PreparedHandle& prepared);

// Share of [a, b) each resource spent above its high-utilisation threshold, from the prepared
// analysis' resource timelines; empty when the trace has no counters mapped to resources.
widgets::PressureSource pressureSource(const PreparedHandle& prepared);

bool reportWritersAvailable();
// The same text contend-cli analyze writes; nullopt without the writers.
std::optional<std::string> reportJsonText(const Report& report, const Trace& trace);
std::optional<std::string> reportMarkdownText(const Report& report, const Trace& trace);
// A comparison as contend-cli compare --json / --markdown writes it; nullopt without the writers.
std::optional<std::string> compareJsonText(const CompareResult& result);
std::optional<std::string> compareMarkdownText(const CompareResult& result);

// Writes a file atomically (temp file + rename): core's writer when present, else QSaveFile.
bool writeFileAtomic(const std::string& path, const std::string& content, std::string* error);

}  // namespace contend::gui
