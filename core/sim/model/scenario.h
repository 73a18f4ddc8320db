#pragma once
// The simulator's scenarios and which contention "sites" of project X go wrong in each step.
// Every site has a bad form (the contention) and a good form (its fix); a scenario picks, step by
// step, which sites run bad. "--fixed" runs every site good, with the same choices otherwise.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace contend::sim {

// Null is not project X: a busy four-stream device where nothing is shared (null_workload.h),
// the control on which an analysis must find nothing.
enum class Scenario : std::uint8_t { Bandwidth, SyncCluster, Cache, Lock, Mixed, Null };

// "bandwidth", "sync-cluster", "cache", "lock", "mixed", "null"
std::string_view scenarioName(Scenario s);
std::optional<Scenario> parseScenario(std::string_view name);
const std::vector<Scenario>& allScenarios();
int defaultIterations(Scenario s);  // 24 for mixed and null, 12 for the single-cause scenarios

// Which sites run their bad form in one step.
struct Sites {
    bool bandwidth = false;  // normalisation lands on the layout transform
    bool sync = false;       // metric ops each behind a stream sync
    bool cache = false;      // feature-map op beside the convolution chain overflows L2
    bool lock = false;       // two accumulation kernels share one lock
};

// Rates in the mixed scenario (probability a step runs the site bad; sync: every 4th step, as a
// metrics logger would). Single-cause scenarios run their site bad in a step with probability
// `badRate` (sitesFor), every step by default.
struct MixedRates {
    double bandwidth = 0.5;
    double cache = 0.6;
    double lock = 0.35;
    int syncEvery = 4;
};

// Decided from (seed, step) alone, so any step can be built without the ones before it.
// badRate: the probability that a single-cause scenario runs its site bad in a step (1: every
// step, as before; 0: never, the fixed twin's sites). Mixed has its own rates and ignores it.
Sites sitesFor(Scenario s, bool fixed, std::uint64_t seed, int step, double badRate = 1.0);

// Scenarios that plant one cause and take a bad rate.
bool isSingleCause(Scenario s);

}  // namespace contend::sim
