#include "core/report/compare/compare_checks.h"

#include <cmath>
#include <cstdio>

#include "core/trace/time_format.h"

namespace contend {

namespace {

std::string pct(double share, const char* fmt) {
    char b[32];
    std::snprintf(b, sizeof b, fmt, share * 100.0);
    return b;
}

CompareCheck countCheck(const char* name, const char* what, std::size_t added, std::size_t allowed, std::size_t before,
                        std::size_t after) {
    CompareCheck c;
    c.name = name;
    c.detail = std::to_string(added) + " new " + what + " (allowed " + std::to_string(allowed) + "); " +
               std::to_string(before) + " before, " + std::to_string(after) + " after";
    if (added > allowed) {
        c.outcome = CheckOutcome::Failed;
        c.message = c.detail;
    }
    return c;
}

CompareCheck endToEndCheck(const CompareResult& r, const CompareSettings& s) {
    CompareCheck c;
    c.name = "end-to-end within tolerance";
    c.detail = "end-to-end " + formatDuration(r.baseEndToEnd) + " -> " + formatDuration(r.newEndToEnd) + " (" +
               pct(r.endToEndChange, "%+.1f%%") + ", tolerance " + pct(s.endToEndTolerance, "%.1f%%") + ")";
    if (r.endToEndChange > s.endToEndTolerance) {
        c.outcome = CheckOutcome::Failed;
        c.message = "end-to-end time grew " + pct(r.endToEndChange, "%+.1f%%") + ": " + c.detail;
    }
    return c;
}

CompareCheck resourceCheck(const CompareResult& r, const CompareSettings& s, Resource res) {
    const auto k = static_cast<std::size_t>(res);
    const TimeNs before = r.baseByResource[k], after = r.newByResource[k];
    CompareCheck c;
    c.name = std::string("no extra wait added on ") + resourceName(res);
    // The allowance is a share of the base run's span (ns), the same PCT as end-to-end.
    const TimeNs allowed = static_cast<TimeNs>(std::llround(s.endToEndTolerance * static_cast<double>(r.baseEndToEnd)));
    c.detail = std::string("extra wait on ") + resourceName(res) + " " + formatDuration(before) + " -> " +
               formatDuration(after) + " (allowed growth " + formatDuration(allowed) + ", " +
               pct(s.endToEndTolerance, "%.1f%%") + " of the base end-to-end " + formatDuration(r.baseEndToEnd) + ")";
    if (before == 0 && after == 0) {
        c.outcome = CheckOutcome::Skipped;
        c.message = std::string("no extra wait on ") + resourceName(res) + " in either run";
    } else if (after - before > allowed) {
        c.outcome = CheckOutcome::Failed;
        c.message = std::string("extra wait on ") + resourceName(res) + " grew by " + formatDuration(after - before) +
                    ": " + c.detail;
    }
    return c;
}

}  // namespace

std::vector<CompareCheck> compareChecks(const CompareResult& r, const CompareSettings& s) {
    const std::size_t anomaliesBefore = r.anomalies.resolved.size() + r.anomalies.persisting.size();
    const std::size_t anomaliesAfter = r.anomalies.persisting.size() + r.anomalies.added.size();
    const std::size_t windowsBefore = r.windows.resolved.size() + r.windows.persisting.size();
    const std::size_t windowsAfter = r.windows.persisting.size() + r.windows.added.size();
    std::vector<CompareCheck> out;
    out.push_back(countCheck("no new anomalies", "anomalies", r.anomalies.added.size(), s.maxNewAnomalies,
                             anomaliesBefore, anomaliesAfter));
    out.push_back(countCheck("no new contention windows", "contention windows", r.windows.added.size(), s.maxNewWindows,
                             windowsBefore, windowsAfter));
    out.push_back(endToEndCheck(r, s));
    for (std::size_t k = 0; k < kResourceCount; ++k) {
        const auto res = static_cast<Resource>(k);
        if (res != Resource::None) out.push_back(resourceCheck(r, s, res));
    }
    return out;
}

std::size_t countChecks(const std::vector<CompareCheck>& checks, CheckOutcome outcome) {
    std::size_t n = 0;
    for (const auto& c : checks) n += c.outcome == outcome ? 1 : 0;
    return n;
}

}  // namespace contend
