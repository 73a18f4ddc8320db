#pragma once
// The "breakdowns" member of a contend.report/2 document (core/analysis/breakdowns): one array per
// section and, for each section the trace could not give, its reason under "not_computed"
// (docs/report-schema.md). Kept apart from report_json.cpp so the writer streams it as one piece.
#include <nlohmann/json.hpp>

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

}  // namespace contend
