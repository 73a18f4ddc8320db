#include "core/analysis/breakdowns/annotations.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "core/analysis/breakdowns/hta_rules.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

namespace {

// Per slice, the innermost annotation range around it on its track (0: none); only host tracks
// that hold an annotation are walked.
std::vector<StringId> innermostAnnotation(const Trace& trace) {
    const std::vector<Slice>& slices = trace.slices();
    std::vector<StringId> out;
    std::unordered_map<StringId, bool> annotates;  // per category
    auto isAnnotation = [&](const Slice& s) {
        auto it = annotates.find(s.category);
        if (it == annotates.end())
            it = annotates.emplace(s.category, isAnnotationCategory(trace.str(s.category))).first;
        return it->second;
    };
    std::vector<std::pair<TimeNs, StringId>> open;  // (end, name) of the ranges around, innermost last
    for (const Track& track : trace.tracks()) {
        if (track.kind == TrackKind::DeviceStream) continue;
        open.clear();
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = slices[i];
            while (!open.empty() && open.back().first <= s.start) open.pop_back();
            if (!open.empty()) {
                if (out.empty()) out.assign(slices.size(), 0);
                out[i] = open.back().second;
            }
            if (isAnnotation(s) && s.dur > 0) open.emplace_back(s.end(), s.name);
        }
    }
    return out;
}

}  // namespace

BreakdownSection<AnnotationTime> annotationTime(const Trace& trace, const Scope& scope, const TimeRange& range) {
    BreakdownSection<AnnotationTime> out;
    const std::vector<StringId> around = innermostAnnotation(trace);
    std::unordered_map<StringId, AnnotationTime> byName;
    if (!around.empty()) {
        for (std::uint32_t i : scope.ops) {
            const std::uint32_t launch = scope.launchOf(i);
            if (launch == kNone || around[launch] == 0) continue;
            const Slice& s = trace.slices()[i];
            if (!range.runs(s.start, s.end())) continue;
            AnnotationTime& a = byName[around[launch]];
            ++a.kernels;
            a.kernelNs += s.dur;
        }
    }
    for (auto& [name, a] : byName) {
        a.name = std::string(trace.str(name));
        out.rows.push_back(std::move(a));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const AnnotationTime& a, const AnnotationTime& b) {
        return a.kernelNs != b.kernelNs ? a.kernelNs > b.kernelNs : a.name < b.name;
    });
    if (out.rows.empty())
        out.notComputed =
            inRange("no device operation was launched inside an annotation range (user_annotation, NVTX)", range);
    return out;
}

}  // namespace contend::breakdowns
