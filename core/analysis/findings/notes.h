#pragma once
// What the data can and cannot support, said once per kind in the report's notes, so a verdict
// never looks surer than the capture behind it.
//
//   host-scope      no device operators: nothing is judged (baseline.h "host")
//   no-counters     no hardware counter: causes are estimated, none measured
//   coarse-counters counters sampled too coarsely for the operators (engine.h): shown, not used
//   few-steps       fewer than kMinSteps profiler steps: too few runs per signature
//   no-steps        no ProfilerStep markers: iterations and per-step views are unknown
//   cut-steps       the first or last step holds fewer than kCutShare of the usual operators:
//                   the capture cut it; its operators are kept out of baselines
//   few-runs        signatures seen fewer than kMinForMad times, not judged, with their share of
//                   operator time and how many steps would give them enough runs
//   dynamic-shapes  one kernel name split into kDynamicShapes or more signatures, most too rare
//                   to judge
//   always-beside   signatures that ran beside the same partner in (nearly) every run: no run
//                   without it to compare with
//   wide-spread     signatures whose runs vary widely with no partner or counter linked to their
//                   slow runs (data-dependent work): taken as natural, only extreme runs flagged
//   no-device-peaks device-to-device copies or memsets in a file whose reader says it lacks the
//                   device peaks (Source::gaps.devicePeaks: an Nsight Systems export without
//                   TARGET_INFO_GPU): their share of the memory bandwidth is not measured
//   no-shapes       a file whose reader says it lacks input shapes (Source::gaps.shapes: an Ascend
//                   trace_view.json opened alone) and no operator carries one: the calls of one
//                   operator share a baseline whatever their size; the reader's remedy follows
// The notes ask the trace's Source, never its format: what a format lacks is its reader's word.
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/model/report.h"
#include "core/analysis/scoring/baseline.h"
#include "core/analysis/scoring/exposure.h"

namespace contend {

inline constexpr std::size_t kMinSteps = 3;
inline constexpr double kCutShare = 0.90;
inline constexpr std::size_t kDynamicShapes = 8;
inline constexpr double kWideSpread = 0.25;  // scale / baseline

// The iterations (indices into `iterations`) the capture cut: the first or the last of at least
// kMinSteps, holding fewer than kCutShare of the median operator count of the others.
std::vector<std::uint32_t> cutIterations(const OperatorSet& ops, const std::vector<IterationStats>& iterations,
                                         const std::vector<std::uint32_t>& iterationOfOp);

struct NoteInputs {
    const Trace& trace;
    const OperatorSet& ops;
    const BaselineResult& base;
    const ExposureResult& exposure;
    const ResourceTimelines& timelines;          // all of them
    const ResourceTimelines& analysisTimelines;  // those that speak for operators (engine.h)
    const std::vector<std::string>& coarse;      // the dropped ones, in words
    const std::vector<IterationStats>& iterations;
    const std::vector<std::uint32_t>& iterationOfOp;
    const std::vector<std::uint32_t>& cut;
};

std::vector<ReportNote> dataNotes(const NoteInputs& in);

}  // namespace contend
