#include "core/analysis/compare/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "core/trace/time_format.h"

namespace contend {

namespace {

// Position of a time in its run: the iteration that holds it and the offset from its start.
RunPlace placeOf(const Report& r, TimeNs t) {
    RunPlace p;
    const auto& its = r.iterations;
    for (std::size_t i = 0; i < its.size(); ++i) {
        if (t >= its[i].start && t < its[i].end) {
            p.iteration = static_cast<int>(i);
            p.offsetNs = t - its[i].start;
            return p;
        }
    }
    TimeNs origin = r.trace.spanNs > 0 ? kTimeMax : 0;
    for (const auto& a : r.anomalies) origin = std::min(origin, a.startNs);
    for (const auto& w : r.windows) origin = std::min(origin, w.start);
    for (const auto& c : r.clusters) origin = std::min(origin, c.start);
    if (origin == kTimeMax) origin = 0;
    p.offsetNs = t - origin;
    return p;
}

std::string signatureOf(const Report& r, const Anomaly& a) {
    if (a.signature < r.operators.size()) return r.operators[a.signature].signature;
    return a.name;
}

std::string windowOps(const ContentionWindow& w) {
    std::set<std::string> names;
    for (const auto& op : w.ops) names.insert(op.name);
    std::string s;
    for (const auto& n : names) {
        if (!s.empty()) s += " + ";
        s += n;
    }
    return s;
}

// Matches items of the two runs that share a key and an iteration, nearest offset first.
// Items are (key, place); returns pairs of indices (-1 for unmatched).
struct Keyed {
    std::string key;
    RunPlace place;
};
std::vector<std::pair<int, int>> matchItems(const std::vector<Keyed>& a, const std::vector<Keyed>& b) {
    std::map<std::pair<std::string, int>, std::vector<int>> byKeyB;
    for (int j = 0; j < static_cast<int>(b.size()); ++j) byKeyB[{b[j].key, b[j].place.iteration}].push_back(j);
    // Candidate pairs sorted by offset distance; greedy assignment.
    struct Cand {
        TimeNs dist;
        int i, j;
    };
    std::vector<Cand> cands;
    for (int i = 0; i < static_cast<int>(a.size()); ++i) {
        auto it = byKeyB.find({a[i].key, a[i].place.iteration});
        if (it == byKeyB.end()) continue;
        for (int j : it->second) cands.push_back({std::llabs(a[i].place.offsetNs - b[j].place.offsetNs), i, j});
    }
    std::sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) {
        if (x.dist != y.dist) return x.dist < y.dist;
        if (x.i != y.i) return x.i < y.i;
        return x.j < y.j;
    });
    std::vector<int> matchA(a.size(), -1), matchB(b.size(), -1);
    for (const Cand& c : cands) {
        if (matchA[c.i] != -1 || matchB[c.j] != -1) continue;
        matchA[c.i] = c.j;
        matchB[c.j] = c.i;
    }
    std::vector<std::pair<int, int>> out;
    out.reserve(a.size());
    for (int i = 0; i < static_cast<int>(a.size()); ++i) out.emplace_back(i, matchA[i]);
    for (int j = 0; j < static_cast<int>(b.size()); ++j)
        if (matchB[j] == -1) out.emplace_back(-1, j);
    return out;
}

template <typename Diff>
void partitionInto(Partition<Diff>& part, Diff d) {
    if (d.inBase && d.inNew)
        part.persisting.push_back(std::move(d));
    else if (d.inBase)
        part.resolved.push_back(std::move(d));
    else
        part.added.push_back(std::move(d));
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", share * 100.0);
    return buf;
}

std::string signedPercent(double change) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", change * 100.0);
    return buf;
}

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string verdictOf(const CompareResult& r) {
    std::vector<std::string> good, bad;
    // Resources whose windows went away or grew.
    std::array<int, kResourceCount> wBase{}, wNew{};
    for (const auto& w : r.windows.resolved) wBase[static_cast<std::size_t>(w.resource)]++;
    for (const auto& w : r.windows.persisting) {
        wBase[static_cast<std::size_t>(w.resource)]++;
        wNew[static_cast<std::size_t>(w.resource)]++;
    }
    for (const auto& w : r.windows.added) wNew[static_cast<std::size_t>(w.resource)]++;
    for (std::size_t k = 0; k < kResourceCount; ++k) {
        const char* res = resourceName(static_cast<Resource>(k));
        if (wBase[k] > 0 && wNew[k] == 0)
            good.push_back(std::string("removed the ") + res + " windows (" + std::to_string(wBase[k]) + " -> 0)");
        else if (wNew[k] > wBase[k])
            bad.push_back(std::string(res) + " windows grew (" + std::to_string(wBase[k]) + " -> " +
                          std::to_string(wNew[k]) + ")");
    }
    if (!r.clusters.resolved.empty() && r.clusters.added.empty() && r.clusters.persisting.empty())
        good.push_back("removed the sync clusters (" + std::to_string(r.clusters.resolved.size()) + " -> 0)");
    else if (!r.clusters.added.empty())
        bad.push_back(count(r.clusters.added.size(), "new sync cluster", "new sync clusters"));
    // Extra wait that grew on a resource by a meaningful amount.
    for (std::size_t k = 0; k < kResourceCount; ++k) {
        TimeNs b = r.baseByResource[k], n = r.newByResource[k];
        if (n > b && n - b > std::max<TimeNs>(r.baseExtraWait / 10, 1000)) {
            bad.push_back(std::string(resourceName(static_cast<Resource>(k))) + " extra wait grew (" +
                          formatDuration(b) + " -> " + formatDuration(n) + ")");
        }
    }
    if (!r.anomalies.resolved.empty())
        good.push_back("resolved " + count(r.anomalies.resolved.size(), "anomaly", "anomalies"));
    if (!r.anomalies.added.empty())
        bad.push_back(count(r.anomalies.added.size(), "new anomaly", "new anomalies") + " appeared");
    std::string v;
    auto join = [](const std::vector<std::string>& xs) {
        std::string s;
        for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? (i + 1 == xs.size() ? " and " : ", ") : "") + xs[i];
        return s;
    };
    if (!good.empty()) v = "the change " + join(good);
    if (!bad.empty()) v += (v.empty() ? "but " : " but ") + join(bad);
    if (v.empty()) v = "no change in anomalies, windows or clusters";
    const BottleneckShift& bs = r.bottleneck;
    if (bs.shifted) v += "; the bottleneck moved: " + bs.text;
    if (bs.wentAway) {
        v += std::string("; the ") + resourceName(bs.baseResource) + " bottleneck went away (" +
             formatDuration(bs.baseWaitNs) + " -> " +
             formatDuration(r.newByResource[static_cast<std::size_t>(bs.baseResource)]) + " of extra wait)";
        if (bs.newResource != Resource::None && bs.newResource != bs.baseResource)
            v += std::string(": what is left is too small to be a bottleneck (") + resourceName(bs.newResource) + " " +
                 formatDuration(bs.newWaitNs) + ", under " + percent(BottleneckShift::kBottleneckFloor) +
                 " of the base's " + formatDuration(r.baseExtraWait) + " extra wait)";
    }
    v += "; end-to-end " + signedPercent(r.endToEndChange);
    return v;
}

GainCheck gainCheck(const Report& base, const Report& now, const CompareResult& r) {
    GainCheck g;
    g.available = base.whatIf.computed;
    const bool totals = base.whatIf.computed && now.whatIf.computed;
    g.baseTotalNs = totals ? base.whatIf.totalNs : base.summary.endToEndNs;
    g.newTotalNs = totals ? now.whatIf.totalNs : now.summary.endToEndNs;
    g.realisedNs = g.baseTotalNs - g.newTotalNs;
    g.newCriticalTrack = now.whatIf.criticalTrack;
    g.resolvedWindows = r.windows.resolved.size();
    g.resolvedClusters = r.clusters.resolved.size();
    g.resolvedAnomalies = r.anomalies.resolved.size();
    std::array<TimeNs, kResourceCount> resolved{};
    for (const AnomalyDiff& d : r.anomalies.resolved)
        resolved[static_cast<std::size_t>(d.base.cause)] += std::max<TimeNs>(0, d.base.excessNs);
    for (const ClusterDiff& d : r.clusters.resolved)
        resolved[static_cast<std::size_t>(Resource::Sync)] += d.base.savingNs;
    for (const ResourceGain& rg : base.whatIf.resources) {
        const std::size_t k = static_cast<std::size_t>(rg.resource);
        if (rg.extraWaitNs <= 0 || resolved[k] <= 0) continue;
        const double share = std::min(1.0, static_cast<double>(resolved[k]) / static_cast<double>(rg.extraWaitNs));
        g.predictedByResource[k] = static_cast<TimeNs>(share * static_cast<double>(rg.gainNs));
        g.predictedNs += g.predictedByResource[k];
    }
    auto iterationsOf = [totals](const Report& rep) {
        const std::size_t n = totals ? rep.whatIf.iterations : rep.iterations.size();
        return std::max<std::size_t>(1, n);
    };
    g.baseIterations = iterationsOf(base);
    g.newIterations = iterationsOf(now);
    g.predictedPerIterationNs = g.predictedNs / static_cast<TimeNs>(g.baseIterations);
    g.realisedPerIterationNs =
        g.baseTotalNs / static_cast<TimeNs>(g.baseIterations) - g.newTotalNs / static_cast<TimeNs>(g.newIterations);
    if (!g.available) return g;
    const std::size_t findings = g.resolvedWindows + g.resolvedClusters + g.resolvedAnomalies;
    const TimeNs small = static_cast<TimeNs>(kNotFasterShare * static_cast<double>(g.baseTotalNs));
    std::string what;
    if (g.resolvedWindows) what = count(g.resolvedWindows, "window", "windows");
    if (g.resolvedClusters) what += (what.empty() ? "" : ", ") + count(g.resolvedClusters, "cluster", "clusters");
    if (g.resolvedAnomalies) what += (what.empty() ? "" : ", ") + count(g.resolvedAnomalies, "anomaly", "anomalies");
    const std::string where =
        g.newCriticalTrack.empty() ? std::string() : "; the new critical path runs mostly on " + g.newCriticalTrack;
    const std::string nums = "predicted " + formatDuration(g.predictedNs) + ", realised " +
                             (g.realisedNs < 0 ? "-" + formatDuration(-g.realisedNs) : formatDuration(g.realisedNs));
    if (findings == 0) {
        g.text = "nothing of the base was resolved; end to end " +
                 (g.realisedNs < 0 ? "-" + formatDuration(-g.realisedNs) : formatDuration(g.realisedNs)) + " faster";
    } else if (g.realisedNs <= small) {
        g.notFaster = true;
        g.text = "resolved " + what + " but the run did not get faster (" + nums + ")" +
                 (g.predictedNs <= small ? ": as the base predicted, they were off the critical path" + where
                                         : ": the cost moved" + where);
    } else {
        g.text = "resolved " + what + ": " + nums + where;
    }
    return g;
}

}  // namespace

const char* opChangeSymbol(OpChange c) {
    switch (c) {
    case OpChange::Faster: return "-";
    case OpChange::Slower: return "+";
    case OpChange::Same: return "=";
    case OpChange::New: return "new";
    case OpChange::Gone: return "gone";
    }
    return "=";
}

CompareResult compareReports(const Report& base, const Report& now, const CompareSettings& settings) {
    CompareResult r;
    r.basePath = base.trace.path;
    r.newPath = now.trace.path;
    r.baseEndToEnd = base.summary.endToEndNs;
    r.newEndToEnd = now.summary.endToEndNs;
    r.endToEndChange =
        r.baseEndToEnd > 0 ? static_cast<double>(r.newEndToEnd) / static_cast<double>(r.baseEndToEnd) - 1.0 : 0.0;
    r.baseExtraWait = base.summary.extraWaitNs;
    r.newExtraWait = now.summary.extraWaitNs;
    r.baseByResource = base.summary.extraWaitByResource;
    r.newByResource = now.summary.extraWaitByResource;

    // Anomalies.
    {
        std::vector<Keyed> a, b;
        for (const auto& x : base.anomalies) a.push_back({signatureOf(base, x), placeOf(base, x.startNs)});
        for (const auto& x : now.anomalies) b.push_back({signatureOf(now, x), placeOf(now, x.startNs)});
        for (auto [i, j] : matchItems(a, b)) {
            AnomalyDiff d;
            if (i >= 0) {
                d.inBase = true;
                d.base = base.anomalies[static_cast<std::size_t>(i)];
                d.signature = a[static_cast<std::size_t>(i)].key;
                d.place = a[static_cast<std::size_t>(i)].place;
                d.name = d.base.name;
            }
            if (j >= 0) {
                d.inNew = true;
                d.now = now.anomalies[static_cast<std::size_t>(j)];
                if (i < 0) {
                    d.signature = b[static_cast<std::size_t>(j)].key;
                    d.place = b[static_cast<std::size_t>(j)].place;
                    d.name = d.now.name;
                }
            }
            if (d.inBase && d.inNew) d.scoreChange = d.now.score - d.base.score;
            partitionInto(r.anomalies, std::move(d));
        }
    }
    // Windows.
    {
        std::vector<Keyed> a, b;
        for (const auto& w : base.windows)
            a.push_back({std::string(resourceName(w.resource)) + "|" + windowOps(w), placeOf(base, w.start)});
        for (const auto& w : now.windows)
            b.push_back({std::string(resourceName(w.resource)) + "|" + windowOps(w), placeOf(now, w.start)});
        for (auto [i, j] : matchItems(a, b)) {
            WindowDiff d;
            const ContentionWindow& w =
                i >= 0 ? base.windows[static_cast<std::size_t>(i)] : now.windows[static_cast<std::size_t>(j)];
            d.resource = w.resource;
            d.ops = windowOps(w);
            d.place = i >= 0 ? a[static_cast<std::size_t>(i)].place : b[static_cast<std::size_t>(j)].place;
            if (i >= 0) {
                d.inBase = true;
                d.base = base.windows[static_cast<std::size_t>(i)];
            }
            if (j >= 0) {
                d.inNew = true;
                d.now = now.windows[static_cast<std::size_t>(j)];
            }
            partitionInto(r.windows, std::move(d));
        }
    }
    // Clusters: by stream and iteration; the operators inside change when a fix fuses them.
    {
        std::vector<Keyed> a, b;
        for (const auto& c : base.clusters) a.push_back({c.tid, placeOf(base, c.start)});
        for (const auto& c : now.clusters) b.push_back({c.tid, placeOf(now, c.start)});
        for (auto [i, j] : matchItems(a, b)) {
            ClusterDiff d;
            d.tid = i >= 0 ? a[static_cast<std::size_t>(i)].key : b[static_cast<std::size_t>(j)].key;
            d.place = i >= 0 ? a[static_cast<std::size_t>(i)].place : b[static_cast<std::size_t>(j)].place;
            if (i >= 0) {
                d.inBase = true;
                d.base = base.clusters[static_cast<std::size_t>(i)];
            }
            if (j >= 0) {
                d.inNew = true;
                d.now = now.clusters[static_cast<std::size_t>(j)];
            }
            partitionInto(r.clusters, std::move(d));
        }
    }
    // Contention patterns: by victim and partner (a pattern has no place: it is over the run).
    {
        std::map<std::pair<std::string, std::string>, PatternDiff> byKey;
        // Each side keeps its costliest run only (where a viewer shows the pattern), not all.
        auto side = [](const ContentionPattern& p) {
            ContentionPattern s = p;
            s.runs.clear();
            const auto worst =
                std::max_element(p.runs.begin(), p.runs.end(),
                                 [](const PatternRun& a, const PatternRun& b) { return a.excessNs < b.excessNs; });
            if (worst != p.runs.end()) s.runs.push_back(*worst);
            return s;
        };
        for (const ContentionPattern& p : base.patterns) {
            PatternDiff& d = byKey[{p.victim, p.partner}];
            d.victim = p.victim;
            d.partner = p.partner;
            d.inBase = true;
            d.base = side(p);
        }
        for (const ContentionPattern& p : now.patterns) {
            PatternDiff& d = byKey[{p.victim, p.partner}];
            d.victim = p.victim;
            d.partner = p.partner;
            d.inNew = true;
            d.now = side(p);
        }
        for (auto& [key, d] : byKey) partitionInto(r.patterns, std::move(d));
        // Costliest first on each side of the partition.
        auto costOf = [](const PatternDiff& d) { return std::max(d.base.costNs, d.now.costNs); };
        for (auto* v : {&r.patterns.resolved, &r.patterns.persisting, &r.patterns.added})
            std::stable_sort(v->begin(), v->end(),
                             [&](const PatternDiff& a, const PatternDiff& b) { return costOf(a) > costOf(b); });
    }
    // Operators by signature.
    {
        std::map<std::string, OperatorDiff> bySig;
        for (const auto& s : base.operators) {
            auto& d = bySig[s.signature];
            d.signature = s.signature;
            d.name = s.name;
            d.inBase = true;
            d.base = s;
        }
        for (const auto& s : now.operators) {
            auto& d = bySig[s.signature];
            d.signature = s.signature;
            d.name = s.name;
            d.inNew = true;
            d.now = s;
        }
        for (auto& [sig, d] : bySig) {
            if (d.inBase && d.inNew) {
                double mb =
                    d.base.meanNs > 0
                        ? d.base.meanNs
                        : (d.base.count ? static_cast<double>(d.base.totalNs) / static_cast<double>(d.base.count)
                                        : 0.0);
                double mn =
                    d.now.meanNs > 0
                        ? d.now.meanNs
                        : (d.now.count ? static_cast<double>(d.now.totalNs) / static_cast<double>(d.now.count) : 0.0);
                d.meanChange = mb > 0 ? mn / mb - 1.0 : 0.0;
                if (d.meanChange > settings.operatorTolerance)
                    d.change = OpChange::Slower;
                else if (d.meanChange < -settings.operatorTolerance)
                    d.change = OpChange::Faster;
                else
                    d.change = OpChange::Same;
            } else {
                d.change = d.inBase ? OpChange::Gone : OpChange::New;
            }
            r.operators.push_back(std::move(d));
        }
        std::stable_sort(r.operators.begin(), r.operators.end(), [](const OperatorDiff& x, const OperatorDiff& y) {
            auto delta = [](const OperatorDiff& d) {
                return std::llabs((d.inNew ? d.now.totalNs : 0) - (d.inBase ? d.base.totalNs : 0));
            };
            return delta(x) > delta(y);
        });
    }
    // Bottleneck shift.
    BottleneckShift& bs = r.bottleneck;
    bs.baseResource = base.summary.bottleneck;
    bs.baseShare = base.summary.bottleneckShare;
    bs.newResource = now.summary.bottleneck;
    bs.newShare = now.summary.bottleneckShare;
    auto waitOf = [](const std::array<TimeNs, kResourceCount>& by, Resource res) {
        return res == Resource::None ? TimeNs{0} : by[static_cast<std::size_t>(res)];
    };
    bs.baseWaitNs = waitOf(r.baseByResource, bs.baseResource);
    bs.newWaitNs = waitOf(r.newByResource, bs.newResource);
    bs.floorNs = std::max<TimeNs>(
        static_cast<TimeNs>(BottleneckShift::kBottleneckFloor * static_cast<double>(r.baseExtraWait)), 1000);
    const bool newCounts = bs.newResource != Resource::None && bs.newWaitNs >= bs.floorNs;
    bs.wentAway = bs.baseResource != Resource::None && !newCounts;
    bs.shifted = bs.baseResource != Resource::None && newCounts && bs.baseResource != bs.newResource;
    auto side = [](Resource res, TimeNs wait, double share) {
        if (res == Resource::None) return std::string("none");
        return std::string(resourceName(res)) + " " + formatDuration(wait) + " (" + percent(share) + ")";
    };
    bs.text =
        side(bs.baseResource, bs.baseWaitNs, bs.baseShare) + " -> " + side(bs.newResource, bs.newWaitNs, bs.newShare);
    if (bs.wentAway && bs.newResource != Resource::None) bs.text += ", too small to count";
    if (const ReportNote* n = partialInputNote(base.notes)) r.basePartial = n->kind + ": " + n->text;
    if (const ReportNote* n = partialInputNote(now.notes)) r.newPartial = n->kind + ": " + n->text;
    r.verdict = verdictOf(r);
    // A side that rests on a partial input is named first: a change may be only what it lacks.
    const bool basePart = !r.basePartial.empty(), newPart = !r.newPartial.empty();
    if (basePart || newPart)
        r.verdict = std::string(basePart && newPart ? "Both sides rest on partial inputs"
                                : basePart          ? "BASE rests on a partial input"
                                                    : "NEW rests on a partial input") +
                    " (" + (basePart ? r.basePartial.substr(0, r.basePartial.find(':')) : std::string()) +
                    (basePart && newPart ? ", " : "") +
                    (newPart ? r.newPartial.substr(0, r.newPartial.find(':')) : std::string()) +
                    "): the comparison may show only what it lacks; " + r.verdict;
    r.gain = gainCheck(base, now, r);
    r.breakdowns = compareBreakdowns(base.breakdowns, now.breakdowns);
    return r;
}

std::vector<std::string> regressions(const CompareResult& r, const CompareSettings& s) {
    std::vector<std::string> why;
    if (r.anomalies.added.size() > s.maxNewAnomalies)
        why.push_back(std::to_string(r.anomalies.added.size()) + " new anomalies (allowed " +
                      std::to_string(s.maxNewAnomalies) + ")");
    if (r.windows.added.size() > s.maxNewWindows)
        why.push_back(std::to_string(r.windows.added.size()) + " new contention windows (allowed " +
                      std::to_string(s.maxNewWindows) + ")");
    if (r.endToEndChange > s.endToEndTolerance)
        why.push_back("end-to-end time grew " + signedPercent(r.endToEndChange) + " (" +
                      formatDuration(r.baseEndToEnd) + " -> " + formatDuration(r.newEndToEnd) + ", tolerance " +
                      percent(s.endToEndTolerance) + ")");
    return why;
}

Trend trendOf(const std::vector<Report>& reports) {
    Trend t;
    std::map<std::string, std::vector<double>> series;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t k = 0; k < reports.size(); ++k) {
        const Report& r = reports[k];
        TrendRun run;
        run.path = r.trace.path;
        run.endToEndNs = r.summary.endToEndNs;
        run.anomalies = r.anomalies.size();
        run.windows = r.windows.size();
        run.clusters = r.clusters.size();
        run.extraWaitNs = r.summary.extraWaitNs;
        run.bottleneck = r.summary.bottleneck;
        run.bottleneckShare = r.summary.bottleneckShare;
        t.runs.push_back(run);
        for (const auto& a : r.anomalies) {
            auto& v = series[signatureOf(r, a)];
            v.resize(reports.size(), nan);
            if (std::isnan(v[k]) || a.score > v[k]) v[k] = a.score;
        }
    }
    for (auto& [sig, v] : series) {
        v.resize(reports.size(), nan);
        t.signatures.push_back({sig, v});
    }
    return t;
}

}  // namespace contend
