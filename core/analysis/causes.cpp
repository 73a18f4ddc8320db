#include "core/analysis/causes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/analysis/windows.h"

namespace contend {

namespace {

float finiteOr(float v, float fallback) { return std::isfinite(v) ? v : fallback; }

Resource resourceFromPartners(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap, std::uint32_t op) {
    const std::string& mine = ops.signatures[ops.signatureOf[op]].opType;
    auto memory = [](const std::string& t) { return t == "memcpy" || t == "memset"; };
    auto compute = [](const std::string& t) { return t == "matmul" || t == "conv" || t == "attention"; };
    // The partner that shared the most time with it.
    TimeNs best = 0;
    std::uint32_t partner = kNone;
    for (std::uint32_t k = overlap.pairBegin[op]; k < overlap.pairBegin[op + 1]; ++k) {
        const OverlapPair& p = overlap.pairs[overlap.pairsOf[k]];
        if (p.end - p.start > best) {
            best = p.end - p.start;
            partner = p.a == op ? p.b : p.a;
        }
    }
    (void)trace;
    if (partner == kNone) return Resource::Unknown;
    const std::string& theirs = ops.signatures[ops.signatureOf[partner]].opType;
    if (memory(mine) || memory(theirs)) return Resource::Bandwidth;
    if (compute(mine) && compute(theirs)) return Resource::Compute;
    return Resource::Unknown;
}

}  // namespace

CauseResult attributeCauses(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                            const OverlapResult& overlap, const PressureResult& pressure, const ResourceTimelines& timelines) {
    CauseResult r;
    const std::size_t n = ops.size();
    r.cause.assign(n, Resource::None);
    PressureArray zero{};
    r.credit.assign(n, zero);
    r.anyCounters = timelines.any();
    r.anyMetrics = std::any_of(pressure.haveMetrics.begin(), pressure.haveMetrics.end(), [](bool b) { return b; });
    const auto& slices = trace.slices();
    const int computeIdx = pressureIndex(Resource::Compute);
    for (std::uint32_t op = 0; op < n; ++op) {
        if (base.excessNs[op] <= 0) continue;
        const std::uint32_t sig = ops.signatureOf[op];
        const TimeNs dur = slices[ops.slices[op]].dur;
        PressureArray& credit = r.credit[op];
        for (std::size_t p = 0; p < kPressureResources; ++p) {
            const Resource res = kPressureResource[p];
            const float hf = finiteOr(pressure.highFrac[op][p], 0);
            const float demand = pressure.demand[sig][p];
            float c = 0;
            if (res == Resource::Cache) {
                const float rise = finiteOr(pressure.mean[op][p], 0) - ownCachePressure(pressure, sig);
                if (rise >= kCacheRise) c = hf;
                // Per-op hit rate: lower than the signature's usual.
                const float drop = finiteOr(pressure.metricRef[sig][p], 0) - finiteOr(pressure.metric[op][p], pressure.metricRef[sig][p]);
                if (std::isfinite(drop) && drop > 0) c = std::max(c, std::min(1.0f, drop / static_cast<float>(kMetricMove)));
            } else {
                // Saturation counts against the op only when it uses the resource and the
                // operators beside it asked for more than there was.
                if (demand >= kUseThreshold && hf > 0 && pressure.peakLoad[op][p] >= 1.0 + kOverload) c = hf;
                const float move = finiteOr(pressure.metric[op][p], 0) - finiteOr(pressure.metricRef[sig][p], 1);
                if (move > 0) c = std::max(c, std::min(1.0f, move / static_cast<float>(kMetricMove)));
            }
            credit[p] = c;
        }
        std::size_t best = 0;
        for (std::size_t p = 1; p < kPressureResources; ++p)
            if (credit[p] > credit[best]) best = p;
        const double overlapFrac = static_cast<double>(overlap.overlappedNs[op]) / static_cast<double>(dur);
        Resource cause;
        if (credit[best] >= kMinCredit) {
            cause = kPressureResource[best];
        } else if (computeIdx >= 0 && finiteOr(pressure.highFrac[op][static_cast<std::size_t>(computeIdx)], 0) >= kMinCredit &&
                   overlapFrac >= kMinOverlap) {
            cause = Resource::Queue;
        } else if (ops.signatures[sig].opType == "comm") {
            cause = Resource::Sync;
        } else if (!ops.deviceScope) {
            cause = Resource::Unknown;   // host threads overlap all the time: no evidence
        } else if (overlapFrac >= kMinOverlap && r.anyCounters) {
            cause = Resource::Lock;
        } else if (overlapFrac >= kMinOverlap) {
            cause = resourceFromPartners(trace, ops, overlap, op);
        } else {
            cause = Resource::Unknown;
        }
        r.cause[op] = cause;
    }
    return r;
}

std::string describeCause(const OperatorSet& ops, std::uint32_t op, const BaselineResult& base,
                          const OverlapResult& overlap, const PressureResult& pressure, const CauseResult& causes,
                          const Trace& trace) {
    const TimeNs dur = trace.slices()[ops.slices[op]].dur;
    const double overlapPct = 100.0 * static_cast<double>(overlap.overlappedNs[op]) / static_cast<double>(std::max<TimeNs>(1, dur));
    const std::uint32_t sig = ops.signatureOf[op];
    char buf[256];
    std::string s;
    const Resource c = causes.cause[op];
    const int p = pressureIndex(c);
    if (p >= 0) {
        const auto pi = static_cast<std::size_t>(p);
        if (c == Resource::Cache && std::isfinite(pressure.hitRate[op])) {
            std::snprintf(buf, sizeof buf, "cache thrashed for %.0f%% of its run (hit rate %.0f%% while it ran)",
                          100.0 * causes.credit[op][pi], 100.0 * pressure.hitRate[op]);
        } else if (std::isfinite(pressure.metric[op][pi]) && std::isfinite(pressure.metricRef[sig][pi]) &&
                   (!std::isfinite(pressure.highFrac[op][pi]) ||
                    (pressure.metric[op][pi] - pressure.metricRef[sig][pi]) / kMetricMove >= pressure.highFrac[op][pi])) {
            std::snprintf(buf, sizeof buf, "its own %s metric moved from %.2f to %.2f", resourceName(c),
                          pressure.metricRef[sig][pi], pressure.metric[op][pi]);
        } else {
            std::snprintf(buf, sizeof buf, "%s saturated for %.0f%% of its run (mean %.0f%%, its own use %.0f%%)",
                          resourceName(c), 100.0 * causes.credit[op][pi], 100.0 * finiteOr(pressure.mean[op][pi], 0),
                          100.0 * finiteOr(pressure.demand[sig][pi], 0));
        }
        s = buf;
    } else if (c == Resource::Queue) {
        s = "compute units saturated by other operators while it ran";
    } else if (c == Resource::Sync) {
        s = "collective operator: extra time waiting for peers";
    } else if (c == Resource::Lock) {
        s = "slowed while other operators ran, with no shared resource saturated: waiting on something they held";
    } else if (c == Resource::Unknown) {
        s = overlapPct < 100.0 * kMinOverlap ? "no overlap and no resource pressure: look inside the operator itself"
                                             : "overlapped other operators, but the trace has no counter to say what they shared";
    }
    std::snprintf(buf, sizeof buf, "; overlapped %.0f%% by other tracks; %.2fx its baseline", overlapPct,
                  static_cast<double>(dur) / static_cast<double>(std::max<TimeNs>(1, base.signatures[sig].baselineNs)));
    return s + buf;
}

}  // namespace contend
