// libFuzzer target: reading saved reports (compare and trend read them from anywhere), then
// comparing the result with itself.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/compare/compare.h"
#include "core/report/compare/compare_report.h"
#include "core/report/single/report_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
    if (j.is_discarded()) return 0;
    auto report = contend::reportFromJson(j);
    if (!report) return 0;
    contend::CompareResult r = contend::compareReports(*report, *report);
    (void)contend::compareToJson(r).dump();
    (void)contend::compareToMarkdown(r);
    (void)contend::reportToJson(*report).dump();
    return 0;
}
