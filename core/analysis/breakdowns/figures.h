#pragma once
// The breakdowns as a flat list of figures, one number each, named by section, subject and
// field: what breakdowns.csv lists and what compare sets side by side (before/after per figure).
#include <string>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"

namespace contend {

struct BreakdownFigure {
    std::string section;  // the JSON section: "temporal", "idle", ...
    int rank = -1;
    std::string subject;  // stream, copy kind, kernel or annotation name; empty for a rank's
    std::string figure;   // the JSON field: "idle_ns", "p50", ...
    double value = 0;
};

// Every figure, in the report's order; a section not computed gives none.
std::vector<BreakdownFigure> breakdownFigures(const TraceBreakdowns& b);

// One figure in two reports (compare): in either or both.
struct BreakdownChange {
    BreakdownFigure base;  // the figure (names and base value)
    double now = 0;
    bool inBase = false;
    bool inNow = false;
    // new - base, or 0 when one side lacks it
    double change() const { return inBase && inNow ? now - base.value : 0; }
};

// The figures of both, matched by section, subject and figure (each report is one rank): the base's order, then the
// new ones. Launch and annotation figures are left out (one row per kernel name would drown the
// rest; each report lists them).
std::vector<BreakdownChange> compareBreakdowns(const TraceBreakdowns& base, const TraceBreakdowns& now);

}  // namespace contend
