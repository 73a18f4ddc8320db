#include "core/analysis/whatif/whatif.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <numeric>

#include "core/common/parallel.h"

namespace contend {

namespace {

// The trace, its operators and their graph: what every helper below reads.
struct Inputs {
    const Trace& trace;
    const OperatorSet& ops;
    const DependencyGraph& graph;
};

enum class JobKind : std::uint8_t { Window, Cluster, Anomaly };

struct Job {
    JobKind kind;
    std::uint32_t index;
    TimeNs bound;  // critical time it would cut (cluster: its saving)
};

std::uint32_t nodeOfSlice(const Inputs& p, std::uint32_t slice) {
    const OperatorSet& ops = p.ops;
    if (slice >= ops.opOfSlice.size() || ops.opOfSlice[slice] == kNone) return kNone;
    return p.graph.nodeOfOp[ops.opOfSlice[slice]];
}

// Each anomaly's node (kNone: none), looked up once (anomalies are in score order, so each
// lookup is a random read): the replays below read them many times. From the compact fields
// (anomaly_list.h): the what-if runs over every anomaly and must not build each one.
std::vector<std::uint32_t> anomalyNodes(const Inputs& p, const AnomalyList& list) {
    std::vector<std::uint32_t> nodes(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) nodes[k] = nodeOfSlice(p, list.slice(k));
    return nodes;
}

void anomalyChanges(const std::vector<std::uint32_t>& nodes, const AnomalyList& list, std::size_t k,
                    std::vector<Replayer::Change>& out) {
    const std::uint32_t v = nodes[k];
    const TimeNs excess = list.excessNs(k);
    if (v != kNone && excess > 0) out.push_back({v, excess});
}

void windowChanges(const Inputs& p, const ContentionWindow& w, std::vector<Replayer::Change>& out) {
    for (const WindowOp& o : w.ops) {
        const std::uint32_t v = nodeOfSlice(p, o.slice);
        if (v != kNone && o.extraWaitNs > 0) out.push_back({v, o.extraWaitNs});
    }
}

// The cluster's operators after its first (slices of one track, in order).
void clusterFused(const Inputs& p, const Cluster& c, std::vector<std::uint32_t>& out) {
    const Trace& t = p.trace;
    if (c.track >= t.tracks().size()) return;
    const Track& tr = t.tracks()[c.track];
    const std::uint32_t lo = std::max(c.firstSlice, tr.sliceBegin), hi = std::min(c.lastSlice + 1, tr.sliceEnd);
    bool first = true;
    for (std::uint32_t sl = lo; sl < hi; ++sl) {
        const std::uint32_t v = nodeOfSlice(p, sl);
        if (v == kNone) continue;
        if (!first) out.push_back(v);
        first = false;
    }
}

TimeNs criticalCut(const DependencyGraph& g, const std::vector<Replayer::Change>& changes) {
    TimeNs cut = 0;
    for (const Replayer::Change& c : changes)
        if (g.slack[c.node] == 0) cut += c.shortenNs;
    return cut;
}

void fillPaths(const Inputs& p, const DependencyGraph& g, const std::vector<std::uint32_t>& anomalyNode, Report& r) {
    const Trace& t = p.trace;
    WhatIfSummary& w = r.whatIf;
    std::map<std::uint32_t, TimeNs> byTrack;
    for (std::size_t i = 0; i < g.iterations.size(); ++i) {
        const IterationPath& path = g.iterations[i];
        w.criticalDeviceNs += path.deviceNs;
        if (path.track != kNone) byTrack[path.track] += path.timeNs;
        if (i < r.iterations.size()) {
            r.iterations[i].criticalPathNs = path.timeNs;
            r.iterations[i].criticalTrack = path.track != kNone ? t.tracks()[path.track].label() : std::string();
        }
    }
    TimeNs best = -1;
    for (const auto& [track, ns] : byTrack)
        if (ns > best) {
            best = ns;
            w.criticalTrack = t.tracks()[track].label();
        }
    for (std::size_t k = 0; k < r.anomalies.size(); ++k) {
        const std::uint32_t v = anomalyNode[k];
        r.anomalies.setSlack(k, v != kNone ? g.slack[v] : -1);
    }
}

void fillWindowSlack(const Inputs& p, const DependencyGraph& g, Report& r) {
    for (ContentionWindow& win : r.windows.edit())
        for (WindowOp& o : win.ops) {
            const std::uint32_t v = nodeOfSlice(p, o.slice);
            o.slackNs = v != kNone ? g.slack[v] : -1;
        }
}

}  // namespace

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    // splitmix64 of the value, folded in order.
    v += 0x9e3779b97f4a7c15ULL;
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
    v ^= v >> 31;
    return (h ^ v) * 0x100000001b3ULL + (h >> 7);
}

}  // namespace

WhatIfCache::WhatIfCache(std::shared_ptr<const DependencyGraph> graph) : m_graph(std::move(graph)) {}

Replayer::Result WhatIfCache::replay(const std::vector<Replayer::Change>& changes,
                                     const std::vector<std::uint32_t>& fused) {
    // Two independent 64-bit hashes (different seeds and fold order): the map's key and a check
    // kept in the entry, so a wrong replay would need both to collide at once.
    std::uint64_t key = mix(0xcbf29ce484222325ULL, changes.size());
    std::uint64_t check = mix(0x84222325cbf29ce4ULL, fused.size());
    for (const Replayer::Change& c : changes) {
        key = mix(mix(key, c.node), static_cast<std::uint64_t>(c.shortenNs));
        check = mix(mix(check, static_cast<std::uint64_t>(c.shortenNs)), c.node);
    }
    key = mix(key, fused.size());
    check = mix(check, changes.size());
    for (std::uint32_t v : fused) {
        key = mix(key, v);
        check = mix(check, v);
    }
    const auto it = m_results.find(key);
    if (it != m_results.end() && it->second.check == check && it->second.changes == changes.size() &&
        it->second.fused == fused.size()) {
        ++m_hits;
        return it->second.result;
    }
    ++m_misses;
    if (!m_replayer) m_replayer = std::make_unique<Replayer>(*m_graph);
    const Replayer::Result out = m_replayer->run(changes, fused);
    if (m_results.size() >= kMaxEntries) m_results.clear();
    m_results[key] = {check, changes.size(), fused.size(), out};
    return out;
}

std::optional<Failure> predictGains(const Trace& trace, const OperatorSet& ops, const DependencyGraph& g, Report& r,
                                    const WhatIfSettings& settings) {
    const Inputs p{trace, ops, g};
    WhatIfSummary& w = r.whatIf;
    w = WhatIfSummary{};
    if (g.size() == 0) return std::nullopt;
    auto stopped = [&settings] { return settings.keepGoing && !settings.keepGoing(); };
    w.computed = true;
    w.totalNs = g.spanNs;
    w.iterations = g.iterations.size();
    w.nodes = g.size();
    w.edges = g.edgeCount();
    // With a cache made for this analysis, replays it already ran are looked up.
    WhatIfCache* cache = settings.cache && &settings.cache->graph() == &g ? settings.cache : nullptr;
    const std::size_t budget = settings.budgetNodes ? settings.budgetNodes : 3 * g.size() + (std::size_t{1} << 20);

    // The patterns' counted runs that are not anomalies: what the summary adds to each resource
    // beyond the anomalies (patterns.h), shortened by their excess with the anomalies.
    auto patternChanges = [&](const ContentionPattern& pat, std::vector<Replayer::Change>& out) {
        for (const PatternRun& run : pat.runs) {
            if (!run.counted || pat.flagged(run) || run.excessNs <= 0) continue;
            const std::uint32_t v = nodeOfSlice(p, run.slice);
            if (v != kNone) out.push_back({v, run.excessNs});
        }
    };
    // The replays, in the order the budget counts them: each resource as a whole, everything at
    // once, then the findings (below) by the critical time they would cut, largest first.
    std::vector<std::size_t> resourceOf;  // per resource replay, its resource
    for (std::size_t res = 0; res < kResourceCount; ++res)
        if (r.summary.extraWaitByResource[res] > 0) resourceOf.push_back(res);
    std::vector<std::uint32_t> anomalyNode;  // each anomaly's graph node (anomalyPass, below)
    std::vector<Job> anomalyJobs;
    std::size_t anomaliesOffPath = 0;
    // A resource's replay, or (t == resourceOf.size()) everything at once: the anomalies', the
    // patterns' and the clusters' changes, no window's.
    auto resourceChanges = [&](std::size_t t, std::vector<Replayer::Change>& ch, std::vector<std::uint32_t>& fu) {
        ch.clear();
        fu.clear();
        const bool all = t == resourceOf.size();
        const std::size_t res = all ? 0 : resourceOf[t];
        for (std::size_t k = 0; k < r.anomalies.size(); ++k)
            if (all || static_cast<std::size_t>(r.anomalies.cause(k)) == res)
                anomalyChanges(anomalyNode, r.anomalies, k, ch);
        for (const ContentionPattern& pat : r.patterns)
            if (all || static_cast<std::size_t>(pat.cause) == res) patternChanges(pat, ch);
        if (all || static_cast<Resource>(res) == Resource::Sync)
            for (const Cluster& c : r.clusters) clusterFused(p, c, fu);
    };
    const std::size_t firstJob = resourceOf.size() + 1;  // the findings' replays come after these
    std::unique_ptr<Replayer> own = cache ? nullptr : std::make_unique<Replayer>(g);
    auto replay = [&](Replayer* replayer, const std::vector<Replayer::Change>& ch,
                      const std::vector<std::uint32_t>& fu) {
        return replayer ? replayer->run(ch, fu) : cache->replay(ch, fu);
    };

    // The windows are built (their first full read, window_list.h) on the second core while this
    // one reads the anomalies: their nodes, slack and critical cut (anomalies are in score order:
    // a random read each). Each side touches only its own list.
    auto anomalyPass = [&] {
        anomalyNode = anomalyNodes(p, r.anomalies);
        fillPaths(p, g, anomalyNode, r);
        std::vector<Replayer::Change> changes;
        anomalyJobs.reserve(r.anomalies.size());  // at most one each; untouched room costs no pages
        for (std::uint32_t i = 0; i < r.anomalies.size(); ++i) {
            changes.clear();
            anomalyChanges(anomalyNode, r.anomalies, i, changes);
            const TimeNs cut = criticalCut(g, changes);
            if (cut > 0)
                anomalyJobs.push_back({JobKind::Anomaly, i, cut});
            else {
                r.anomalies.setGain(i, 0);
                ++anomaliesOffPath;
            }
        }
    };
    // While the windows are built beside, this core then starts on the resource replays, which
    // read no window, until the windows are done (they are always made, in the budget's order,
    // before any finding's: made here or below, the same results).
    std::vector<Replayer::Result> early;
    bool earlyStopped = false;
    std::atomic<bool> windowsBuilt{false};
    auto anomaliesThenResources = [&] {
        anomalyPass();
        std::vector<Replayer::Change> ch;
        std::vector<std::uint32_t> fu;
        const std::size_t most = std::min(firstJob, settings.resourceReplaysBeside);
        const bool untilBuilt = settings.resourceReplaysUntilWindows;
        for (std::size_t t = 0; t < most && !(untilBuilt && windowsBuilt.load(std::memory_order_acquire)); ++t) {
            if (stopped()) {
                earlyStopped = true;
                return;
            }
            resourceChanges(t, ch, fu);
            early.push_back(replay(own.get(), ch, fu));
        }
    };
    if (twoCores() && r.windows.lazy() && !r.windows.built())
        runBeside(
            [&] {
                r.windows.edit();
                windowsBuilt.store(true, std::memory_order_release);
            },
            anomaliesThenResources);
    else
        anomalyPass();
    if (earlyStopped) return Failure::cancelled();
    fillWindowSlack(p, g, r);

    // Findings: 0 off the critical path, else replayed by what they would cut, largest first.
    std::vector<Replayer::Change> changes;
    std::vector<std::uint32_t> fused;
    std::vector<Job> jobs;
    for (std::uint32_t i = 0; i < r.windows.size(); ++i) {
        changes.clear();
        windowChanges(p, r.windows[i], changes);
        const TimeNs cut = criticalCut(g, changes);
        if (cut > 0)
            jobs.push_back({JobKind::Window, i, cut});
        else {
            r.windows.edit(i).gainNs = 0;
            ++w.offPath;
        }
    }
    for (std::uint32_t i = 0; i < r.clusters.size(); ++i) jobs.push_back({JobKind::Cluster, i, r.clusters[i].savingNs});
    jobs.insert(jobs.end(), anomalyJobs.begin(), anomalyJobs.end());
    w.offPath += anomaliesOffPath;
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.bound > b.bound; });
    // Replay t's changes (reads the report only: the replays may run on two threads).
    const std::size_t tasks = firstJob + jobs.size();
    auto changesOf = [&](std::size_t t, std::vector<Replayer::Change>& ch, std::vector<std::uint32_t>& fu) {
        if (t < firstJob) return resourceChanges(t, ch, fu);  // a resource, or all at once
        ch.clear();
        fu.clear();
        const Job& job = jobs[t - firstJob];
        if (job.kind == JobKind::Window)
            windowChanges(p, r.windows[job.index], ch);
        else if (job.kind == JobKind::Cluster)
            clusterFused(p, r.clusters[job.index], fu);
        else
            anomalyChanges(anomalyNode, r.anomalies, job.index, ch);
    };

    // Each replay's result, and the budget as a serial run counts it: the findings' replays
    // stop once the replays before them (the counted prefix) recomputed `budget` nodes. A
    // finding's replay starts only when it is sure to be one the serial run makes: the replays
    // before it, those still running counted as the whole graph (a replay recomputes a node at
    // most once), stay under the budget; else it waits for them.
    std::vector<Replayer::Result> results(tasks);
    std::vector<std::uint8_t> done(tasks, 0);
    std::size_t counted = 0, spent = 0;  // the prefix of replays done, and the nodes it recomputed
    bool spentAll = false;               // a finding at `counted` would not run: none after it either
    std::mutex lock;
    std::condition_variable changed;
    std::size_t next = 0;
    // The resource replays already made beside the windows' build: done, counted in order.
    for (std::size_t t = 0; t < early.size(); ++t) {
        results[t] = early[t];
        done[t] = 1;
        spent += early[t].visited;
    }
    counted = next = early.size();
    if (counted < tasks && counted >= firstJob && spent >= budget) spentAll = true;
    bool cancelled = false;           // the main thread's keepGoing said stop (or a replay threw): both stop
    auto sure = [&](std::size_t t) {  // under the lock
        if (t < firstJob) return true;
        std::size_t most = spent;
        for (std::size_t i = counted; i < t; ++i) most += done[i] ? results[i].visited : g.size();
        return most < budget;
    };
    auto work = [&](Replayer* replayer, bool mayAsk) {
        std::vector<Replayer::Change> ch;
        std::vector<std::uint32_t> fu;
        for (;;) {
            if (mayAsk && stopped()) {
                std::lock_guard<std::mutex> hold(lock);
                cancelled = true;
                changed.notify_all();
                return;
            }
            std::size_t t;
            {
                std::unique_lock<std::mutex> hold(lock);
                changed.wait(hold, [&] { return cancelled || next == tasks || spentAll || sure(next); });
                if (cancelled || next == tasks || spentAll) return;
                t = next++;
            }
            changesOf(t, ch, fu);
            Replayer::Result out;
            try {
                out = replay(replayer, ch, fu);
            } catch (...) {
                std::lock_guard<std::mutex> hold(lock);
                cancelled = true;
                changed.notify_all();
                throw;
            }
            std::lock_guard<std::mutex> hold(lock);
            results[t] = out;
            done[t] = 1;
            for (; counted < tasks && done[counted]; ++counted) spent += results[counted].visited;
            if (counted < tasks && counted >= firstJob && spent >= budget) spentAll = true;
            changed.notify_all();
        }
    };
    if (stopped()) return Failure::cancelled();
    if (!cache && tasks >= 2 && g.size() >= settings.splitFromNodes && twoCores()) {
        // The side thread cannot ask keepGoing: it stops when the main one saw a cancel.
        Replayer side(g);
        runBeside([&] { work(&side, false); }, [&] { work(own.get(), true); });
    } else {
        work(own.get(), true);
    }
    if (cancelled) return Failure::cancelled();

    // The results in the serial order.
    std::size_t used = 0;
    for (std::size_t t = 0; t < firstJob; ++t) {
        used += results[t].visited;
        if (t < resourceOf.size()) {
            const auto res = resourceOf[t];
            w.resources.push_back({static_cast<Resource>(res), r.summary.extraWaitByResource[res], results[t].gainNs});
        } else {
            w.allGainNs = results[t].gainNs;
        }
    }
    std::stable_sort(w.resources.begin(), w.resources.end(),
                     [](const ResourceGain& a, const ResourceGain& b) { return a.gainNs > b.gainNs; });
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const Job& job = jobs[j];
        TimeNs anomalyGain = -1;  // anomalies are set through the list, below
        TimeNs* gain = job.kind == JobKind::Window    ? &r.windows.edit(job.index).gainNs
                       : job.kind == JobKind::Cluster ? &r.clusters[job.index].gainNs
                                                      : &anomalyGain;
        if (used >= budget) {
            *gain = -1;
            if (job.kind == JobKind::Anomaly) r.anomalies.setGain(job.index, -1);
            ++w.skipped;
            continue;
        }
        const Replayer::Result& out = results[firstJob + j];
        used += out.visited;
        *gain = out.gainNs;
        if (job.kind == JobKind::Anomaly) r.anomalies.setGain(job.index, out.gainNs);
        ++w.replayed;
    }
    if (w.skipped > 0)
        r.notes.push_back({"what-if-budget", "The what-if re-scheduled " + std::to_string(w.replayed) +
                                                 " findings (those cutting the most critical-path time first) "
                                                 "before its budget ran out; " +
                                                 std::to_string(w.skipped) +
                                                 " findings have no predicted gain (shown as not computed)."});
    return std::nullopt;
}

}  // namespace contend
