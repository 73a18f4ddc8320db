#pragma once
// Which counter series and per-operator metrics measure which shared resource, and how to turn
// their values into a 0..1 utilisation.
//
// Built-in rules match the series' name, key and unit (case-insensitive):
//   bandwidth  HBM, DDR, DRAM, read_bandwidth, write_band_width, "bandwidth", "Bw" with a
//              throughput unit (B/s, KB/s, MB/s, GB/s) or a utilisation in %
//   compute    AI Core / aicore, SM, compute, cube, vector, "utilization"/"utilisation" in %
//   cache      L2, LLC, cache: "hit rate" series are hit rates, throughput series are traffic
//   issue      issue, slot, IPC
// Capacity and state series are never resources: memory sizes (KB, MB, GB, bytes: "APP/DDR"
// is how much memory is allocated, not how busy DDR is), frequencies (MHz), levels and
// outstanding-request counts.
// Nsight Systems' GPU metrics ("NAME [Throughput %]": percent of peak, a utilisation): "SMs
// Active", "Tensor Active" and "Compute Warps in Flight" are compute, "SM Issue" is issue, "DRAM
// Read/Write Bandwidth" are bandwidth (summed as one bus, resource_timeline.h); "Unallocated
// Warps in Active SMs" (headroom), "Sync/Async Compute in Flight" and "GR Active" (work queued,
// engine busy), PCIe and NVLink traffic are not resources.
//
// A user config (JSON) maps other names and overrides the built-in rules; its rules are tried
// first, in order:
//   {"map": [{"match": "my_mem_bw", "resource": "bandwidth", "kind": "throughput",
//             "peak": 1.6e6},
//            {"match": "^QoS", "resource": "none"}]}
// "match" is an ECMAScript regular expression searched case-insensitively in the series label
// ("name [id] key") or the metric key; "kind" is utilization | hit_rate | throughput (default:
// from the unit); "peak" is the capacity in the series' own unit for throughput (default: the
// largest value the trace shows); "resource": "none" ignores the series.
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"

namespace contend {

enum class CounterKind : std::uint8_t { Utilization, HitRate, Throughput };
const char* counterKindName(CounterKind k);  // "utilization", "hit_rate", "throughput"

// The resources counters can measure, as indices into per-op pressure arrays.
inline constexpr std::size_t kPressureResources = 4;  // Bandwidth, Compute, Cache, Issue
inline constexpr Resource kPressureResource[kPressureResources] = {Resource::Bandwidth, Resource::Compute,
                                                                   Resource::Cache, Resource::Issue};
// Index into the arrays above, or -1 for resources counters do not measure.
int pressureIndex(Resource r);

struct MappingRule {
    std::string match;  // as written in the config
    std::regex pattern;
    Resource resource = Resource::None;  // None: ignore the series
    std::optional<CounterKind> kind;
    double peak = 0;  // 0: largest value seen
};

struct ResourceConfig {
    std::vector<MappingRule> rules;
};

// Parses the config text. A config that is not valid is a Failure of kind Malformed naming `name`
// as its file, the rule in its reason (message(): "cfg.json: map[0]: \"match\" is not a valid
// regular expression: (").
Result<ResourceConfig> parseResourceConfig(std::string_view text, const std::string& name);
// The same from a file; a file that cannot be opened is kind Unreadable ("PATH: cannot open the
// config file").
Result<ResourceConfig> loadResourceConfig(const std::string& path);

struct Classification {
    Resource resource = Resource::None;  // None: not a resource
    CounterKind kind = CounterKind::Utilization;
    double peak = 0;
};

// The built-in rule for a counter series (name, key, unit as in CounterSeries).
Classification classifyCounter(std::string_view name, std::string_view key, std::string_view unit);
// The built-in rule for a per-operator metric key ("aic_mte2_ratio", "l2_hit_rate",
// "dram__throughput.avg.pct_of_peak_sustained_elapsed", "est. achieved occupancy %", ...).
Classification classifyMetric(std::string_view key);

struct CounterMapping {
    std::uint32_t series = 0;  // index into Trace::counters()
    Resource resource = Resource::None;
    CounterKind kind = CounterKind::Utilization;
    double scale = 1;  // value * scale = utilisation (or hit rate) in 0..1
    bool fromConfig = false;
};

struct MetricMapping {
    StringId key = 0;
    Resource resource = Resource::None;
    CounterKind kind = CounterKind::Utilization;
    double scale = 1;
};

struct ResourceMap {
    std::vector<CounterMapping> counters;
    std::vector<MetricMapping> metrics;
    std::vector<std::string> mappedLabels;  // "DRAM Bandwidth Utilization(%) -> bandwidth"

    bool hasCounters(Resource r) const;
};

// Applies the config (may be empty) and the built-in rules to every counter series and every
// metric key of the trace; computes each throughput series' scale from its peak.
ResourceMap mapResources(const Trace& trace, const ResourceConfig& config);

}  // namespace contend
