#pragma once
// The "distributed" member of a contend.report/1 document: the rank a trace is of and the
// collectives it ran (core/analysis/ranks/collectives.h), compact so a report of a rank with thousands
// of collectives stays small: names once, then one small object per collective. Kept apart from
// report_json.cpp so the report writer can stream it as one piece.
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/model/report.h"
#include "core/common/failure.h"

namespace contend {

// {"rank": 3 | null, "world_size": 8 | null, "collective_names": [...],
//  "collectives": [{"iteration": 1009, "name": 0, "start_ns": ..., "dur_ns": ...}, ...]}
nlohmann::json distributedToJson(const ReportDistributed& d);

// Reads it back; a Failure of kind Malformed whose reason names the field
// ("distributed/collectives/4: name 7 is not in collective_names") when a field is missing, of
// the wrong type or out of range.
Result<ReportDistributed> distributedFromJson(const nlohmann::json& j);

}  // namespace contend
