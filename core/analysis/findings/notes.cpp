#include "core/analysis/findings/notes.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/trace/conventions.h"
#include "core/trace/time_format.h"

namespace contend {

std::vector<std::uint32_t> cutIterations(const OperatorSet& ops, const std::vector<IterationStats>& iterations,
                                         const std::vector<std::uint32_t>& iterationOfOp) {
    std::vector<std::uint32_t> cut;
    const std::size_t n = iterations.size();
    if (n < kMinSteps) return cut;
    std::vector<std::uint64_t> count(n, 0);
    for (std::uint32_t op = 0; op < ops.size(); ++op)
        if (iterationOfOp[op] != kNone) ++count[iterationOfOp[op]];
    std::vector<std::uint64_t> middle(count.begin() + 1, count.end() - 1);
    std::nth_element(middle.begin(), middle.begin() + static_cast<std::ptrdiff_t>(middle.size() / 2), middle.end());
    const double usual = static_cast<double>(middle[middle.size() / 2]);
    if (usual <= 0) return cut;
    if (static_cast<double>(count.front()) < kCutShare * usual) cut.push_back(0);
    if (static_cast<double>(count.back()) < kCutShare * usual) cut.push_back(static_cast<std::uint32_t>(n - 1));
    return cut;
}

namespace {

std::string pct(double f) { return std::to_string(static_cast<int>(std::lround(100.0 * f))) + "%"; }

}  // namespace

std::vector<ReportNote> dataNotes(const NoteInputs& in) {
    std::vector<ReportNote> out;
    const OperatorSet& ops = in.ops;
    const Trace& t = in.trace;
    if (ops.size() == 0) return out;
    TimeNs total = 0;
    for (const auto& b : in.base.signatures) total += b.totalNs;
    if (!ops.deviceScope) {
        out.push_back(
            {"host-scope", "The trace has no device operators (" + std::to_string(ops.size()) +
                               " host slices): contention on a device cannot be told from it, and what a host "
                               "function takes depends on what it calls, so no slice is scored. Per-name statistics "
                               "and sync clusters are shown."});
        return out;
    }
    if (!in.timelines.any()) {
        out.push_back({"no-counters",
                       "No hardware counters in the trace: causes are estimated from which partners go with each "
                       "operator's slow runs and from what each operator leans on (kernel name, args); none is "
                       "measured."});
    }
    if (!in.coarse.empty()) {
        std::string list;
        for (std::size_t k = 0; k < in.coarse.size(); ++k) list += (k ? "; " : "") + in.coarse[k];
        out.push_back(
            {"coarse-counters", std::string(in.coarse.size() == 1 ? "A counter is" : "Counters are") +
                                    " too coarse for the operators: " + list +
                                    ". Shown in the views, they neither drive nor veto an operator's verdict, "
                                    "so causes are estimated as without counters."});
    }
    if (!t.source().gaps.devicePeaks.empty() && t.source().devices.empty()) {
        std::size_t copies = 0;
        for (std::uint32_t op = 0; op < ops.size(); ++op) {
            const Slice& s = t.slices()[ops.slices[op]];
            const std::string_view name = t.str(s.name);
            if (s.is(kSliceMemory) && (name.rfind("Memcpy DtoD", 0) == 0 || name.rfind("Memset", 0) == 0)) ++copies;
        }
        if (copies > 0)
            out.push_back({"no-device-peaks",
                           "The export states no device peaks (" + t.source().gaps.devicePeaks + "): the " +
                               std::to_string(copies) +
                               " device-to-device copies and memsets are not set against the memory bandwidth, "
                               "so their own use of it is not measured (their character comes from their sizes)."});
    }
    const std::size_t steps = in.iterations.size();
    if (steps == 0) {
        out.push_back({"no-steps",
                       "No ProfilerStep markers: iterations are unknown, so per-step views are empty and "
                       "a capture cut mid-step cannot be detected."});
    } else if (steps < kMinSteps) {
        out.push_back({"few-steps", "Only " + std::to_string(steps) + " profiler step" + (steps == 1 ? "" : "s") +
                                        " captured: an operator that runs once per step has too few runs for a "
                                        "baseline. Capture at least 5 (better 10) steps, or analyse several "
                                        "captures of the same workload together."});
    }
    for (std::uint32_t it : in.cut) {
        std::uint64_t n = 0;
        for (std::uint32_t op = 0; op < ops.size(); ++op) n += in.iterationOfOp[op] == it;
        out.push_back({"cut-steps", std::string("Step #") + std::to_string(in.iterations[it].index) + " (the " +
                                        (it == 0 ? "first" : "last") + " captured) holds only " + std::to_string(n) +
                                        " operators, fewer than the other steps: the capture cut it. Its operators "
                                        "are kept out of the baselines."});
    }
    // Signatures too rare to judge.
    std::size_t few = 0;
    TimeNs fewTime = 0;
    std::uint32_t fewMin = 0;
    std::unordered_map<StringId, std::pair<std::uint32_t, std::uint32_t>> perName;  // name -> (signatures, rare ones)
    std::vector<std::uint32_t> always, wide;
    const bool resolving = in.analysisTimelines.any();
    for (std::size_t s = 0; s < in.base.signatures.size(); ++s) {
        const SignatureBaseline& b = in.base.signatures[s];
        const bool rare = b.rule == BaselineRule::Few || b.rule == BaselineRule::Single;
        if (rare) {
            ++few;
            fewTime += b.totalNs;
            fewMin = fewMin == 0 ? b.count : std::min(fewMin, b.count);
        }
        auto& pn = perName[ops.signatures[s].name];
        pn.first++;
        pn.second += rare;
        const SignatureExposure& se = in.exposure.signatures[s];
        if (b.rule == BaselineRule::All && se.alwaysWith != kNone && se.significant == 0 && b.count >= 2 * kMinGroup)
            always.push_back(static_cast<std::uint32_t>(s));
        if (b.rule == BaselineRule::All && b.count >= kTailMin && b.baselineNs > 0 &&
            static_cast<double>(b.scaleNs) > kWideSpread * static_cast<double>(b.baselineNs))
            wide.push_back(static_cast<std::uint32_t>(s));
    }
    if (few > 0) {
        std::string text = std::to_string(few) + " signature" + (few == 1 ? "" : "s") + " (" +
                           pct(total > 0 ? static_cast<double>(fewTime) / static_cast<double>(total) : 0) +
                           " of operator time) ran fewer than " + std::to_string(kMinForMad) +
                           " times and are not judged: too few runs to tell a slow one from an ordinary one.";
        if (steps > 0 && fewMin > 0) {
            // The rarest of them, at the rate this capture shows it per step.
            const double perStep = static_cast<double>(fewMin) / static_cast<double>(steps);
            const auto need = static_cast<long>(std::ceil(static_cast<double>(kMinForMad) / perStep));
            if (need > static_cast<long>(steps) && need <= 1000)
                text += " About " + std::to_string(need) + " steps would give each of them " +
                        std::to_string(kMinForMad) + " runs.";
        }
        out.push_back({"few-runs", text});
    }
    std::vector<std::pair<std::uint32_t, StringId>> dyn;
    for (const auto& [name, c] : perName)
        if (c.first >= kDynamicShapes && c.second * 2 >= c.first) dyn.push_back({c.first, name});
    std::sort(dyn.begin(), dyn.end(),
              [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    if (!dyn.empty()) {
        std::string text = "Dynamic shapes: ";
        for (std::size_t k = 0; k < std::min<std::size_t>(3, dyn.size()); ++k)
            text +=
                (k ? ", " : "") + shortName(t.str(dyn[k].second)) + " in " + std::to_string(dyn[k].first) + " shapes";
        if (dyn.size() > 3) text += " and " + std::to_string(dyn.size() - 3) + " more names";
        text += ". Each shape is a signature of its own, and most have too few runs to judge.";
        out.push_back({"dynamic-shapes", text});
    }
    auto listSigs = [&](const std::vector<std::uint32_t>& v) {
        std::vector<std::uint32_t> sorted(v);
        std::sort(sorted.begin(), sorted.end(), [&](std::uint32_t a, std::uint32_t b) {
            return in.base.signatures[a].totalNs > in.base.signatures[b].totalNs;
        });
        std::string s;
        for (std::size_t k = 0; k < std::min<std::size_t>(3, sorted.size()); ++k)
            s += (k ? ", " : "") + shortName(t.str(ops.signatures[sorted[k]].name));
        if (sorted.size() > 3) s += " and " + std::to_string(sorted.size() - 3) + " more";
        return s;
    };
    // A file the reader knows to lack input shapes (an Ascend trace_view.json opened on its own:
    // they are in its folder's CSVs, Source::gaps): every call of an operator shares one baseline
    // whatever its size. Say so, with the widest signature as the example, and what to open.
    if (const Source::Gaps& gaps = t.source().gaps; !gaps.shapes.empty()) {
        bool anyShape = false;
        std::uint32_t widest = kNone;
        double widestRatio = 0;
        TimeNs wMin = 0, wMax = 0;
        for (std::size_t s = 0; s < ops.signatures.size() && !anyShape; ++s) {
            const SignatureKey& key = ops.signatures[s];
            if (key.shape != 0 || key.inputs != 0) {
                anyShape = true;
                break;
            }
            if (ops.sigBegin[s + 1] - ops.sigBegin[s] < kTailMin) continue;
            TimeNs lo = kTimeMax, hi = 0;
            for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k) {
                const TimeNs d = t.slices()[ops.slices[ops.sigOps[k]]].dur;
                lo = std::min(lo, d);
                hi = std::max(hi, d);
            }
            const double ratio = static_cast<double>(hi) / static_cast<double>(std::max<TimeNs>(1, lo));
            if (ratio > widestRatio) {
                widestRatio = ratio;
                widest = static_cast<std::uint32_t>(s);
                wMin = lo;
                wMax = hi;
            }
        }
        if (!anyShape && !ops.signatures.empty()) {
            std::string text = "The operators carry no input shapes (" + gaps.shapes +
                               "), so calls of one operator with different shapes share one baseline";
            if (widest != kNone && widestRatio >= 4)
                text += " (" + shortName(t.str(ops.signatures[widest].name)) + " runs from " + formatDuration(wMin) +
                        " to " + formatDuration(wMax) + ")";
            text += gaps.shapesRemedy.empty() ? "." : ". " + gaps.shapesRemedy;
            out.push_back({"no-shapes", text});
        }
    }
    if (!always.empty())
        out.push_back({"always-beside", std::to_string(always.size()) + " signature" + (always.size() == 1 ? "" : "s") +
                                            " ran beside the same partner in (nearly) every run (" + listSigs(always) +
                                            "): with no run apart to compare with, " +
                                            (resolving ? std::string("only the counters speak for them, and they show "
                                                                     "no resource oversubscribed; a lock or other "
                                                                     "hidden wait between them would not be seen.")
                                                       : std::string("contention between them cannot be shown from "
                                                                     "this capture. A capture where they run apart, "
                                                                     "or counters, would tell."))});
    if (!wide.empty())
        out.push_back({"wide-spread",
                       std::to_string(wide.size()) + " signature" + (wide.size() == 1 ? "" : "s") +
                           (wide.size() == 1 ? " varies" : " vary") + " by more than " + pct(kWideSpread) +
                           " from run to run with no partner or counter going with their slow runs (" + listSigs(wide) +
                           "): data-dependent work, taken as their natural spread; only runs far "
                           "outside it are flagged."});
    return out;
}

}  // namespace contend
