#pragma once
// The "breakdowns" member of a contend.report/2 document (core/analysis/breakdowns): one array per
// section and, for each section the trace could not give, its reason under "not_computed"
// (docs/report-schema.md). Kept apart from report_json.cpp so the writer streams it as one piece.
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/common/failure.h"

namespace contend {

// {"scope": "...", "device_ops": N, "in_scope": M, "temporal": [...], "idle": [...],
//  "comm_comp_overlap": [...], "queue_length": [...], "memory_bandwidth": [...], "launch": [...],
//  "annotations": [...], "not_computed": {"queue_length": "why", ...}}
nlohmann::json breakdownsToJson(const TraceBreakdowns& b);

// Reads it back; a Failure of kind Malformed whose reason names the field
// ("breakdowns/idle/2: host_wait_ns is missing or not a number").
Result<TraceBreakdowns> breakdownsFromJson(const nlohmann::json& j);

// The cluster report's `breakdowns` (contend.cluster/1): HTA's per-rank temporal breakdown and
// overlap of every rank, {"temporal": [...], "comm_comp_overlap": [...]}, rows as above.
nlohmann::json rankBreakdownsToJson(const std::vector<RankTemporal>& temporal, const std::vector<RankOverlap>& overlap);
std::optional<Failure> rankBreakdownsFromJson(const nlohmann::json& j, std::vector<RankTemporal>& temporal,
                                              std::vector<RankOverlap>& overlap);

}  // namespace contend
