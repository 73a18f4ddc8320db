#include "core/analysis/scoring/character.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

namespace contend {

const char* characterName(Character c) {
    switch (c) {
    case Character::Memory: return "memory-bound";
    case Character::Compute: return "compute-bound";
    case Character::Collective: return "collective";
    case Character::Unknown: return "unknown";
    }
    return "unknown";
}

const char* characterSourceName(CharacterSource s) {
    switch (s) {
    case CharacterSource::Measured: return "counters";
    case CharacterSource::Args: return "args";
    case CharacterSource::Names: return "name";
    case CharacterSource::None: return "none";
    }
    return "none";
}

namespace {

bool has(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

// Which Speed-Of-Light share of peak a per-kernel metric key is: 0 compute, 1 memory, -1 neither.
int speedOfLightKind(std::string_view k) {
    if (!has(k, "pct_of_peak")) return -1;
    if (k.rfind("sm__throughput.", 0) == 0) return 0;
    if (k.rfind("gpu__compute_memory_throughput.", 0) == 0 || k.rfind("dram__throughput.", 0) == 0 ||
        k.rfind("gpu__dram_throughput.", 0) == 0)
        return 1;
    return -1;
}

double median(std::vector<float>& v) {
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// Nsight Compute's rule on the signature's per-kernel metrics (percent of peak, per run):
// nullopt when it has none; Unknown when neither share reaches kVendorBound.
std::optional<Character> speedOfLight(const Trace& trace, const OperatorSet& ops, std::size_t sig,
                                      const std::unordered_map<StringId, int>& kinds) {
    std::vector<float> share[2];
    for (std::uint32_t k = ops.sigBegin[sig]; k < ops.sigBegin[sig + 1]; ++k) {
        const SliceInfo& info = trace.infos()[ops.slices[ops.sigOps[k]]];
        for (std::uint32_t m = info.metricsBegin; m < info.metricsBegin + info.metricsCount; ++m) {
            const Metric& metric = trace.metrics()[m];
            auto it = kinds.find(metric.key);
            if (it != kinds.end() && std::isfinite(metric.value)) share[it->second].push_back(metric.value);
        }
    }
    if (share[0].empty() && share[1].empty()) return std::nullopt;
    const double compute = median(share[0]) / 100.0, memory = median(share[1]) / 100.0;
    const double top = std::max(std::isfinite(compute) ? compute : 0.0, std::isfinite(memory) ? memory : 0.0);
    if (top < kVendorBound) return Character::Unknown;
    return std::isfinite(compute) && compute >= top ? Character::Compute : Character::Memory;
}

}  // namespace

std::optional<Character> ascendPipeCharacter(const Trace& trace, const OperatorSet& ops, std::uint32_t signature) {
    // Compute pipes, then memory pipes, cube (aic_) and vector (aiv_).
    static const char* kKeys[] = {"aic_mac_ratio", "aiv_vec_ratio", "aic_mte2_ratio", "aiv_mte2_ratio"};
    std::array<StringId, 4> ids{};
    bool any = false;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        ids[k] = trace.strings().find(kKeys[k]);
        any = any || ids[k] != kNone;
    }
    if (!any) return std::nullopt;
    std::array<std::vector<float>, 4> values;
    for (std::uint32_t i = ops.sigBegin[signature]; i < ops.sigBegin[signature + 1]; ++i) {
        const SliceInfo& info = trace.infos()[ops.slices[ops.sigOps[i]]];
        for (std::uint32_t m = 0; m < info.metricsCount; ++m) {
            const Metric& mt = trace.metrics()[info.metricsBegin + m];
            if (!std::isfinite(mt.value)) continue;
            for (std::size_t k = 0; k < ids.size(); ++k)
                if (ids[k] != kNone && mt.key == ids[k]) values[k].push_back(mt.value);
        }
    }
    if (std::all_of(values.begin(), values.end(), [](const auto& v) { return v.empty(); })) return std::nullopt;
    auto best = [&](std::size_t a, std::size_t b) {
        const float x = median(values[a]), y = median(values[b]);
        return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y);
    };
    const float compute = best(0, 1), memory = best(2, 3);
    const double computeMargin = std::isnan(compute) ? -1 : compute - kAscendComputeBound;
    const double memoryMargin = std::isnan(memory) ? -1 : memory - kAscendMte2Bound;
    if (computeMargin <= 0 && memoryMargin <= 0) return Character::Unknown;
    return memoryMargin > computeMargin ? Character::Memory : Character::Compute;
}

Character characterFromName(std::string_view raw, std::string_view taskType) {
    std::string n(raw);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string type = operatorType(raw);
    if (type == "comm") return Character::Collective;
    if (type == "matmul" || type == "conv" || type == "attention") return Character::Compute;
    if (type == "memcpy" || type == "memset" || type == "elementwise" || type == "norm" || type == "softmax" ||
        type == "reduce")
        return Character::Memory;
    // Families operatorType leaves as "other".
    if (has(n, "index") || has(n, "scatter") || has(n, "gather") || has(n, "concat") || has(n, "cat_") ||
        has(n, "nchw") || has(n, "nhwc") || has(n, "layout") || has(n, "permute") || has(n, "contiguous") ||
        has(n, "resize") || has(n, "upsample") || has(n, "interpolate") || has(n, "triton_poi") ||
        has(n, "triton_red") || has(n, "triton_per") || has(n, "embedding") || has(n, "dropout") ||
        has(n, "normalize") || has(n, "crop") || has(n, "flip") || has(n, "gammabeta") || has(n, "fill"))
        return Character::Memory;
    if (has(n, "triton_tem") || has(n, "sgemm") || has(n, "hgemm") || has(n, "xmma") || has(n, "wmma") ||
        has(n, "tensorop"))
        return Character::Compute;
    if (taskType == "AI_VECTOR_CORE" || taskType == "MIX_AIV") return Character::Memory;
    if (taskType == "AI_CORE" || taskType == "MIX_AIC") return Character::Compute;
    return Character::Unknown;
}

std::vector<SignatureCharacter> signatureCharacters(const Trace& trace, const OperatorSet& ops,
                                                    const PressureResult& pressure) {
    std::vector<SignatureCharacter> out(ops.signatures.size());
    std::unordered_map<StringId, int> solKinds;  // metric keys that are Speed-Of-Light shares
    {
        std::unordered_map<StringId, bool> seen;
        for (const Metric& m : trace.metrics()) {
            if (!seen.try_emplace(m.key, true).second) continue;  // no node made for a known key
            if (const int kind = speedOfLightKind(trace.str(m.key)); kind >= 0) solKinds.emplace(m.key, kind);
        }
    }
    const int bw = pressureIndex(Resource::Bandwidth);
    const int cu = pressureIndex(Resource::Compute);
    for (std::size_t s = 0; s < ops.signatures.size(); ++s) {
        SignatureCharacter& c = out[s];
        const SignatureKey& key = ops.signatures[s];
        // Nsight Compute's rule where the kernel's own shares of peak were measured; below 80% of
        // both they say it is bound by neither, so the weaker demand rule does not read them again.
        const std::optional<Character> sol = solKinds.empty() ? std::nullopt : speedOfLight(trace, ops, s, solKinds);
        if (sol && *sol != Character::Unknown) {
            c = {*sol, CharacterSource::Measured};
            continue;
        }
        // Measured by Ascend's pipe ratios where the tasks carry them: they are the direct
        // measure, so the generic demand threshold does not second-guess them.
        const std::optional<Character> pipes = ascendPipeCharacter(trace, ops, static_cast<std::uint32_t>(s));
        if (pipes && *pipes != Character::Unknown) {
            c = {*pipes, CharacterSource::Measured};
            continue;
        }
        // Measured: the signature's own demand, from counters or its per-op metrics.
        if (!sol && !pipes && s < pressure.demand.size() && bw >= 0 && cu >= 0) {
            const auto& src = pressure.demandSource[s];
            const float dbw = pressure.demand[s][static_cast<std::size_t>(bw)];
            const float dcu = pressure.demand[s][static_cast<std::size_t>(cu)];
            auto direct = [](DemandSource d) {
                return d == DemandSource::Metric || d == DemandSource::Alone || d == DemandSource::Beside;
            };
            const bool knowBw = std::isfinite(dbw) && direct(src[static_cast<std::size_t>(bw)]);
            const bool knowCu = std::isfinite(dcu) && direct(src[static_cast<std::size_t>(cu)]);
            if (knowBw && dbw >= kHeavyDemand && (!knowCu || dbw >= dcu)) {
                c = {Character::Memory, CharacterSource::Measured};
                continue;
            }
            if (knowCu && dcu >= kHeavyDemand) {
                c = {Character::Compute, CharacterSource::Measured};
                continue;
            }
        }
        if (key.bytes >= 0) {
            c = {Character::Memory, CharacterSource::Args};
            continue;
        }
        const std::uint32_t first = ops.slices[ops.sigOps[ops.sigBegin[s]]];
        const StringId tt = trace.infos()[first].taskType;
        const Character byName = characterFromName(trace.str(key.name), tt ? trace.str(tt) : std::string_view{});
        if (byName != Character::Unknown) c = {byName, CharacterSource::Names};
    }
    return out;
}

}  // namespace contend
