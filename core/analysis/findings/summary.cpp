#include "core/analysis/findings/summary.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include "core/analysis/findings/breakdown.h"

namespace contend {

std::vector<IterationStats> findIterations(const Trace& trace) {
    std::map<std::uint32_t, IterationStats> byIndex;
    std::uint32_t order = 0;
    const auto& slices = trace.slices();
    for (const Slice& s : slices) {
        if (!s.is(kSliceStep)) continue;
        std::string_view name = trace.str(s.name);
        std::uint32_t n = order;
        const auto hash = name.find('#');
        if (hash != std::string_view::npos) {
            std::uint32_t v = 0;
            auto [p, ec] = std::from_chars(name.data() + hash + 1, name.data() + name.size(), v);
            if (ec == std::errc()) n = v;
        }
        ++order;
        auto [it, added] = byIndex.emplace(n, IterationStats{});
        IterationStats& st = it->second;
        if (added) {
            st.index = n;
            st.start = s.start;
            st.end = s.end();
        } else {
            st.start = std::min(st.start, s.start);
            st.end = std::max(st.end, s.end());
        }
    }
    std::vector<IterationStats> out;
    out.reserve(byIndex.size());
    for (auto& [n, st] : byIndex) out.push_back(st);
    std::sort(out.begin(), out.end(),
              [](const IterationStats& a, const IterationStats& b) { return a.start < b.start; });
    return out;
}

std::vector<std::uint32_t> iterationOfOps(const Trace& trace, const OperatorSet& ops,
                                          const std::vector<IterationStats>& iterations) {
    std::vector<std::uint32_t> out(ops.size(), kNone);
    if (iterations.empty()) return out;
    const auto& slices = trace.slices();
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        const std::uint32_t sl = ops.slices[op];
        const std::uint32_t launch = trace.infos()[sl].launch;
        const TimeNs t = launch != kNone ? slices[launch].start : slices[sl].start;
        // Last iteration starting at or before t; device work may run past the host step's
        // end, so the op stays with it until the next step begins.
        auto it = std::upper_bound(iterations.begin(), iterations.end(), t,
                                   [](TimeNs v, const IterationStats& s) { return v < s.start; });
        if (it == iterations.begin()) continue;
        out[op] = static_cast<std::uint32_t>(it - iterations.begin()) - 1;
    }
    return out;
}

std::vector<TrackStats> baseTrackStats(const Trace& trace, const OperatorSet& ops) {
    std::vector<TrackStats> out;
    std::unordered_map<std::uint32_t, std::size_t> index;
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        const Slice& s = trace.slices()[ops.slices[op]];
        auto [it, added] = index.try_emplace(s.track, out.size());  // no node made for a known track
        if (added) {
            const Track& tr = trace.tracks()[s.track];
            TrackStats ts;
            ts.track = s.track;
            ts.pid = tr.pid;
            ts.tid = tr.tid;
            ts.label = tr.label();
            out.push_back(std::move(ts));
        }
        out[it->second].operators++;
        out[it->second].busyNs += s.dur;
    }
    return out;
}

std::vector<SignatureStats> baseSignatureStats(const OperatorSet& ops, const BaselineResult& base,
                                               const std::vector<Breakdown>& signatureBreakdowns) {
    std::vector<SignatureStats> out(ops.signatures.size());
    for (std::uint32_t s = 0; s < out.size(); ++s) {
        const SignatureBaseline& b = base.signatures[s];
        SignatureStats& st = out[s];
        st.id = s;
        st.signature = ops.signatures[s].text;
        st.name = std::string(ops.signatures[s].text.substr(0, ops.signatures[s].text.find(" [")));
        st.opType = ops.signatures[s].opType;
        st.count = b.count;
        st.totalNs = b.totalNs;
        st.baselineNs = b.baselineNs;
        st.p50Ns = b.p50Ns;
        st.p95Ns = b.p95Ns;
        st.maxNs = b.maxNs;
        st.meanNs = b.meanNs;
        st.baselineFromSolo = b.rule == BaselineRule::Contrast;
        st.baselineRule = baselineRuleName(b.rule);
        st.breakdown = signatureBreakdowns[s];
    }
    return out;
}

namespace {
Resource argmax(const std::array<TimeNs, kResourceCount>& a) {
    std::size_t best = kResourceCount;
    for (std::size_t i = 0; i < kResourceCount; ++i)
        if (a[i] > 0 && (best == kResourceCount || a[i] > a[best])) best = i;
    return best == kResourceCount ? Resource::None : static_cast<Resource>(best);
}
}  // namespace

void summarise(Report& report, const Trace& trace, const std::vector<std::uint32_t>& iterationOfAnomaly,
               const PatternCostIndex* costs) {
    const std::size_t sigs = report.operators.size();
    std::vector<std::array<TimeNs, kResourceCount>> sigCause(sigs);
    for (auto& st : report.operators) {
        st.anomalies = 0;
        st.extraWaitNs = 0;
        st.dominantCause = Resource::None;
    }
    for (auto& it : report.iterations) {
        it.anomalies = 0;
        it.extraWaitNs = 0;
    }
    ReportSummary& sum = report.summary;
    sum = ReportSummary{};
    sum.endToEndNs = trace.span();
    sum.anomalies = report.anomalies.size();
    sum.clusters = report.clusters.size();
    for (const SignatureStats& st : report.operators) sum.operatorTimeNs += st.totalNs;
    // What the bottleneck is judged on: extra wait whose cause is measured or estimated.
    std::array<TimeNs, kResourceCount> explained{};

    // Threads: rows by track, for the anomalies below (a flat array, not a hash look-up per
    // anomaly: this loop runs over hundreds of thousands of them on every slider step).
    std::uint32_t maxTrack = 0;
    for (const TrackStats& th : report.threads) maxTrack = std::max(maxTrack, th.track);
    std::vector<std::uint32_t> threadOf(report.threads.empty() ? 0 : std::size_t{maxTrack} + 1, kNone);
    for (std::size_t i = 0; i < report.threads.size(); ++i) {
        report.threads[i].anomalies = 0;
        report.threads[i].extraWaitNs = 0;
        threadOf[report.threads[i].track] = static_cast<std::uint32_t>(i);
    }

    // The compact fields only (anomaly_list.h): a summary must not build every Anomaly.
    const AnomalyList& list = report.anomalies;
    for (std::size_t k = 0; k < list.size(); ++k) {
        const TimeNs extra = std::max<TimeNs>(0, list.excessNs(k));
        const std::uint32_t sig = list.signature(k);
        const Resource cause = list.cause(k);
        SignatureStats& st = report.operators[sig];
        st.anomalies++;
        st.extraWaitNs += extra;
        sigCause[sig][static_cast<std::size_t>(cause)] += std::max<TimeNs>(1, extra);
        sum.extraWaitNs += extra;
        sum.anomalyWaitNs += extra;
        sum.extraWaitByResource[static_cast<std::size_t>(cause)] += extra;
        if (list.provenance(k) != Provenance::Unknown && cause != Resource::Unknown) {
            explained[static_cast<std::size_t>(cause)] += extra;
            sum.explainedWaitNs += extra;
        }
        const std::uint32_t iter = k < iterationOfAnomaly.size() ? iterationOfAnomaly[k] : kNone;
        if (iter != kNone && iter < report.iterations.size()) {
            IterationStats& it = report.iterations[iter];
            it.anomalies++;
            it.extraWaitNs += extra;
        }
        const std::uint32_t track = list.track(k);
        const std::uint32_t th = track < threadOf.size() ? threadOf[track] : kNone;
        if (th != kNone) {
            report.threads[th].anomalies++;
            report.threads[th].extraWaitNs += extra;
        }
    }
    for (const Cluster& c : report.clusters) {
        sum.extraWaitNs += c.savingNs;
        sum.clusterWaitNs += c.savingNs;
        sum.extraWaitByResource[static_cast<std::size_t>(Resource::Sync)] += c.savingNs;
        // Gaps filled by sync calls or wait tasks are evidence-backed; bare gaps are not.
        if (c.provenance == Provenance::Measured) {
            explained[static_cast<std::size_t>(Resource::Sync)] += c.savingNs;
            sum.explainedWaitNs += c.savingNs;
        }
    }
    // Contention patterns: the cost of their counted runs that are not anomalies (each run
    // counted in one pattern, patterns.h), by the pattern's cause, and where it was paid: each
    // such run's iteration (by its start) and thread (its track), as an anomaly's excess is (the
    // anomaly counts stay the anomalies'). With the prepared analysis's index (pattern_costs.h)
    // only the runs on the short side of each pattern's flagged line are read; without it (a
    // caller with no index) every run, through its shared buffer (view(): a non-const walk
    // would copy it, shared_vector.h).
    std::vector<TimeNs> unflagged(report.patterns.size(), 0);
    if (costs && costs->patterns() == report.patterns.size() && costs->iterations == report.iterations.size()) {
        std::vector<TimeNs> iterationExtra(report.iterations.size(), 0), trackExtra(costs->trackTotal.size(), 0);
        unflaggedPatternCosts(*costs, report.patterns, unflagged, iterationExtra, trackExtra);
        for (std::size_t i = 0; i < iterationExtra.size(); ++i) report.iterations[i].extraWaitNs += iterationExtra[i];
        for (std::size_t track = 0; track < trackExtra.size(); ++track) {
            const std::uint32_t th = track < threadOf.size() ? threadOf[track] : kNone;
            if (th != kNone) report.threads[th].extraWaitNs += trackExtra[track];
        }
    } else {
        for (std::size_t p = 0; p < report.patterns.size(); ++p) {
            const ContentionPattern& pat = report.patterns[p];
            for (const PatternRun& run : pat.runs.view()) {
                if (!run.counted || pat.flagged(run) || run.excessNs <= 0) continue;
                unflagged[p] += run.excessNs;
                const std::uint32_t it = patternRunIteration(report.iterations, run.startNs);
                if (it != kNone) report.iterations[it].extraWaitNs += run.excessNs;
                const std::uint32_t track = patternRunTrack(run, trace);
                const std::uint32_t th = track < threadOf.size() ? threadOf[track] : kNone;
                if (th != kNone) report.threads[th].extraWaitNs += run.excessNs;
            }
        }
    }
    for (std::size_t p = 0; p < report.patterns.size(); ++p) {
        ContentionPattern& pat = report.patterns[p];
        const TimeNs extra = unflagged[p];
        pat.unflaggedCostNs = extra;
        if (extra <= 0) continue;
        sum.extraWaitNs += extra;
        sum.patternWaitNs += extra;
        sum.extraWaitByResource[static_cast<std::size_t>(pat.cause)] += extra;
        if (pat.provenance != Provenance::Unknown && pat.cause != Resource::Unknown) {
            explained[static_cast<std::size_t>(pat.cause)] += extra;
            sum.explainedWaitNs += extra;
        }
        if (pat.signature < sigs) {
            report.operators[pat.signature].extraWaitNs += extra;
            sigCause[pat.signature][static_cast<std::size_t>(pat.cause)] += extra;
        }
    }
    for (std::size_t s = 0; s < sigs; ++s) report.operators[s].dominantCause = argmax(sigCause[s]);
    // Only evidence-backed causes can be the bottleneck: "unknown" is not a resource.
    sum.bottleneck = argmax(explained);
    sum.bottleneckShare = sum.explainedWaitNs > 0 && sum.bottleneck != Resource::None
                              ? static_cast<double>(explained[static_cast<std::size_t>(sum.bottleneck)]) /
                                    static_cast<double>(sum.explainedWaitNs)
                              : 0.0;

    // Types: sums over signatures, dominant cause by extra wait.
    std::map<std::string, std::size_t> typeIndex;
    std::vector<std::array<TimeNs, kResourceCount>> typeCause;
    report.types.clear();
    for (std::size_t s = 0; s < sigs; ++s) {
        const SignatureStats& st = report.operators[s];
        auto [it, added] = typeIndex.emplace(st.opType, report.types.size());
        if (added) {
            TypeStats t;
            t.type = st.opType;
            report.types.push_back(t);
            typeCause.emplace_back();
        }
        TypeStats& t = report.types[it->second];
        t.count += st.count;
        t.totalNs += st.totalNs;
        t.anomalies += st.anomalies;
        t.extraWaitNs += st.extraWaitNs;
        for (std::size_t r = 0; r < kResourceCount; ++r) typeCause[it->second][r] += sigCause[s][r];
    }
    for (std::size_t i = 0; i < report.types.size(); ++i) report.types[i].dominantCause = argmax(typeCause[i]);
    std::sort(report.types.begin(), report.types.end(), [](const TypeStats& a, const TypeStats& b) {
        return a.extraWaitNs != b.extraWaitNs ? a.extraWaitNs > b.extraWaitNs : a.totalNs > b.totalNs;
    });
}

}  // namespace contend
