#include "core/analysis/breakdowns/idle.h"

#include "core/analysis/breakdowns/hta_rules.h"

namespace contend::breakdowns {

BreakdownSection<StreamIdle> idleBreakdown(const Trace& trace, const Scope& scope, const TimeRange& range) {
    BreakdownSection<StreamIdle> out;
    const std::vector<Slice>& slices = trace.slices();
    bool linked = false;
    for (const Scope::Stream& st : scope.streams) {
        StreamIdle row;
        row.rank = trace.rank();
        row.stream = st.stream;
        bool first = true;
        bool runs = false;  // an operation of the stream, or a gap, lies in the range
        TimeNs prevEnd = 0;
        for (std::uint32_t i : st.ops) {
            const Slice& s = slices[i];
            if (s.is(kSliceWait)) continue;
            const std::uint32_t launch = scope.launchOf(i);
            if (!first) {
                const TimeNs gap = s.start - prevEnd;
                // The whole gap, or its time in the range.
                const TimeNs counted = gap < 0 ? (range.holds(s.start) ? gap : 0) : range.inside(prevEnd, s.start);
                runs = runs || counted != 0;
                if (launch != kNone && slices[launch].start > prevEnd)
                    row.hostWaitNs += counted;
                else if (gap < kKernelWaitNs)
                    row.kernelWaitNs += counted;
                else
                    row.otherNs += counted;
            }
            linked = linked || launch != kNone;
            runs = runs || range.runs(s.start, s.end());
            first = false;
            prevEnd = s.end();  // HTA: the previous operation's end, not the latest end so far
        }
        if (runs) out.rows.push_back(row);
    }
    if (out.rows.empty())
        out.notComputed = inRange("no device operation on a stream", range);
    else if (!linked) {
        out.rows.clear();
        out.notComputed =
            "no device operation is linked to the host call that launched it, so host wait cannot be "
            "told from the rest";
    }
    return out;
}

}  // namespace contend::breakdowns
