#pragma once
// What the analysis and its report will allocate, weighed before they do it, so that a trace
// too big for the memory budget stops with a message instead of waking the kernel's OOM killer.
//
// The figures are bytes per item of what prepareAnalysis holds at its peak (per operator: its
// index, baseline, score, pressures, exposure, cause, breakdown and stage temporaries; per
// overlap pair: its two partner entries, the sweep's 8-byte (a, b) while the lists are made, and
// its share of the window candidates; per slice:
// the views' per-slice arrays; the what-if's dependency graph), fitted with /usr/bin/time -v on
// the 1M-kernel Kineto-shaped trace (4.75M pairs), a 1M-operator simulated mixed trace (3.1M
// slices, 155k pairs) and the 10M-kernel Kineto-shaped trace (analysis with the dependency
// graph: ~3.9 GB over the loaded model), and rounded up. A report's anomalies and windows are weighed the same way (strings included).
#include <cstddef>
#include <cstdint>
#include <string>

namespace contend {

// 380 as fitted, plus the prepared anomaly rows (anomaly_list.h: 120 bytes and a 4-byte index
// per operator that can be an anomaly, counted here for every operator; not refitted), plus the
// patterns' cost index a slider's analysis keeps (pattern_costs.h: 20 bytes per counted run, at
// most one per operator).
inline constexpr std::uint64_t kBytesPerOperator = 380 + 124 + 20;
// 56 as fitted when a pair was also kept as 24 bytes and an index per op (overlap.h); those 32
// are gone.
inline constexpr std::uint64_t kBytesPerOverlapPair = 24;
inline constexpr std::uint64_t kBytesPerSlice = 16;
inline constexpr std::uint64_t kBytesPerAnomaly = 420;
inline constexpr std::uint64_t kBytesPerWindowOp = 140;  // 88 since the names are shared: kept, not refitted

std::uint64_t prepareBytesEstimate(std::size_t operators, std::size_t slices, std::size_t overlapPairs);
std::uint64_t reportBytesEstimate(std::size_t anomalies, std::size_t windowOps);

// "not enough memory: analysing this trace (1,000,000 operators, 4,752,812 overlap pairs)
// needs about 1.2 GB more, and the memory budget leaves 800 MB (contend-cli --max-memory ...)".
std::string analysisMemoryMessage(const std::string& what, std::uint64_t needed, std::uint64_t headroom);

}  // namespace contend
