#pragma once
// Device time per user annotation (HTA get_gpu_user_annotation_breakdown, from the host side):
// each device operation is counted under the innermost annotation range (Kineto
// user_annotation, Nsight Systems NVTX) around the call that launched it, on the call's thread.
// HTA reads Kineto's gpu_user_annotation events (the ranges as the device ran them) and gives
// each kernel the shortest range it overlaps; those events are absent from most traces (and from
// every other format), and the launch call's ranges say the same for every operation it launched.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"

namespace contend::breakdowns {

// Annotations by device time, largest first. Not computed when no launch call lies in an
// annotation range. Over a range (stats.h): the operations that run in it, each counted whole.
BreakdownSection<AnnotationTime> annotationTime(const Trace& trace, const Scope& scope, const TimeRange& range = {});

}  // namespace contend::breakdowns
