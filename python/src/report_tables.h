#pragma once
// A report's sections as columnar tables (table.h), the columns named and valued as the
// contend.report/2 JSON writes them (core/report/single/report_json.cpp; report/3 has the same
// fields as columns), so a DataFrame and the JSON of the same report say the same thing. Lists inside an item (an anomaly's windows, a
// window's operators, a pattern's runs) are tables of their own, keyed by the item's id.
#include <pybind11/pybind11.h>
#include <string>

#include "core/analysis/model/report.h"

namespace contend::py {

// The table `name` of `report`: anomalies, anomaly_windows, windows, window_ops, clusters,
// patterns, pattern_runs, operators, iterations, threads, types, notes. Throws
// std::invalid_argument for another name.
pybind11::list reportTable(const Report& report, const std::string& name);
// The names reportTable knows, in the order the JSON writes its sections.
pybind11::list reportTableNames();

// The small sections as Python values: trace, settings, summary, what_if.
pybind11::dict reportHeader(const Report& report);

}  // namespace contend::py
