#include "core/sim/workload.h"

#include <algorithm>

namespace contend::sim {

namespace {

bool fraction(double v) { return v >= 0.0 && v <= 1.0; }

}  // namespace

std::string validate(const Iteration& it, const std::vector<StreamInfo>& streams) {
    for (std::size_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& op = it.ops[i];
        const std::string where = "op " + std::to_string(i) + " (" + op.name + ")";
        if (op.workNs <= 0)
            return where + ": work must be positive";
        if (!fraction(op.demand.bw) || !fraction(op.demand.cu) || !fraction(op.demand.issue))
            return where + ": bw, cu and issue demands must lie in [0, 1]";
        if (op.demand.wsBytes < 0 || op.demand.cacheSens < 0 || op.demand.reuse < 0)
            return where + ": cache parameters must not be negative";
        if (op.jitterSigma < 0 || op.jitterSigma > 0.3)
            return where + ": jitter sigma must lie in [0, 0.3]";
        const bool known = std::any_of(streams.begin(), streams.end(),
                                       [&](const StreamInfo& s) { return s.id == op.stream; });
        if (!known)
            return where + ": stream " + std::to_string(op.stream) + " is not declared";
        if (op.lock >= static_cast<std::int32_t>(it.locks.size()))
            return where + ": lock index out of range";
        for (std::uint32_t a : op.after)
            if (a >= i)
                return where + ": may only wait for operators issued before it";
    }
    return {};
}

}  // namespace contend::sim
