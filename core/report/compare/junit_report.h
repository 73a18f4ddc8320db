#pragma once
// A compare result as a JUnit XML report, for CI test-report views (Jenkins, GitLab's
// artifacts:reports:junit, GitHub test-report actions). One <testsuites> root holding one
// <testsuite name="contend.compare"> with one <testcase> per check of compareChecks(): a failed
// check carries <failure message="..." type="regression">, a skipped one <skipped message=.../>.
// The counts (tests, failures, errors = 0, skipped) are on both elements; time is in seconds.
// Every text is XML-escaped (xml_text.h), the document is UTF-8. Follows the attribute set of the
// Jenkins junit-10.xsd (a superset of what Ant writes and GitLab reads).
#include <string>

#include "core/analysis/compare/compare.h"

namespace contend {

struct JUnitOptions {
    double seconds = 0;     // wall time of the compare, s (testsuite/@time)
    std::string timestamp;  // ISO 8601 without a zone ("2026-12-01T07:22:00"); omitted if empty
};

std::string compareToJUnit(const CompareResult& r, const CompareSettings& settings, const JUnitOptions& options = {});

}  // namespace contend
