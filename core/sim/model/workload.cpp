#include "core/sim/model/workload.h"

#include <algorithm>
#include <cmath>

#include "core/sim/model/rng.h"

namespace contend::sim {

namespace {

bool fraction(double v) { return v >= 0.0 && v <= 1.0; }

double workFactor(const OpSpec& op, Rng& rng) {
    const JitterShape& j = op.jitterShape;
    switch (op.jitterKind) {
    case JitterKind::Normal: return rng.jitter(op.jitterSigma);
    case JitterKind::Uniform: return rng.uniform(1.0 - j.spread, 1.0 + j.spread);
    case JitterKind::Pareto: {
        // Inverse CDF of Pareto(x_m = 1, alpha = 2): 1 / sqrt(U), U in (0, 1].
        const double u = 1.0 - rng.uniform();
        return std::min(j.cap, 1.0 / std::sqrt(u));
    }
    case JitterKind::Bimodal: {
        const double mode = rng.chance(j.secondShare) ? j.secondMode : 1.0;
        return mode * rng.jitter(op.jitterSigma);
    }
    }
    return 1.0;
}

}  // namespace

TimeNs drawWorkNs(const OpSpec& op, Rng& rng) {
    return std::max<TimeNs>(1, std::llround(static_cast<double>(op.workNs) * workFactor(op, rng)));
}

std::string validate(const Iteration& it, const std::vector<StreamInfo>& streams) {
    for (std::size_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& op = it.ops[i];
        const std::string where = "op " + std::to_string(i) + " (" + op.name + ")";
        if (op.workNs <= 0) return where + ": work must be positive";
        if (!fraction(op.demand.bw) || !fraction(op.demand.cu) || !fraction(op.demand.issue))
            return where + ": bw, cu and issue demands must lie in [0, 1]";
        if (op.demand.wsBytes < 0 || op.demand.cacheSens < 0 || op.demand.reuse < 0)
            return where + ": cache parameters must not be negative";
        if (op.jitterSigma < 0 || op.jitterSigma > 0.3) return where + ": jitter sigma must lie in [0, 0.3]";
        const JitterShape& j = op.jitterShape;
        if (op.jitterKind == JitterKind::Uniform && !(j.spread >= 0 && j.spread <= 0.9))
            return where + ": uniform jitter spread must lie in [0, 0.9]";
        if (op.jitterKind == JitterKind::Pareto && !(j.cap >= 1 && j.cap <= 100))
            return where + ": heavy-tail cap must lie in [1, 100]";
        if (op.jitterKind == JitterKind::Bimodal &&
            !(fraction(j.secondShare) && j.secondMode > 0 && j.secondMode <= 10))
            return where + ": bimodal share must lie in [0, 1] and its mode in (0, 10]";
        const bool known =
            std::any_of(streams.begin(), streams.end(), [&](const StreamInfo& s) { return s.id == op.stream; });
        if (!known) return where + ": stream " + std::to_string(op.stream) + " is not declared";
        if (op.lock >= static_cast<std::int32_t>(it.locks.size())) return where + ": lock index out of range";
        for (std::uint32_t a : op.after)
            if (a >= i) return where + ": may only wait for operators issued before it";
    }
    return {};
}

}  // namespace contend::sim
