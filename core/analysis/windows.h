#pragma once
// Contention windows: spans where operators on different tracks used the same resource at the
// same time while it was saturated, and somebody paid for it.
//
// Definition. For two concurrent operators a and b (from the sweep line, never all pairs) and a
// resource r they both use heavily, each one's high-utilisation period is its run (a trace has
// no per-op use over time), so
//     overlap ratio = shared span / min(duration of a, duration of b).
// The pair is a candidate for r when r was under pressure during the shared span: the
// resource's counter reached its high threshold there, and
//   bandwidth, compute, issue: both use r (their signatures' own demand >= kUseThreshold) and
//     the operators running during the shared span asked for more than the resource has
//     (sum of own demands >= 1 + kOverload): a saturated counter alone may be one operator
//     using all of it, and two that fit together (0.98) are not contending;
//   cache: the cache was more thrashed during the shared span than either thrashes it alone.
// Each pair keeps its best resource: the one the paying operator's cause names, else the
// highest ratio. Traces without any counter fall back to the plain overlap ratio (shared span
// / shorter duration) when at least one of the two paid (its duration exceeds its baseline by
// at least one spread and kPaidFraction of the baseline, and its cause is not sync: a
// collective waiting for peers pays no neighbour), with the resource from the operators'
// types (a memcpy/memset -> bandwidth, two matmul/conv/attention -> compute, else unknown)
// and fromCounters = false. A pair with no counter resource where one paid with cause lock and
// the other was already running when it started is a lock window (plain ratio, no counters).
//
// Thresholding (cheap, per slider move): candidates whose ratio reaches the overlap threshold
// (and, without counters, whose paying operator is an anomaly at the coefficient) are chained in time per resource into windows (pairs whose spans touch join one window, so a
// window may hold a group of operators). Each operator's excess (duration - baseline, when
// positive) is split over the windows it is in, in proportion to its time in each.
#include <functional>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/analysis/baseline.h"
#include "core/analysis/overlap.h"
#include "core/analysis/pressure.h"
#include "core/analysis/report.h"
#include "core/analysis/resource_timeline.h"

namespace contend {

inline constexpr double kPaidFraction = 0.03;   // of the baseline

struct WindowCandidate {
    std::uint32_t a = 0;     // op indices
    std::uint32_t b = 0;
    Resource resource = Resource::Unknown;
    bool fromCounters = false;
    float ratio = 0;
    TimeNs start = 0;        // shared span
    TimeNs end = 0;
    // Windows that rest on slowdown alone (no counter: lock, counterless traces) need an
    // anomaly: the highest score of a paying operator in the pair, checked against the
    // coefficient when thresholding. +inf for counter-backed candidates.
    float payerScore = std::numeric_limits<float>::infinity();
};

// True when the op paid measurably for something: used by windows and causes.
bool paid(const BaselineResult& base, const OperatorSet& ops, std::uint32_t op);

// Candidates in start order. `causeOf` (per op, may be empty) steers the choice of resource.
// keepGoing (optional) is asked every 64k pairs; a stop leaves a partial result to discard.
std::vector<WindowCandidate> findWindowCandidates(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                                                  const BaselineResult& base, const PressureResult& pressure,
                                                  const ResourceTimelines& timelines,
                                                  const std::vector<Resource>& causeOf,
                                                  const std::function<bool()>& keepGoing = {});

// Windows for one overlap-ratio threshold (and, for slowdown-only candidates, the anomaly
// coefficient), ids from 0 in start order; fills WindowOp slice
// indices and extra wait (names and times are the engine's business). `membership`, when
// given, receives (op, window id) for every operator in a window, sorted by op then window.
std::vector<ContentionWindow> buildWindows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                           double coefficient,
                                           const OperatorSet& ops, const BaselineResult& base,
                                           const ResourceTimelines& timelines,
                                           std::vector<std::pair<std::uint32_t, std::uint32_t>>* membership = nullptr);

}  // namespace contend
