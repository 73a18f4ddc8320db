#pragma once
// Which operators ran at the same time on different tracks (streams, NPU streams, threads) of
// the same device, found with a sweep line over start times: each operator is compared only with
// the operators still running when it starts, never with all others. Tracks of different devices
// are never paired: a GPU's streams share its bandwidth, cache and SMs, two GPUs share none of
// them (their collectives are sync, seen on each side).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/trace/trace.h"

namespace contend {

// One pair as tools and tests list it (listPairs); the analysis keeps only the per-op partner
// lists below and derives a pair's span from its two operators.
struct OverlapPair {
    std::uint32_t a = 0;  // op indices (OperatorSet), a < b
    std::uint32_t b = 0;
    TimeNs start = 0;  // the shared span [start, end), ns
    TimeNs end = 0;
};

struct OverlapResult {
    // Per op: the other ops of its pairs in the pairs' order (by start, then a, then b), as a
    // CSR: partnerOf[pairBegin[op] .. pairBegin[op+1]). Each pair is in both ops' lists. A pair's
    // span is its two ops' shared time, [max of starts, min of ends) (pairSpan): not stored, so
    // a pair costs 8 bytes instead of 40 (the list of 24-byte pairs and an index per op was 1.5
    // GB at 10M Kineto kernels, most of the analysis' peak over the loaded trace).
    std::vector<std::uint32_t> pairBegin;
    std::vector<std::uint32_t> partnerOf;
    // Per op: time during which at least one operator on another track ran too, ns (the union
    // of its pairs' spans, not their sum).
    std::vector<TimeNs> overlappedNs;
    // The ops in the order the sweep visited them (start_order.h), kept for the stages that walk
    // the pairs as the sweep made them (the windows' candidates) instead of sorting them again.
    std::vector<std::uint32_t> order;
    bool capped = false;  // some operator had more than kMaxPartners concurrent partners
    std::size_t pairCount() const { return partnerOf.size() / 2; }
};

// The shared span of two overlapping ops: [max of starts, min of ends).
inline std::pair<TimeNs, TimeNs> pairSpan(const Trace& trace, const OperatorSet& ops, std::uint32_t a,
                                          std::uint32_t b) {
    const Slice& x = trace.slices()[ops.slices[a]];
    const Slice& y = trace.slices()[ops.slices[b]];
    return {std::max(x.start, y.start), std::min(x.end(), y.end())};
}

// Every pair once, sorted by start, then a, then b: the order the per-op lists follow.
std::vector<OverlapPair> listPairs(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap);

// More concurrent partners than this (a host trace with hundreds of busy threads) are not
// paired, to keep the sweep near-linear; device traces have a few streams.
inline constexpr std::size_t kMaxPartners = 256;

// Per track: its device group (tracks of one device share an id): the device index its
// operators carry (Kineto args.device, Nsight deviceId), else its process.
std::vector<std::uint32_t> deviceGroups(const Trace& trace, const OperatorSet& ops);

// keepGoing (optional) is asked every 64k operators; a stop leaves a partial result to discard.
OverlapResult findOverlaps(const Trace& trace, const OperatorSet& ops, const std::function<bool()>& keepGoing = {});

}  // namespace contend
