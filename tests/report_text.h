#pragma once
// A report as the text contend-cli writes, for tests that compare reports byte for byte.
#include <sstream>
#include <string>

#include "core/analysis/model/report.h"
#include "core/report/single/report_json.h"
#include "core/trace/trace.h"

namespace contend::test {

inline std::string jsonOf(const Report& r, const Trace& t) {
    std::ostringstream out;
    writeReportJson(out, r, &t);
    return out.str();
}

inline std::string markdownOf(const Report& r, const Trace& t) {
    std::ostringstream out;
    writeReportMarkdown(out, r, t);
    return out.str();
}

}  // namespace contend::test
