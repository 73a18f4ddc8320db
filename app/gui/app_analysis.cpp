#include "app/gui/app_analysis.h"

#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include <QCoreApplication>
#include <QThreadPool>

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
    return shareReport(std::move(report).value());
}

ReportPtr shareReport(Report&& report) {
    return ReportPtr(new Report(std::move(report)), [](const Report* r) {
        // Under a QCoreApplication the pool frees it; without one (a plain test), here.
        if (QCoreApplication::instance() && !QCoreApplication::closingDown())
            QThreadPool::globalInstance()->start([r] { delete r; });
        else
            delete r;
    });
}

ReportPtr buildFindingsForApp(const PreparedAnalysis& prepared, const Thresholds& t) {
    ReportStageOptions stage;
    stage.whatIf = false;
    Result<Report> report = reportOf(prepared, t, stage);
    if (!report) return nullptr;
    return shareReport(std::move(report).value());
}

ReportPtr addGainsForApp(const PreparedAnalysis& prepared, const Report& findings,
                         const std::function<bool()>& keepGoing, WhatIfCache* cache, double* whatIfMs) {
    const auto t0 = std::chrono::steady_clock::now();
    Report report = findings;
    WhatIfSettings whatIf;
    whatIf.keepGoing = keepGoing;
    whatIf.cache = cache;
    std::optional<Failure> stopped;
    try {
        stopped = predictGains(prepared, report, whatIf);
    } catch (const std::exception& e) {
        stopped = Failure::of(Failure::Kind::Internal, e.what());
    }
    if (whatIfMs) *whatIfMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (stopped && stopped->kind == Failure::Kind::Cancelled) return nullptr;
    // A what-if that failed otherwise leaves the findings without gains ("-", not computed).
    if (stopped) return shareReport(Report(findings));
    return shareReport(std::move(report));
}

OverlayPtr overlayForApp(const OpenedTrace& trace, const Report& report) {
    if (!trace.timeline || !trace.trace) return nullptr;
    const SliceViewPtr slices = trace.sliceView();
    return std::make_shared<const widgets::ReportOverlay>(*trace.trace, trace.timeline->index, report,
                                                          slices ? *slices : SliceView::none());
}

WhatIfCachePtr makeWhatIfCache(const PreparedPtr& prepared) {
    return prepared ? std::make_shared<WhatIfCache>(prepared->dependencyGraphPtr()) : nullptr;
}

widgets::PressureSource pressureSourceOf(const PreparedPtr& prepared) {
    if (!prepared || !prepared->timelines().any()) return {};
    return [prepared](Resource r, TimeNs a, TimeNs b) { return prepared->timelines().highShare(r, a, b); };
}

}  // namespace contend::gui
