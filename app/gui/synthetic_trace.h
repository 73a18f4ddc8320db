#pragma once
// Synthetic data for the render benchmark and the widget tests: a trace of N operators shaped
// like a training step (8 device streams, 2 nested host threads, 4 counters), and a report-shaped
// overlay with flagged operators, windows and clusters spread over it. The overlay is made-up
// test data for the renderer, not an analysis.
#include <cstdint>

#include "core/analysis/report.h"
#include "core/trace/trace.h"

namespace contend::gui {

TracePtr makeSyntheticTrace(std::size_t operators, std::uint32_t seed = 1);
Report makeSyntheticOverlay(const Trace& trace, double flaggedFraction = 0.01, std::uint32_t seed = 2);

}  // namespace contend::gui
