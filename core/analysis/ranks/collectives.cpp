#include "core/analysis/ranks/collectives.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

#include "core/analysis/inputs/signatures.h"  // isDeviceOperator
#include "core/trace/conventions.h"

namespace contend {

namespace {
// NCCL/HCCL kernels by their library prefix only: operatorType's wider "comm" words (broadcast,
// sendrecv, ...) also match compute ops such as Ascend's BroadcastTo.
bool isCollectiveName(std::string_view name) {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return n.find("nccl") != std::string::npos || n.find("hccl") != std::string::npos ||
           n.find("hcom_") != std::string::npos;
}
}  // namespace

ReportDistributed findCollectives(const Trace& trace, const std::vector<IterationStats>& iterations) {
    ReportDistributed out;
    out.rank = trace.rank();
    out.worldSize = trace.worldSize();
    if (iterations.empty()) return out;
    // Steps by start, for the lookup below.
    std::vector<std::pair<TimeNs, std::uint32_t>> steps;
    steps.reserve(iterations.size());
    for (const IterationStats& it : iterations) steps.emplace_back(it.start, it.index);
    std::sort(steps.begin(), steps.end());

    std::vector<std::uint8_t> hcclTrack(trace.tracks().size(), 0);
    for (std::size_t t = 0; t < trace.tracks().size(); ++t)
        hcclTrack[t] = trace.tracks()[t].processName == conventions::kHcclProcess;

    std::unordered_map<StringId, std::uint32_t> nameIndex;
    std::unordered_map<StringId, bool> isComm;
    const auto& slices = trace.slices();
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        const Slice& s = slices[i];
        if (s.dur <= 0 || s.is(kSliceInstant)) continue;
        if (!isDeviceOperator(trace, i) && !hcclTrack[s.track]) continue;
        auto [c, fresh] = isComm.try_emplace(s.name, false);
        if (fresh) c->second = isCollectiveName(trace.str(s.name));
        if (!c->second) continue;
        auto step = std::upper_bound(steps.begin(), steps.end(), std::make_pair(s.start, ~std::uint32_t{0}));
        if (step == steps.begin()) continue;
        --step;
        auto [n, added] = nameIndex.try_emplace(s.name, static_cast<std::uint32_t>(out.collectiveNames.size()));
        if (added) out.collectiveNames.emplace_back(trace.str(s.name));
        out.collectives.push_back({step->second, n->second, s.start, s.dur});
    }
    std::stable_sort(out.collectives.begin(), out.collectives.end(),
                     [](const CollectiveRun& a, const CollectiveRun& b) { return a.startNs < b.startNs; });
    return out;
}

}  // namespace contend
