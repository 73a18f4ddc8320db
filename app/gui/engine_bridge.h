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

namespace contend::gui {

using PreparedHandle = std::shared_ptr<const void>;

bool engineAvailable();
// The slow part (worker thread). Null with *error set when it fails.
PreparedHandle prepareAnalysisHandle(TracePtr trace, const AnalysisSettings& settings, std::string* error,
                                     const std::function<bool()>& keepGoing = {});
// The re-threshold (any thread): buildReport, then the what-if (predictGains: gains, slack,
// critical paths), as contend-cli analyze does. Null without an engine, or when keepGoing
// returned false during the what-if (the half-filled report is dropped).
std::shared_ptr<const Report> buildReportShared(const PreparedHandle& prepared, double coefficient, double overlapRatio,
                                                const std::function<bool()>& keepGoing = {});

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
