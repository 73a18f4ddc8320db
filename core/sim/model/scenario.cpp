#include "core/sim/model/scenario.h"

#include "core/sim/model/rng.h"

namespace contend::sim {

namespace {

constexpr std::uint64_t kSiteSalt = 0x517e5;
constexpr std::uint64_t kBadRateSalt = 0xbad5;

// Whether a single-cause scenario's site runs bad in `step`: certain at rate 1 (no draw, so the
// default is exactly what it always was), else one draw from the step's own stream.
bool badStep(std::uint64_t seed, int step, double badRate) {
    if (badRate >= 1.0) return true;
    if (badRate <= 0.0) return false;
    Rng rng(mixSeed(seed, static_cast<std::uint64_t>(step), kBadRateSalt));
    return rng.chance(badRate);
}

}  // namespace

std::string_view scenarioName(Scenario s) {
    switch (s) {
    case Scenario::Bandwidth: return "bandwidth";
    case Scenario::SyncCluster: return "sync-cluster";
    case Scenario::Cache: return "cache";
    case Scenario::Lock: return "lock";
    case Scenario::Mixed: return "mixed";
    case Scenario::Null: return "null";
    }
    return "mixed";
}

std::optional<Scenario> parseScenario(std::string_view name) {
    for (Scenario s : allScenarios())
        if (scenarioName(s) == name) return s;
    return std::nullopt;
}

const std::vector<Scenario>& allScenarios() {
    static const std::vector<Scenario> all{Scenario::Bandwidth, Scenario::SyncCluster, Scenario::Cache,
                                           Scenario::Lock,      Scenario::Mixed,       Scenario::Null};
    return all;
}

int defaultIterations(Scenario s) { return s == Scenario::Mixed || s == Scenario::Null ? 24 : 12; }

bool isSingleCause(Scenario s) {
    return s == Scenario::Bandwidth || s == Scenario::SyncCluster || s == Scenario::Cache || s == Scenario::Lock;
}

Sites sitesFor(Scenario s, bool fixed, std::uint64_t seed, int step, double badRate) {
    Sites sites;
    if (fixed || (isSingleCause(s) && !badStep(seed, step, badRate))) return sites;
    switch (s) {
    case Scenario::Bandwidth: sites.bandwidth = true; break;
    case Scenario::SyncCluster: sites.sync = true; break;
    case Scenario::Cache: sites.cache = true; break;
    case Scenario::Lock: sites.lock = true; break;
    case Scenario::Mixed: {
        const MixedRates rates;
        Rng rng(mixSeed(seed, static_cast<std::uint64_t>(step), kSiteSalt));
        sites.bandwidth = rng.chance(rates.bandwidth);
        sites.cache = rng.chance(rates.cache);
        sites.lock = rng.chance(rates.lock);
        sites.sync = step % rates.syncEvery == rates.syncEvery - 1;
        break;
    }
    case Scenario::Null: break;  // no project X sites at all
    }
    return sites;
}

}  // namespace contend::sim
