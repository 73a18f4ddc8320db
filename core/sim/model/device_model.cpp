#include "core/sim/model/device_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace contend::sim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kResources = 2;  // 0: DRAM bandwidth, 1: compute units
// Fixed-point iterations of the coupled sharing; converges in a handful for a few operators.
constexpr int kMaxIterations = 100;
constexpr double kConverged = 1e-13;

}  // namespace

void waterFill(std::span<const double> wants, double capacity, std::vector<double>& alloc) {
    const std::size_t n = wants.size();
    alloc.assign(wants.begin(), wants.end());
    double total = 0;
    for (double w : wants) total += w;
    if (total <= capacity) return;
    // Visit the wants smallest first; each either fits under the current fair level or the level
    // is what remains split equally among those still unserved. Ties keep input order (stable).
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return wants[a] < wants[b]; });
    double left = capacity;
    std::size_t k = 0;
    for (; k < n; ++k) {
        const double level = left / static_cast<double>(n - k);
        const double w = wants[order[k]];
        if (w > level) break;
        alloc[order[k]] = w;
        left -= w;
    }
    if (k < n) {
        const double level = left / static_cast<double>(n - k);
        for (std::size_t j = k; j < n; ++j) alloc[order[j]] = level;
    }
}

void proportionalFill(std::span<const double> wants, double capacity, std::vector<double>& alloc) {
    alloc.assign(wants.begin(), wants.end());
    double total = 0;
    for (double w : wants) total += w;
    if (total <= capacity) return;
    const double share = capacity / total;
    for (double& a : alloc) a *= share;
}

std::optional<DeviceConfig> devicePreset(std::string_view name) {
    DeviceConfig d;
    if (name == "simdevice") return d;
    if (name == "proportional") {
        d.name = "Contend SimDevice (proportional sharing)";
        d.sharing = Sharing::Proportional;
        return d;
    }
    if (name == "small-cache") {
        d.name = "Contend SimDevice (10 MiB L2)";
        d.cacheBytes = 10LL << 20;
        return d;
    }
    if (name == "narrow") {
        d.name = "Contend SimDevice (half the DRAM bandwidth)";
        d.peakBandwidthGBs = kReferenceBandwidthGBs / 2;
        return d;
    }
    return std::nullopt;
}

const char* devicePresetNames() { return "simdevice, proportional, small-cache, narrow"; }

double DeviceModel::hitRateFor(std::int64_t wsBytes) const {
    if (wsBytes <= m_config.cacheBytes) return m_config.baseHitRate;
    return m_config.baseHitRate * static_cast<double>(m_config.cacheBytes) / static_cast<double>(wsBytes);
}

DeviceLoad DeviceModel::solve(std::span<const OpDemand* const> running, int spinning, std::vector<OpRate>& out) const {
    const std::size_t n = running.size();
    out.assign(n, OpRate{});
    // Demands are fractions of the reference device's bandwidth (exactly 1 on it).
    const double bwScale =
        m_config.peakBandwidthGBs == kReferenceBandwidthGBs ? 1.0 : kReferenceBandwidthGBs / m_config.peakBandwidthGBs;
    DeviceLoad load;

    // Cache: everybody running shares one hit rate set by the total footprint. An operator loses
    // the part of its solo hits that the shared rate no longer gives it.
    std::int64_t ws = 0;
    for (const OpDemand* op : running) ws += op->wsBytes;
    const double hit = hitRateFor(ws);
    for (std::size_t i = 0; i < n; ++i) {
        const OpDemand& op = *running[i];
        const double solo = soloHitRate(op);
        const double lost = solo > 0 ? std::max(0.0, (solo - hit) / solo) : 0.0;
        out[i].hit = hit;
        out[i].cacheCap = 1.0 / (1.0 + op.cacheSens * lost);
        out[i].bw = (op.bw + op.reuse * lost) * bwScale;
    }

    // Bandwidth and compute: each capacity is water-filled among what the operators would use
    // if that capacity were not there (their want is capped by their other bounds), and an
    // operator's rate is its tightest bound. Iterated to a fixed point so that capacity an
    // operator cannot use (held back elsewhere) goes to the others. Each iterate is feasible:
    // rate <= alloc / demand on every capacity, and the allocations sum to at most 1.
    std::vector<double> demand[kResources];
    std::vector<double> bound[kResources];
    for (int r = 0; r < kResources; ++r) {
        demand[r].resize(n);
        bound[r].assign(n, kInf);
    }
    for (std::size_t i = 0; i < n; ++i) {
        demand[0][i] = out[i].bw;
        demand[1][i] = running[i]->cu;
    }
    std::vector<double> rate(n), want(n), alloc;
    for (std::size_t i = 0; i < n; ++i) rate[i] = out[i].cacheCap;
    // Common case: everything fits at the cache-bound rates; no sharing to solve.
    double used[kResources] = {0, 0};
    for (std::size_t i = 0; i < n; ++i)
        for (int r = 0; r < kResources; ++r) used[r] += demand[r][i] * rate[i];
    const bool fits = used[0] <= 1.0 && used[1] <= 1.0;
    std::vector<double> next[kResources];
    // cut[r][i]: capacity r gave operator i less than it wanted (it is what holds i back).
    std::vector<char> cut[kResources];
    for (int r = 0; r < kResources; ++r) cut[r].assign(n, 0);
    for (int iter = 0; iter < kMaxIterations && n > 0 && !fits; ++iter) {
        for (int r = 0; r < kResources; ++r) {
            for (std::size_t i = 0; i < n; ++i) {
                double lim = out[i].cacheCap;
                for (int o = 0; o < kResources; ++o)
                    if (o != r) lim = std::min(lim, bound[o][i]);
                want[i] = demand[r][i] * lim;
            }
            if (m_config.sharing == Sharing::Proportional)
                proportionalFill(want, 1.0, alloc);
            else
                waterFill(want, 1.0, alloc);
            next[r].resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                next[r][i] = demand[r][i] > 0 ? alloc[i] / demand[r][i] : kInf;
                cut[r][i] = alloc[i] < want[i] * (1.0 - 1e-12);
            }
        }
        double change = 0;
        for (std::size_t i = 0; i < n; ++i) {
            double r = out[i].cacheCap;
            for (int k = 0; k < kResources; ++k) r = std::min(r, next[k][i]);
            change = std::max(change, std::fabs(r - rate[i]));
            rate[i] = r;
        }
        for (int k = 0; k < kResources; ++k) bound[k].swap(next[k]);
        if (iter > 0 && change < kConverged) break;
    }

    for (std::size_t i = 0; i < n; ++i) {
        OpRate& o = out[i];
        o.rate = rate[i];
        if (o.rate < o.cacheCap * (1.0 - 1e-12)) {
            // The tighter of the capacities that cut it; bandwidth on an exact tie.
            const bool bwCut = cut[0][i] != 0;
            const bool cuCut = cut[1][i] != 0;
            if (bwCut && (!cuCut || bound[0][i] <= bound[1][i]))
                o.limiter = Limiter::Bandwidth;
            else if (cuCut)
                o.limiter = Limiter::Compute;
        }
        load.bandwidth += o.bw * o.rate;
        load.compute += running[i]->cu * o.rate;
        load.issue += running[i]->issue * o.rate;
    }
    load.issue += m_config.spinIssue * spinning;
    load.hitRate = hit;
    load.bandwidth = std::min(load.bandwidth, 1.0);
    load.compute = std::min(load.compute, 1.0);
    load.issue = std::min(load.issue, 1.0);
    return load;
}

double DeviceModel::soloRate(const OpDemand& op) const {
    const OpDemand* one[] = {&op};
    std::vector<OpRate> out;
    solve(one, 0, out);
    return out[0].rate;
}

}  // namespace contend::sim
