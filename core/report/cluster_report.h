#pragma once
// The "contend.cluster/1" JSON contract (docs/schema/contend.cluster.schema.json) and the
// Markdown of a cluster report (core/analysis/cluster_merge.h), and reading a rank's
// contend.report/1 file into what merge keeps of it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/analysis/cluster_merge.h"

namespace contend {

inline constexpr const char* kClusterSchema = "contend.cluster/1";

nlohmann::json clusterToJson(const ClusterReport& c);
std::string clusterToMarkdown(const ClusterReport& c);

// Reads one per-rank report (analyze --json) and keeps only its RankInput: the parsed document
// is dropped before returning, so merging holds one report's JSON at a time. nullopt and *error
// ("FILE: ...") when the file cannot be read, is not JSON or not contend.report/1.
std::optional<RankInput> readRankReport(const std::string& path, std::string* error);

}  // namespace contend
