#include "core/report/compare/junit_report.h"

#include <cstdio>

#include "core/report/compare/compare_checks.h"
#include "core/report/xml_text.h"

namespace contend {

namespace {

std::string attr(const char* name, const std::string& value) {
    return std::string(" ") + name + "=\"" + xmlEscape(value) + "\"";
}

std::string seconds(double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", s < 0 ? 0.0 : s);
    return b;
}

std::string counts(const std::vector<CompareCheck>& checks, double time) {
    return attr("tests", std::to_string(checks.size())) +
           attr("failures", std::to_string(countChecks(checks, CheckOutcome::Failed))) + attr("errors", "0") +
           attr("skipped", std::to_string(countChecks(checks, CheckOutcome::Skipped))) + attr("time", seconds(time));
}

std::string property(const char* name, const std::string& value) {
    return "      <property" + attr("name", name) + attr("value", value) + "/>\n";
}

}  // namespace

std::string compareToJUnit(const CompareResult& r, const CompareSettings& s, const JUnitOptions& o) {
    const std::vector<CompareCheck> checks = compareChecks(r, s);
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites" + attr("name", "contend") + counts(checks, o.seconds) + ">\n";
    x += "  <testsuite" + attr("name", "contend.compare") + counts(checks, o.seconds);
    if (!o.timestamp.empty()) x += attr("timestamp", o.timestamp);
    x += ">\n    <properties>\n";
    x += property("base", r.basePath);
    x += property("new", r.newPath);
    x += property("verdict", r.verdict);
    x += "    </properties>\n";
    for (const CompareCheck& c : checks) {
        x += "    <testcase" + attr("name", c.name) + attr("classname", "contend.compare") + attr("time", "0");
        if (c.outcome == CheckOutcome::Passed) {
            x += ">\n      <system-out>" + xmlEscape(c.detail) + "</system-out>\n    </testcase>\n";
        } else if (c.outcome == CheckOutcome::Failed) {
            x += ">\n      <failure" + attr("message", c.message) + attr("type", "regression") + ">" +
                 xmlEscape(c.detail) + "</failure>\n    </testcase>\n";
        } else {
            x += ">\n      <skipped" + attr("message", c.message) + "/>\n    </testcase>\n";
        }
    }
    x += "    <system-out>" + xmlEscape(r.verdict) + "</system-out>\n";
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

}  // namespace contend
