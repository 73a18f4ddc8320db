#pragma once
// The sections contend.report/2 and /3 write alike (report_json.cpp, report_json_v3.cpp), as JSON
// values: trace, settings, summary, notes, operators, types, iterations, threads, what_if, and
// the pieces the findings share (a breakdown, a time the what-if may not have computed).
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend {

// A pid or tid as the file wrote it: a number when it is an integer ("7", "-1"), else the text
// ("GPU 0", "007").
nlohmann::json idJson(const std::string& text);

// v, or 0 when it is not finite (JSON has no NaN).
inline double finite(double v) { return std::isfinite(v) ? v : 0.0; }
// A time the what-if may not have computed: null for -1.
nlohmann::json optionalNs(TimeNs v);

// What a hand-built report may lack and its trace has: an operator's name, track and times by
// its slice (empty when there is no trace or no such slice). The engine's reports carry them.
struct SliceText {
    std::string name, pid, tid, label;
    TimeNs start = 0, dur = 0;
};
SliceText sliceText(const Trace* t, std::uint32_t slice);

nlohmann::json breakdownJson(const Breakdown& b);
nlohmann::json whatIfJson(const WhatIfSummary& w);
nlohmann::json traceJson(const Report& r);
nlohmann::json settingsJson(const Report& r);
nlohmann::json summaryJson(const Report& r);
nlohmann::json noteJson(const ReportNote& n);
nlohmann::json operatorJson(const SignatureStats& s);
nlohmann::json typeJson(const TypeStats& s);
nlohmann::json iterationJson(const IterationStats& s);
nlohmann::json threadJson(const TrackStats& s);

}  // namespace contend
