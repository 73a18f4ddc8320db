#pragma once
// Synthetic data for the render benchmark and the widget tests: a trace of N operators shaped
// like a training step (8 device streams, 2 nested host threads, 4 counters), and a report-shaped
// overlay with flagged operators, windows and clusters spread over it. The overlay is made-up
// test data for the renderer, not an analysis.
#include <cstdint>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"

namespace contend::gui {

TracePtr makeSyntheticTrace(std::size_t operators, std::uint32_t seed = 1);
// The overlay's report and the per-slice view beside it (slice_view.h: the made-up scores, no
// signatures, and the slack of a made-up critical path), built directly: there is no analysis.
struct SyntheticOverlay {
    Report report;
    SliceViewPtr slices;
};
SyntheticOverlay makeSyntheticOverlay(const Trace& trace, double flaggedFraction = 0.01, std::uint32_t seed = 2);

}  // namespace contend::gui
