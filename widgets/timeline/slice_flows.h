#pragma once
// The launch flows of one operator (host launch -> kernel, Ascend async_npu, ...): the slices
// that launched it and the slices it launched, for the flow arrows drawn on selection and the
// "launched by" / "launches" lines in Details. A scan of the trace's flows, once per selection.
#include <vector>

#include "core/trace/trace.h"

namespace contend::widgets {

struct SliceFlows {
    std::vector<std::uint32_t> launchedBy;  // slices with a flow arriving at this one
    std::vector<std::uint32_t> launches;    // slices this one's flows arrive at
    std::vector<std::uint32_t> flows;       // indices into Trace::flows(), both directions
};

SliceFlows flowsOf(const Trace& trace, std::uint32_t slice);

}  // namespace contend::widgets
