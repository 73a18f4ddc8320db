#pragma once
// The "contend.cluster/1" JSON contract (docs/schema/contend.cluster.schema.json) and the
// Markdown of a cluster report (core/analysis/ranks/rank_merge.h), and reading a rank's
// contend.report/1 file into what merge keeps of it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/analysis/ranks/rank_merge.h"
#include "core/common/failure.h"

namespace contend {

inline constexpr const char* kClusterSchema = "contend.cluster/1";

nlohmann::json clusterToJson(const ClusterReport& c);
std::string clusterToMarkdown(const ClusterReport& c);

// Reads a contend.cluster/1 document back (the app opens CLUSTER.json). Reports written before
// ranks[].trace and collectives[].late_start_ns existed read with those empty / 0. A bad one is a
// Failure of kind Malformed whose reason names the field ("collectives/4: \"late_rank\" has the
// wrong type or is out of range"); its file is empty (readClusterReport adds it). The build that
// wrote it goes to ClusterReport::producer (not known before 0.7.0).
Result<ClusterReport> clusterFromJson(const nlohmann::json& j);
// The same from a file, or its Failure naming the file: Unreadable (cannot open), Malformed (not
// JSON, or not a cluster report it can read).
Result<ClusterReport> readClusterReport(const std::string& path);
// True when the JSON document is a cluster report (its "schema" says contend.cluster/1).
bool isClusterDocument(const nlohmann::json& j);
// True when the file at `path` reads as a cluster report, without parsing a large trace: an
// uncompressed file that names "contend.cluster/1" in its first or last megabyte (the writer's
// keys are sorted, so "schema" sits near the end).
bool looksLikeClusterReport(const std::string& path);

// Reads one per-rank report (analyze --json) and keeps only its RankInput: the parsed document
// is dropped before returning, so merging holds one report's JSON at a time. A Failure naming
// the file ("FILE: ...") when it cannot be read (Unreadable), is not JSON or not
// contend.report/1 (Malformed).
Result<RankInput> readRankReport(const std::string& path);

}  // namespace contend
