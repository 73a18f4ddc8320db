#include "app/gui/engine_bridge.h"

#include <chrono>
#include <exception>
#include <limits>

#include <QSaveFile>

#if __has_include("core/analysis/engine.h")
#include "core/analysis/engine.h"
#include "core/analysis/whatif.h"
#define CONTEND_GUI_HAVE_ENGINE 1
#endif
#if __has_include("core/report/report_json.h")
#include "core/report/report_json.h"
#define CONTEND_GUI_HAVE_REPORT_JSON 1
#endif
#if __has_include("core/report/compare_report.h")
#include "core/report/compare_report.h"
#define CONTEND_GUI_HAVE_COMPARE_REPORT 1
#endif
#if __has_include("core/report/atomic_write.h")
#include "core/report/atomic_write.h"
#define CONTEND_GUI_HAVE_ATOMIC_WRITE 1
#endif

namespace contend::gui {

bool engineAvailable() {
#ifdef CONTEND_GUI_HAVE_ENGINE
    return true;
#else
    return false;
#endif
}

PreparedHandle prepareAnalysisHandle(TracePtr trace, const AnalysisSettings& settings, std::string* error,
                                     const std::function<bool()>& keepGoing) {
#ifdef CONTEND_GUI_HAVE_ENGINE
    try {
        auto prepared = prepareAnalysis(std::move(trace), settings, keepGoing);
        if (prepared) return std::move(prepared).value();
        if (error) *error = prepared.failure().message();
        return nullptr;
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return nullptr;
    }
#else
    (void)trace;
    (void)settings;
    (void)keepGoing;
    if (error) *error = "this build has no analysis engine";
    return nullptr;
#endif
}

std::shared_ptr<const Report> buildReportShared(const PreparedHandle& prepared, double coefficient, double overlapRatio,
                                                const std::function<bool()>& keepGoing, const WhatIfCachePtr& cache,
                                                double* whatIfMs) {
#ifdef CONTEND_GUI_HAVE_ENGINE
    if (!prepared) return nullptr;
    const auto& p = *static_cast<const PreparedAnalysis*>(prepared.get());
    auto report = std::make_shared<Report>(buildReport(p, coefficient, overlapRatio));
    WhatIfSettings whatIf;
    whatIf.keepGoing = keepGoing;
    whatIf.cache = cache.get();
    const auto t0 = std::chrono::steady_clock::now();
    const bool done = predictGains(p, *report, whatIf);
    if (whatIfMs) *whatIfMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!done) return nullptr;
    return report;
#else
    (void)prepared;
    (void)coefficient;
    (void)overlapRatio;
    (void)keepGoing;
    (void)cache;
    (void)whatIfMs;
    return nullptr;
#endif
}

WhatIfCachePtr makeWhatIfCache(const PreparedHandle& prepared) {
#ifdef CONTEND_GUI_HAVE_ENGINE
    if (!prepared) return nullptr;
    return std::make_shared<WhatIfCache>(std::static_pointer_cast<const PreparedAnalysis>(prepared));
#else
    (void)prepared;
    return nullptr;
#endif
}

widgets::PressureSource pressureSource(const PreparedHandle& prepared) {
#ifdef CONTEND_GUI_HAVE_ENGINE
    if (!prepared) return {};
    const auto* p = static_cast<const PreparedAnalysis*>(prepared.get());
    if (!p->timelines().any()) return {};
    // The lambda keeps the prepared analysis alive as long as the heatmap holds it.
    return [prepared, p](Resource r, TimeNs a, TimeNs b) -> double {
        if (b <= a) return std::numeric_limits<double>::quiet_NaN();
        switch (r) {
        case Resource::Bandwidth:
        case Resource::Compute:
        case Resource::Cache:
        case Resource::Issue: break;
        default: return std::numeric_limits<double>::quiet_NaN();
        }
        const ResourceTimeline& t = p->timelines().of(r);
        if (t.empty()) return std::numeric_limits<double>::quiet_NaN();
        return static_cast<double>(t.highTime(a, b)) / static_cast<double>(b - a);
    };
#else
    (void)prepared;
    return {};
#endif
}

bool reportWritersAvailable() {
#ifdef CONTEND_GUI_HAVE_REPORT_JSON
    return true;
#else
    return false;
#endif
}

std::optional<std::string> reportJsonText(const Report& report, const Trace& trace) {
#ifdef CONTEND_GUI_HAVE_REPORT_JSON
    return jsonText(reportToJson(report, trace));
#else
    (void)report;
    (void)trace;
    return std::nullopt;
#endif
}

std::optional<std::string> compareJsonText(const CompareResult& result) {
#ifdef CONTEND_GUI_HAVE_COMPARE_REPORT
    return jsonText(compareToJson(result));
#else
    (void)result;
    return std::nullopt;
#endif
}

std::optional<std::string> compareMarkdownText(const CompareResult& result) {
#ifdef CONTEND_GUI_HAVE_COMPARE_REPORT
    return compareToMarkdown(result);
#else
    (void)result;
    return std::nullopt;
#endif
}

std::optional<std::string> reportMarkdownText(const Report& report, const Trace& trace) {
#ifdef CONTEND_GUI_HAVE_REPORT_JSON
    return reportToMarkdown(report, trace);
#else
    (void)report;
    (void)trace;
    return std::nullopt;
#endif
}

bool writeFileAtomic(const std::string& path, const std::string& content, std::string* error) {
#ifdef CONTEND_GUI_HAVE_ATOMIC_WRITE
    return writeFileAtomically(path, content, error);
#else
    QSaveFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly)) {
        if (error) *error = f.errorString().toStdString();
        return false;
    }
    if (f.write(content.data(), static_cast<qint64>(content.size())) != static_cast<qint64>(content.size())) {
        if (error) *error = f.errorString().toStdString();
        f.cancelWriting();
        return false;
    }
    if (!f.commit()) {
        if (error) *error = f.errorString().toStdString();
        return false;
    }
    return true;
#endif
}

}  // namespace contend::gui
