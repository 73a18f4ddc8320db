#include "core/analysis/breakdowns/idle.h"

#include "core/analysis/breakdowns/hta_rules.h"

namespace contend::breakdowns {

BreakdownSection<StreamIdle> idleBreakdown(const Trace& trace, const Scope& scope) {
    BreakdownSection<StreamIdle> out;
    const std::vector<Slice>& slices = trace.slices();
    bool linked = false;
    for (const Scope::Stream& st : scope.streams) {
        StreamIdle row;
        row.rank = trace.rank();
        row.stream = st.stream;
        bool first = true;
        TimeNs prevEnd = 0;
        for (std::uint32_t i : st.ops) {
            const Slice& s = slices[i];
            if (s.is(kSliceWait)) continue;
            const std::uint32_t launch = scope.launchOf(i);
            if (!first) {
                const TimeNs gap = s.start - prevEnd;
                if (launch != kNone && slices[launch].start > prevEnd)
                    row.hostWaitNs += gap;
                else if (gap < kKernelWaitNs)
                    row.kernelWaitNs += gap;
                else
                    row.otherNs += gap;
            }
            linked = linked || launch != kNone;
            first = false;
            prevEnd = s.end();  // HTA: the previous operation's end, not the latest end so far
        }
        if (!first) out.rows.push_back(row);
    }
    if (out.rows.empty())
        out.notComputed = "no device operation on a stream";
    else if (!linked) {
        out.rows.clear();
        out.notComputed =
            "no device operation is linked to the host call that launched it, so host wait cannot be "
            "told from the rest";
    }
    return out;
}

}  // namespace contend::breakdowns
