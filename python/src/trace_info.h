#pragma once
// What a loaded trace holds, as a Python dict (the fields of `contend-cli info --json`).
#include <pybind11/pybind11.h>

#include "core/trace/trace.h"

namespace contend::py {

pybind11::dict traceInfo(const Trace& t);

}  // namespace contend::py
