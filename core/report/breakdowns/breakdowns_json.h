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

// The cluster report's `breakdowns` (contend.cluster/1): HTA's per-rank figures of every rank,
// rows as above, as each rank's report has them. Which rows a cluster report carries:
struct RankBreakdownRows {
    std::vector<RankTemporal> temporal;
    std::vector<RankOverlap> commCompOverlap;
    std::vector<StreamIdle> idle;          // per stream, each rank's rows
    std::vector<StreamQueue> queueLength;  // per stream, each rank's rows
};
// {"temporal": [...], "comm_comp_overlap": [...], "idle": [...], "queue_length": [...]}
nlohmann::json rankBreakdownsToJson(const RankBreakdownRows& b);
// Reads it back; a section that is absent (a cluster report written before it) reads as no rows.
// A Failure of kind Malformed naming the field when one is wrong.
Result<RankBreakdownRows> rankBreakdownsFromJson(const nlohmann::json& j);

}  // namespace contend
