#include "core/analysis/findings/breakdown.h"

#include <algorithm>
#include <cmath>

namespace contend {

namespace {

enum Part { kData, kQueue, kSync, kOwn };

Part partOf(Resource r) {
    switch (r) {
    case Resource::Bandwidth:
    case Resource::Cache: return kData;
    case Resource::Compute:
    case Resource::Issue:
    case Resource::Queue: return kQueue;
    case Resource::Sync:
    case Resource::Lock: return kSync;
    default: return kOwn;
    }
}

}  // namespace

void accumulate(Breakdown& sum, const Breakdown& b) {
    sum.computeNs += b.computeNs;
    sum.dataWaitNs += b.dataWaitNs;
    sum.queueNs += b.queueNs;
    sum.syncNs += b.syncNs;
    sum.measuredData = sum.measuredData || b.measuredData;
    sum.measuredQueue = sum.measuredQueue || b.measuredQueue;
    sum.measuredSync = sum.measuredSync || b.measuredSync;
    if (b.waitBeforeNs >= 0) sum.waitBeforeNs = std::max<TimeNs>(0, sum.waitBeforeNs) + b.waitBeforeNs;
}

Breakdown breakdownOf(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                      const PressureResult& pressure, const CauseResult& causes, std::uint32_t op) {
    const auto& slices = trace.slices();
    const auto& infos = trace.infos();
    const auto bwIdx = static_cast<std::size_t>(pressureIndex(Resource::Bandwidth));
    Breakdown b;
    {
        const std::uint32_t sl = ops.slices[op];
        const Slice& s = slices[sl];
        const std::uint32_t sig = ops.signatureOf[op];
        const SignatureBaseline& sb = base.signatures[sig];
        const TimeNs excess = sb.rule == BaselineRule::Single ? 0 : std::clamp<TimeNs>(base.excessNs[op], 0, s.dur);
        b.computeNs = s.dur - excess;
        // Measured time before start.
        const SliceInfo& info = infos[sl];
        if (info.waitNs >= 0) {
            b.waitBeforeNs = info.waitNs;
        } else if (info.launch != kNone) {
            b.waitBeforeNs = std::max<TimeNs>(0, s.start - slices[info.launch].end());
        }
        if (excess == 0) return b;
        TimeNs left = excess;
        // Measured extra data time from the per-op data-movement ratio.
        const float ratio = PressureResult::of(pressure.metric, op, bwIdx);  // none: NaN
        const float usual = pressure.metricRef[sig][bwIdx];
        if (std::isfinite(ratio) && std::isfinite(usual)) {
            const double extra = static_cast<double>(ratio) * static_cast<double>(s.dur) -
                                 static_cast<double>(usual) * static_cast<double>(sb.baselineNs);
            const TimeNs data = std::clamp<TimeNs>(static_cast<TimeNs>(std::llround(extra)), 0, left);
            b.dataWaitNs = data;
            b.measuredData = true;
            left -= data;
        }
        if (left == 0) return b;
        const Resource cause = causes.cause[op];
        TimeNs parts[4] = {0, 0, 0, 0};
        if (pressureIndex(cause) >= 0) {
            // Split over the saturated resources with at least half the winner's credit.
            const PressureArray& cr = causes.creditOf(op);
            const float top = *std::max_element(cr.begin(), cr.end());
            double total = 0;
            for (float c : cr)
                if (c >= 0.5f * top && c > 0) total += c;
            TimeNs given = 0;
            Part last = partOf(cause);
            for (std::size_t p = 0; p < kPressureResources && total > 0; ++p) {
                if (!(cr[p] >= 0.5f * top && cr[p] > 0)) continue;
                const auto share = static_cast<TimeNs>(static_cast<double>(left) * cr[p] / total);
                parts[partOf(kPressureResource[p])] += share;
                given += share;
                last = partOf(kPressureResource[p]);
            }
            parts[last] += left - given;  // rounding
            if (b.measuredData) {
                // The data part is measured: what the estimate would add to it stays unexplained.
                parts[kOwn] += parts[kData];
                parts[kData] = 0;
            }
        } else {
            parts[partOf(cause)] += left;
        }
        b.dataWaitNs += parts[kData];
        b.queueNs += parts[kQueue];
        b.syncNs += parts[kSync];
        b.computeNs += parts[kOwn];
    }
    return b;
}

std::vector<Breakdown> computeBreakdowns(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                                         const PressureResult& pressure, const CauseResult& causes) {
    std::vector<Breakdown> out(ops.size());
    for (std::uint32_t op = 0; op < ops.size(); ++op) out[op] = breakdownOf(trace, ops, base, pressure, causes, op);
    return out;
}

std::vector<Breakdown> signatureBreakdowns(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                                           const PressureResult& pressure, const CauseResult& causes) {
    std::vector<Breakdown> out(ops.signatures.size());
    // In op order (memory order); by signature the ops are scattered.
    for (std::uint32_t op = 0; op < ops.size(); ++op)
        accumulate(out[ops.signatureOf[op]], breakdownOf(trace, ops, base, pressure, causes, op));
    return out;
}

}  // namespace contend
