#pragma once
// The physics of the simulated device: given the operators running at one moment, how fast does
// each progress? Processor sharing over two capacities (DRAM bandwidth, compute units) plus a
// shared on-chip cache whose hit rate falls when the working sets no longer fit. Pure functions
// of their inputs, so tests can check the numbers by hand.
//
// Rates are "solo speeds": 1.0 means the operator progresses as fast as it would alone on the
// device, 0.5 means it takes twice as long for the same work.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/trace/types.h"

namespace contend::sim {

// How a capacity (DRAM bandwidth, compute units) is split among operators that ask for more
// than it has together.
enum class Sharing : std::uint8_t {
    MaxMinFair,    // water-filling: who asks for less than the fair level gets it all
    Proportional,  // everybody gets the same fraction of what it asks (a FIFO memory controller)
};

inline constexpr double kReferenceBandwidthGBs = 2039.0;

struct DeviceConfig {
    std::string name = "Contend SimDevice";
    Sharing sharing = Sharing::MaxMinFair;
    int computeUnits = 108;  // SMs; an operator's `cu` is a fraction of all of them
    // GB/s of DRAM. An operator's `bw` is a fraction of the reference device's 2039 GB/s
    // (kReferenceBandwidthGBs): on a device with less it asks for a larger fraction of its own.
    double peakBandwidthGBs = 2039.0;
    std::int64_t cacheBytes = 40LL << 20;  // on-chip (L2) cache, bytes
    double baseHitRate = 0.92;             // hit rate of an operator whose working set fits
    // Device-side cost of a sync barrier in front of an operator: the stream drains, the host
    // returns from the sync and relaunches. Fixed, in ns.
    TimeNs barrierNs = 12000;
    // Issue-slot use of an operator spinning on a lock (it occupies its SMs but issues little).
    double spinIssue = 0.02;
};

// What an operator asks of the device when it runs at full (solo) speed. Fractions of capacity,
// each at most 1: an operator alone never exceeds the device.
struct OpDemand {
    double bw = 0;             // DRAM bandwidth, fraction of peak, at its solo hit rate
    double cu = 0;             // compute units, fraction of all
    double issue = 0;          // issue slots, fraction of all (a counter only, never limiting)
    std::int64_t wsBytes = 0;  // working set it keeps in the cache, bytes
    // Latency sensitivity to lost hits: the op takes (1 + cacheSens * lost) times as long when a
    // fraction `lost` of its solo hits turn into misses.
    double cacheSens = 0;
    // DRAM traffic its hits save, fraction of peak: lost hits add reuse * lost to its bw demand.
    double reuse = 0;
};

enum class Limiter : std::uint8_t { None, Bandwidth, Compute };

// How one running operator fares at this moment.
struct OpRate {
    double rate = 1;                  // solo speeds, in (0, 1]
    double cacheCap = 1;              // the cache's bound on the rate (1 when no hits are lost)
    double hit = 0;                   // its L2 hit rate now
    double bw = 0;                    // its DRAM demand at full speed now (rises with lost hits)
    Limiter limiter = Limiter::None;  // which shared capacity holds it below cacheCap
};

// Device-wide counters at this moment, fractions in [0, 1].
struct DeviceLoad {
    double bandwidth = 0;
    double compute = 0;
    double hitRate = 0;
    double issue = 0;
};

class DeviceModel {
  public:
    explicit DeviceModel(DeviceConfig config) : m_config(std::move(config)) {}
    const DeviceConfig& config() const { return m_config; }

    // Hit rate of an operator alone: base while its working set fits, then falling as cap/ws.
    double soloHitRate(const OpDemand& op) const { return hitRateFor(op.wsBytes); }
    // Hit rate everybody sees when the working sets of the running operators add up to `ws`
    // (an LRU cache shared in proportion to footprint).
    double hitRateFor(std::int64_t wsBytes) const;

    // Rates of operators running together. `spinning` operators (waiting on a lock) hold their
    // stream but use no bandwidth, compute or cache; they only add spin issue to the counters.
    DeviceLoad solve(std::span<const OpDemand* const> running, int spinning, std::vector<OpRate>& out) const;

    // Rate of an operator alone on the device (1 unless its own demand exceeds a capacity).
    double soloRate(const OpDemand& op) const;

  private:
    DeviceConfig m_config;
};

// The device presets `simulate --device` takes: "simdevice" (the default, the device the
// analysis' rules were written against), "proportional" (capacities split in proportion to the
// asks, not max-min fair), "small-cache" (a quarter of the L2: 10 MiB) and "narrow" (half the
// DRAM bandwidth: every operator asks twice the share). Empty for another name.
std::optional<DeviceConfig> devicePreset(std::string_view name);
// The preset names, for help and error texts: "simdevice, proportional, small-cache, narrow".
const char* devicePresetNames();

// Proportional split of `capacity` among `wants`: all of them when they fit, else each the same
// fraction capacity / total of its want. Exposed for tests.
void proportionalFill(std::span<const double> wants, double capacity, std::vector<double>& alloc);

// Max-min fair ("water-filling") split of `capacity` among `wants`: everybody who asks for less
// than the fair level gets what it asks; the rest share equally what is left. Exposed for tests.
void waterFill(std::span<const double> wants, double capacity, std::vector<double>& alloc);

}  // namespace contend::sim
