#pragma once
// Which operators ran at the same time on different tracks (streams, NPU streams, threads) of
// the same device, found with a sweep line over start times: each operator is compared only with
// the operators still running when it starts, never with all others. Tracks of different devices
// are never paired: a GPU's streams share its bandwidth, cache and SMs, two GPUs share none of
// them (their collectives are sync, seen on each side).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/trace/trace.h"

namespace contend {

struct OverlapPair {
    std::uint32_t a = 0;  // op indices (OperatorSet), a < b
    std::uint32_t b = 0;
    TimeNs start = 0;  // the shared span [start, end), ns
    TimeNs end = 0;
};

struct OverlapResult {
    std::vector<OverlapPair> pairs;  // sorted by start, then a, then b
    // Per op: time during which at least one operator on another track ran too, ns (the union
    // of its pairs' spans, not their sum).
    std::vector<TimeNs> overlappedNs;
    // Per op: its pairs, as indices into `pairs` (CSR: pairsOf[pairBegin[op] .. pairBegin[op+1])).
    std::vector<std::uint32_t> pairBegin;
    std::vector<std::uint32_t> pairsOf;
    // Parallel to pairsOf: the other op of that pair, so a walk over an op's partners reads one
    // contiguous array instead of a pair each (a cache miss each at millions of pairs). The
    // pair's span is the two ops' shared time: [max of starts, min of ends).
    std::vector<std::uint32_t> partnerOf;
    bool capped = false;  // some operator had more than kMaxPartners concurrent partners
};

// More concurrent partners than this (a host trace with hundreds of busy threads) are not
// paired, to keep the sweep near-linear; device traces have a few streams.
inline constexpr std::size_t kMaxPartners = 256;

// Per track: its device group (tracks of one device share an id): the device index its
// operators carry (Kineto args.device, Nsight deviceId), else its process.
std::vector<std::uint32_t> deviceGroups(const Trace& trace, const OperatorSet& ops);

// keepGoing (optional) is asked every 64k operators; a stop leaves a partial result to discard.
OverlapResult findOverlaps(const Trace& trace, const OperatorSet& ops, const std::function<bool()>& keepGoing = {});

}  // namespace contend
