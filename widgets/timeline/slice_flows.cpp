#include "widgets/timeline/slice_flows.h"

namespace contend::widgets {

SliceFlows flowsOf(const Trace& trace, std::uint32_t slice) {
    SliceFlows out;
    if (slice >= trace.slices().size()) return out;
    const auto& flows = trace.flows();
    for (std::uint32_t i = 0; i < flows.size(); ++i) {
        const Flow& f = flows[i];
        if (f.from == kNone || f.to == kNone || f.from == f.to) continue;
        if (f.to == slice)
            out.launchedBy.push_back(f.from);
        else if (f.from == slice)
            out.launches.push_back(f.to);
        else
            continue;
        out.flows.push_back(i);
    }
    return out;
}

}  // namespace contend::widgets
