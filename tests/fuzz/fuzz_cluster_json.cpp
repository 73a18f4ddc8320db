// libFuzzer target: reading cluster reports (the app opens CLUSTER.json from anywhere), then
// writing them again and comparing one with itself.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/ranks/rank_compare.h"
#include "core/report/ranks/cluster_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
    if (j.is_discarded()) return 0;
    auto cluster = contend::clusterFromJson(j);
    if (!cluster) return 0;
    (void)contend::clusterToJson(*cluster).dump();
    (void)contend::clusterToMarkdown(*cluster);
    (void)contend::compareClusters(*cluster, *cluster);
    return 0;
}
