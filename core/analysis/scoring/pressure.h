#pragma once
// How much pressure each operator occurrence saw on each resource while it ran, and how much of
// each resource each signature uses on its own.
//
// Per occurrence and resource (bandwidth, compute, cache, issue):
//   mean      mean utilisation of the resource over the occurrence (device-wide counters)
//   highFrac  fraction of the occurrence's time the resource was at or above its high threshold
//   metric    the occurrence's own per-op hardware metric, normalised (Ascend aic_mte2_ratio,
//             Kineto dram__throughput...; for the cache: its own hit rate), NaN when absent
// Per signature, its own demand (0..1 of the resource), estimated from device-wide counters:
//   1. alone: the counter's mean over the parts of its runs when no other track was busy
//      (median over occurrences that ran alone for at least kExclusiveFraction of their time;
//      else the time-weighted mean over whatever exclusive time there was);
//   2. beside others whose demand is known: over the parts of its runs where the resource was
//      not saturated, the counter minus the known demands of the operators running with it
//      (counters add up while nothing is saturated); repeated while it resolves more
//      signatures (an op that always runs inside a longer neighbour gets its share this way);
//   3. else the 10th percentile over its occurrences of their mean less the known demands of
//      their partners, time-weighted (its least disturbed runs; a lower bound of its own use
//      where the counter was pinned, so that an operator never seen alone is not taken to ask
//      the whole capacity that it and a known partner filled together).
// A per-op metric, when present, is a direct measure and wins over the counter estimate. The
// cache "demand" is the cache pressure it causes on its own (steps 1 and 3 only: hit rates do
// not add up).
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "core/analysis/inputs/overlap.h"
#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/resources.h"

namespace contend {

using PressureArray = std::array<float, kPressureResources>;

// How a signature's own demand was estimated (the steps below), weakest last.
enum class DemandSource : std::uint8_t { None, Metric, Alone, Beside, LeastDisturbed };

struct PressureResult {
    std::vector<PressureArray> mean;      // per op; empty (all NaN) without counters
    std::vector<PressureArray> highFrac;  // per op; empty (all NaN) without counters
    std::vector<PressureArray> metric;    // per op; empty (all NaN) when no op has a metric
    std::vector<PressureArray> demand;    // per signature: own use of each resource (0..1), NaN unknown
    std::vector<std::array<DemandSource, kPressureResources>> demandSource;  // per signature
    std::vector<PressureArray> metricRef;  // per signature: median of its per-op metric, NaN unknown
    std::vector<float> hitRate;            // per op: mean combined hit rate (0..1); empty without hit-rate counters
    // Per op: the largest load each resource carried at any moment of its run (loadDuring over
    // the whole run), NaN without a counter for the resource; empty without any counter.
    std::vector<PressureArray> peakLoad;
    std::array<bool, kPressureResources> haveCounters{};  // a timeline exists for the resource
    std::array<bool, kPressureResources> haveMetrics{};   // some op has a metric for it

    // One op's value in a per-op array above (mean, highFrac, metric, peakLoad) for resource p,
    // and its hit rate: NaN where the array was not made (no counter or metric fills it).
    static float of(const std::vector<PressureArray>& perOp, std::uint32_t op, std::size_t p) {
        return perOp.empty() ? std::numeric_limits<float>::quiet_NaN() : perOp[op][p];
    }
    float hitRateOf(std::uint32_t op) const {
        return hitRate.empty() ? std::numeric_limits<float>::quiet_NaN() : hitRate[op];
    }
};

inline constexpr double kExclusiveFraction = 0.20;
// Own demand (0..1 of the resource) that makes an operator a user of it.
inline constexpr double kUseThreshold = 0.20;
// A counter whose samples are more than this many times the operator's duration apart says
// nothing about that operator (its mean over the run is the mean over tens of operators):
// mean and highFrac stay NaN for it.
inline constexpr double kCoarseSampling = 4.0;
// A counter at or above this (0..1) is pinned at capacity: it shows the capacity, not the sum of
// what the running operators asked for, so step 2 skips those pieces.
inline constexpr double kSaturated = 0.99;
// The cache counts against an occurrence (or a pair) when its pressure rose this much above
// the signature's own level (0..1 scale of ResourceTimelines' cache pressure).
inline constexpr double kCacheRise = 0.05;
// Demand beyond capacity (sum of own demands over 1) that counts as contention.
inline constexpr double kOverload = 0.03;

// A device-to-device copy's or a memset's own bandwidth use: its bytes per second (twice its
// bytes for a copy, which reads and writes them) over the memory bandwidth the file states for
// its device (Source::devices, from Nsight's TARGET_INFO_GPU), 0..1. NaN for other slices, and
// when the file states no peak for the device. computePressure takes it as the op's bandwidth
// metric.
float copyBandwidthShare(const Trace& trace, std::uint32_t slice);

// keepGoing (optional) is asked every 64k operators; when it says stop, the result is partial
// and the caller discards it (prepareAnalysis's cancel).
PressureResult computePressure(const Trace& trace, const OperatorSet& ops, const ResourceMap& map,
                               const ResourceTimelines& timelines, const OverlapResult& overlap,
                               const std::function<bool()>& keepGoing = {});

// The signature's cache pressure on its own, when it was seen alone; else 0 (unknown: the
// least disturbed runs of an operator that is never alone say nothing about its own share).
// What a pair's window and the exposure's counter factor compare against.
float ownCachePressure(const PressureResult& pressure, std::uint32_t signature);

// The cache pressure its runs see at the least: its level alone when it was seen alone, else
// that of its least disturbed runs (step 3); 0 when unknown. A run's measured cache cause needs
// more than this: a run that saw no more than its signature's least disturbed runs did cannot
// owe its excess to the cache. (Against 0 instead, an operator whose every run sees the same low
// hit rate, its own doing or the device's, had a long run "measured" cache-thrashed on a small
// cache: its runs differ by input size, not by the partners.)
float usualCachePressure(const PressureResult& pressure, std::uint32_t signature);

// The largest load resource index p carried at any moment of [a, b) within op's run: op's own
// demand plus those of the operators running beside it at that moment. NaN demands count as 0.
double loadDuring(const OperatorSet& ops, const OverlapResult& overlap, const PressureResult& pressure,
                  const Trace& trace, std::uint32_t op, std::size_t p, TimeNs a, TimeNs b);

// The time op's run lost to sharing resource index p by the demands alone (ns): over each piece
// of its run with a constant set of partners whose demands with its own exceed 1 + kOverload,
// the piece's length x (1 - sharedRate). What max-min fair or proportional sharing (the smaller
// slowdown) lets those asks take from it, whatever the samples say. -1 when its own demand or a
// partner's in an overlapped piece is unknown (NaN): then the demands cannot tell.
double sharingLossNs(const OperatorSet& ops, const OverlapResult& overlap, const PressureResult& pressure,
                     const Trace& trace, std::uint32_t op, std::size_t p);

// Per op, its duration had it run alone, estimated from the counters when it ran
// oversubscribed: over each piece of its run where a resource it uses (own demand >=
// kUseThreshold: bandwidth, compute, issue) was at its high mark and the operators running
// asked for a load L > 1 + kOverload of it, it progressed at sharedRate() of its solo speed,
// elsewhere at full speed. -1 where nothing was oversubscribed. Used for signatures
// oversubscribed in (nearly) every run (contended in every step).
std::vector<TimeNs> soloEstimates(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                                  const PressureResult& pressure, const ResourceTimelines& timelines);

// The speed (a fraction of solo) of an operator asking `own` of a saturated capacity beside
// asks `others` (scratch: reordered, own appended), `load` their sum with own: the larger of what max-min fair sharing
// gives it (its full ask when below the water level) and what proportional sharing gives it
// (1 / load). Counters do not say which arbiter the device has (a GPU's DRAM controller is
// neither exactly): the estimate takes the smaller slowdown, so an operator is taken as slowed
// only where both would slow it. (Proportional alone had a small ask beside a streamer "1.4x
// slower" on a device that serves small asks in full: docs/how-contend-decides.md.)
double sharedRate(double own, std::vector<double>& others, double load);

}  // namespace contend
