#include "app/gui/app_analysis.h"

#include <chrono>
#include <exception>

#include <QElapsedTimer>

#include "core/analysis/whatif/whatif.h"

namespace contend::gui {

Result<PreparedPtr> prepareForApp(TracePtr trace, const AnalysisSettings& settings,
                                  const std::function<bool()>& keepGoing, const PrepareProgress& progress) {
    try {
        return prepareAnalysis(std::move(trace), settings, keepGoing, progress);
    } catch (const std::bad_alloc& e) {
        return Failure::of(Failure::Kind::OutOfMemory, e.what());
    } catch (const std::exception& e) {
        return Failure::of(Failure::Kind::Internal, e.what());
    }
}

ReportPtr buildReportForApp(const PreparedAnalysis& prepared, const Thresholds& t,
                            const std::function<bool()>& keepGoing, WhatIfCache* cache, double* whatIfMs) {
    auto report = std::make_shared<Report>(buildReport(prepared, t.coefficient, t.overlapRatio));
    WhatIfSettings whatIf;
    whatIf.keepGoing = keepGoing;
    whatIf.cache = cache;
    const auto t0 = std::chrono::steady_clock::now();
    const bool done = predictGains(prepared, *report, whatIf);
    if (whatIfMs) *whatIfMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!done) return nullptr;
    return report;
}

WhatIfCachePtr makeWhatIfCache(const PreparedPtr& prepared) {
    return prepared ? std::make_shared<WhatIfCache>(prepared->dependencyGraphPtr()) : nullptr;
}

widgets::PressureSource pressureSourceOf(const PreparedPtr& prepared) {
    if (!prepared || !prepared->timelines().any()) return {};
    return [prepared](Resource r, TimeNs a, TimeNs b) { return prepared->timelines().highShare(r, a, b); };
}

}  // namespace contend::gui
