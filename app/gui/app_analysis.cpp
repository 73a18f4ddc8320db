#include "app/gui/app_analysis.h"

#include <utility>

#include "core/analysis/whatif/whatif.h"
#include "core/pipeline/analyze_trace.h"

namespace contend::gui {

ReportPtr buildReportForApp(const PreparedAnalysis& prepared, const Thresholds& t,
                            const std::function<bool()>& keepGoing, WhatIfCache* cache, double* whatIfMs) {
    PipelineTimes times;
    ReportStageOptions stage;
    stage.keepGoing = keepGoing;
    stage.cache = cache;
    stage.times = &times;
    Result<Report> report = reportOf(prepared, t, stage);
    if (whatIfMs) *whatIfMs = times.whatIfMs;
    if (!report) return nullptr;
    return std::make_shared<const Report>(std::move(report).value());
}

WhatIfCachePtr makeWhatIfCache(const PreparedPtr& prepared) {
    return prepared ? std::make_shared<WhatIfCache>(prepared->dependencyGraphPtr()) : nullptr;
}

widgets::PressureSource pressureSourceOf(const PreparedPtr& prepared) {
    if (!prepared || !prepared->timelines().any()) return {};
    return [prepared](Resource r, TimeNs a, TimeNs b) { return prepared->timelines().highShare(r, a, b); };
}

}  // namespace contend::gui
