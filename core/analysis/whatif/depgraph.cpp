#include "core/analysis/whatif/depgraph.h"

#include <algorithm>
#include <bit>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/iterator/transform_iterator.hpp>
#include <boost/range/iterator_range.hpp>
#include <chrono>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "core/analysis/whatif/depgraph_csr.h"
#include "core/common/radix_sort.h"

namespace contend {

const char* depEdgeKindName(DepEdgeKind k) {
    switch (k) {
    case DepEdgeKind::Stream: return "stream";
    case DepEdgeKind::Host: return "host";
    case DepEdgeKind::Launch: return "launch";
    case DepEdgeKind::Sync: return "sync";
    case DepEdgeKind::Wait: return "wait";
    case DepEdgeKind::Event: return "event";
    }
    return "stream";
}

bool depthFirstOrder(const DepBoostGraph& bg, std::vector<std::uint32_t>& order) {
    const auto n = static_cast<std::uint32_t>(boost::num_vertices(bg));
    using Edge = DepBoostGraph::edge_descriptor;
    // A vertex's out-edges are the indices [first, first + degree) of the graph's edge list.
    struct Frame {
        std::uint32_t v, next, end;
    };
    auto frameOf = [&](std::uint32_t v) {
        const auto [b, e] = boost::out_edges(v, bg);
        if (b == e) return Frame{v, 0, 0};
        const std::uint32_t first = (*b).idx;
        return Frame{v, first, first + static_cast<std::uint32_t>(boost::out_degree(v, bg))};
    };
    enum : std::uint8_t { White, Grey, Black };
    std::vector<std::uint8_t> colour(n, White);
    // Room for a search as deep as the graph (a stream's chain of edges makes it so): touched
    // only as deep as it goes, never copied.
    std::vector<Frame> stack;
    stack.reserve(n);
    order.resize(n);
    std::uint32_t done = n;  // finished vertices fill the order from its end
    for (std::uint32_t root = 0; root < n; ++root) {
        if (colour[root] != White) continue;
        colour[root] = Grey;
        stack.push_back(frameOf(root));
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next == f.end) {
                colour[f.v] = Black;
                order[--done] = f.v;
                stack.pop_back();
                continue;
            }
            const auto w = static_cast<std::uint32_t>(boost::target(Edge(f.v, f.next++), bg));
            if (colour[w] == Grey) return false;  // an edge back into the search's path: a cycle
            if (colour[w] == White) {
                colour[w] = Grey;
                stack.push_back(frameOf(w));
            }
        }
    }
    return true;
}

std::size_t DependencyGraph::edgeCount() const { return csr ? boost::num_edges(csr->g) : 0; }

namespace {

struct RawEdge {
    std::uint32_t from, to;
    DepEdgeKind kind;
};

// Nodes of one track in start order.
struct TrackNodes {
    std::uint32_t track = 0;
    bool device = false;
    std::vector<std::uint32_t> nodes;
};

// The latest-ending node of `tn` that ended at or before `t` (kNone if none). Device tracks do
// not overlap themselves, so ends follow starts; the walk back covers the exceptions.
std::uint32_t lastEndedBy(const DependencyGraph& g, const TrackNodes& tn, TimeNs t) {
    auto it = std::upper_bound(tn.nodes.begin(), tn.nodes.end(), t,
                               [&](TimeNs v, std::uint32_t n) { return v < g.start[n]; });
    std::uint32_t best = kNone;
    for (int steps = 0; it != tn.nodes.begin() && steps < 8; ++steps) {
        --it;
        if (g.end[*it] <= t && (best == kNone || g.end[*it] > g.end[best])) best = *it;
    }
    return best;
}

void collectNodes(const Trace& t, const OperatorSet& ops, DependencyGraph& g, std::vector<TrackNodes>& tracks) {
    const auto& slices = t.slices();
    std::vector<std::uint8_t> isLaunch(slices.size(), 0);
    std::vector<std::uint8_t> isWait(slices.size(), 0);
    for (std::uint32_t sl : ops.slices)
        if (t.infos()[sl].launch != kNone) isLaunch[t.infos()[sl].launch] = 1;
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        const Slice& s = slices[i];
        if (s.is(kSliceDevice) && s.dur > 0 && ops.opOfSlice[i] == kNone && isWaitTask(t, i)) {
            isWait[i] = 1;
            if (t.infos()[i].launch != kNone) isLaunch[t.infos()[i].launch] = 1;
        }
    }
    g.nodeOfOp.assign(ops.size(), kNone);
    // A node a slice at most: room once (untouched room costs no pages), not a doubling copy.
    const auto room = [&](auto&... v) { (v.reserve(slices.size()), ...); };
    room(g.slice, g.kind, g.start, g.end);
    for (std::uint32_t tr = 0; tr < t.tracks().size(); ++tr) {
        const Track& track = t.tracks()[tr];
        TrackNodes dev{tr, true, {}}, host{tr, false, {}};
        for (TrackNodes* tn : {&dev, &host}) tn->nodes.reserve(track.sliceEnd - track.sliceBegin);
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = slices[i];
            DepNodeKind k;
            if (ops.opOfSlice[i] != kNone)
                k = DepNodeKind::Device;
            else if (isWait[i])
                k = DepNodeKind::Wait;
            else if (s.is(kSliceDevice))
                continue;
            else if (isLaunch[i])
                k = DepNodeKind::Launch;
            else if (s.is(kSliceStep))
                k = DepNodeKind::Step;
            else if (!s.is(kSliceInstant) && isSyncCall(t.str(s.name)))
                k = DepNodeKind::Sync;
            else
                continue;
            const auto n = static_cast<std::uint32_t>(g.slice.size());
            g.slice.push_back(i);
            g.kind.push_back(k);
            g.start.push_back(s.start);
            g.end.push_back(k == DepNodeKind::Step ? s.start : s.end());
            if (k == DepNodeKind::Device) g.nodeOfOp[ops.opOfSlice[i]] = n;
            (k == DepNodeKind::Device || k == DepNodeKind::Wait ? dev : host).nodes.push_back(n);
        }
        if (!dev.nodes.empty()) tracks.push_back(std::move(dev));
        if (!host.nodes.empty()) tracks.push_back(std::move(host));
    }
}

void collectEdges(const Trace& t, DependencyGraph& g, const std::vector<TrackNodes>& tracks,
                  const std::vector<std::uint32_t>& nodeOfSlice, std::vector<RawEdge>& edges) {
    std::vector<const TrackNodes*> device;
    for (const TrackNodes& tn : tracks) {
        if (tn.device) device.push_back(&tn);
        for (std::size_t k = 1; k < tn.nodes.size(); ++k)
            edges.push_back({tn.nodes[k - 1], tn.nodes[k], tn.device ? DepEdgeKind::Stream : DepEdgeKind::Host});
    }
    for (std::uint32_t n = 0; n < g.size(); ++n) {
        if (g.kind[n] != DepNodeKind::Device && g.kind[n] != DepNodeKind::Wait) continue;
        ++g.deviceNodes;
        const std::uint32_t launch = t.infos()[g.slice[n]].launch;
        const std::uint32_t from = launch != kNone ? nodeOfSlice[launch] : kNone;
        if (from != kNone && g.start[from] <= g.start[n]) {
            edges.push_back({from, n, DepEdgeKind::Launch});
            ++g.linkedDeviceNodes;
        }
    }
    // Sync calls: from the last node of each device track that ended before the call returned,
    // unless the thread's previous sync already waited for that node (it is implied).
    for (const TrackNodes& tn : tracks) {
        if (tn.device) continue;
        std::vector<std::uint32_t> lastSeen(device.size(), kNone);
        for (std::uint32_t n : tn.nodes) {
            if (g.kind[n] != DepNodeKind::Sync) continue;
            ++g.syncNodes;
            for (std::size_t d = 0; d < device.size(); ++d) {
                const std::uint32_t u = lastEndedBy(g, *device[d], g.end[n]);
                if (u == kNone || u == lastSeen[d]) continue;
                lastSeen[d] = u;
                edges.push_back({u, n, DepEdgeKind::Sync});
            }
        }
    }
    // Wait tasks: the latest node of another device track that ended while the task waited.
    for (std::size_t d = 0; d < device.size(); ++d) {
        for (std::uint32_t n : device[d]->nodes) {
            if (g.kind[n] != DepNodeKind::Wait) continue;
            ++g.waitNodes;
            std::uint32_t best = kNone;
            for (std::size_t o = 0; o < device.size(); ++o) {
                if (o == d) continue;
                const std::uint32_t u = lastEndedBy(g, *device[o], g.end[n]);
                if (u != kNone && g.end[u] > g.start[n] && (best == kNone || g.end[u] > g.end[best])) best = u;
            }
            if (best != kNone) edges.push_back({best, n, DepEdgeKind::Wait});
        }
    }
}

// Device nodes that started well after their stream and launch allowed, right after a node of
// another device track ended: an event wait the trace did not record (see the header).
void inferEventWaits(const Trace& t, DependencyGraph& g, const std::vector<TrackNodes>& tracks,
                     const std::vector<std::uint32_t>& nodeOfSlice, std::vector<RawEdge>& edges) {
    std::vector<const TrackNodes*> device;
    for (const TrackNodes& tn : tracks)
        if (tn.device) device.push_back(&tn);
    for (std::size_t d = 0; d < device.size(); ++d) {
        const auto& nodes = device[d]->nodes;
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            const std::uint32_t v = nodes[k];
            // Only where the launch is known: without it a late start may be the host's.
            const std::uint32_t launch = t.infos()[g.slice[v]].launch;
            const std::uint32_t l = launch != kNone ? nodeOfSlice[launch] : kNone;
            if (l == kNone || g.start[l] > g.start[v]) continue;
            TimeNs allowed = g.start[l] + g.launchLagNs;
            if (k > 0) allowed = std::max(allowed, g.end[nodes[k - 1]]);
            if (g.start[v] - allowed <= kUnexplainedNs) continue;
            std::uint32_t best = kNone;
            for (std::size_t o = 0; o < device.size(); ++o) {
                if (o == d) continue;
                const std::uint32_t u = lastEndedBy(g, *device[o], g.start[v]);
                if (u != kNone && g.start[v] - g.end[u] <= kEventLagNs && (best == kNone || g.end[u] > g.end[best]))
                    best = u;
            }
            if (best == kNone) continue;
            edges.push_back({best, v, DepEdgeKind::Event});
            ++g.eventEdges;
        }
    }
}

// Lags, own times and bindings from the observation (see the header).
void bindObserved(DependencyGraph& g, DepBoostGraph& mg) {
    const DepBoostGraph& bg = mg;
    const std::size_t n = g.size();
    g.own.resize(n);
    g.bindStart.assign(n, kNone);
    g.bindEnd.assign(n, kNone);
    for (std::uint32_t v = 0; v < n; ++v) {
        g.own[v] = g.end[v] - g.start[v];
        // Start edges: the latest-arriving one (by its nominal lag) binds and keeps its gap.
        std::uint32_t bind = kNone;
        TimeNs bindAt = kTimeMin;
        for (auto e : boost::make_iterator_range(boost::in_edges(v, bg))) {
            const DepEdge& p = bg[e];
            if (!startEdge(p.kind)) continue;
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(e, bg));
            const TimeNs ref = p.kind == DepEdgeKind::Launch ? g.start[u] : g.end[u];
            const TimeNs nominal = p.kind == DepEdgeKind::Host     ? g.start[v] - ref
                                   : p.kind == DepEdgeKind::Launch ? g.launchLagNs
                                                                   : 0;
            if (ref + nominal > bindAt) {
                bindAt = ref + nominal;
                bind = u;
            }
        }
        for (auto e : boost::make_iterator_range(boost::in_edges(v, bg))) {
            DepEdge& p = mg[e];
            if (!startEdge(p.kind)) continue;
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(e, bg));
            const TimeNs ref = p.kind == DepEdgeKind::Launch ? g.start[u] : g.end[u];
            const TimeNs observed = g.start[v] - ref;
            const TimeNs nominal = p.kind == DepEdgeKind::Host     ? observed
                                   : p.kind == DepEdgeKind::Launch ? g.launchLagNs
                                                                   : 0;
            p.lag = u == bind ? observed : std::min(nominal, observed);
        }
        g.bindStart[v] = bind;
        if (g.kind[v] != DepNodeKind::Sync && g.kind[v] != DepNodeKind::Wait) continue;
        // End edges: still waiting when its latest predecessor ended -> it owns the return latency.
        std::uint32_t last = kNone;
        for (auto e : boost::make_iterator_range(boost::in_edges(v, bg))) {
            if (startEdge(bg[e].kind)) continue;
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(e, bg));
            if (last == kNone || g.end[u] > g.end[last]) last = u;
        }
        const bool waited = last != kNone && g.end[last] > g.start[v];
        for (auto e : boost::make_iterator_range(boost::in_edges(v, bg))) {
            DepEdge& p = mg[e];
            if (startEdge(p.kind)) continue;
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(e, bg));
            p.lag = waited && u == last ? g.end[v] - g.end[u] : 0;
        }
        if (waited) {
            g.bindEnd[v] = last;
            g.own[v] = std::min(g.own[v], g.end[v] - g.end[last]);
            if (g.kind[v] == DepNodeKind::Sync) ++g.boundSyncs;
        }
    }
}

// Each node's place in g.order.
void rankByOrder(DependencyGraph& g) {
    g.rank.resize(g.size());
    for (std::uint32_t k = 0; k < g.order.size(); ++k) g.rank[g.order[k]] = k;
}

// Latest ends with the graph's end fixed (backward pass), slack = latest end - end.
void computeSlack(DependencyGraph& g, const DepBoostGraph& bg) {
    const std::size_t n = g.size();
    TimeNs deadline = kTimeMin;
    for (std::uint32_t v = 0; v < n; ++v) deadline = std::max(deadline, g.end[v]);
    std::vector<TimeNs> lateEnd(n, deadline), lateStart(n, deadline);
    for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
        const std::uint32_t v = *it;
        TimeNs le = deadline, ls = kTimeMax;
        for (auto e : boost::make_iterator_range(boost::out_edges(v, bg))) {
            const DepEdge& p = bg[e];
            const std::uint32_t w = static_cast<std::uint32_t>(boost::target(e, bg));
            if (p.kind == DepEdgeKind::Launch)
                ls = std::min(ls, lateStart[w] - p.lag);
            else if (startEdge(p.kind))
                le = std::min(le, lateStart[w] - p.lag);
            else
                le = std::min(le, lateEnd[w] - p.lag);
        }
        lateEnd[v] = le;
        lateStart[v] = std::min(ls, le - g.own[v]);
    }
    g.slack.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) g.slack[v] = std::max<TimeNs>(0, lateEnd[v] - g.end[v]);
}

void assignIterations(const Trace& t, const OperatorSet& ops, const std::vector<IterationStats>& iterations,
                      const std::vector<std::uint32_t>& iterationOfOp, DependencyGraph& g) {
    const std::size_t n = g.size();
    g.iteration.assign(n, 0);
    if (iterations.empty()) return;
    for (std::uint32_t v = 0; v < n; ++v) {
        const std::uint32_t op = ops.opOfSlice[g.slice[v]];
        std::uint32_t it = kNone;
        if (op != kNone) {
            it = iterationOfOp[op];
        } else {
            const std::uint32_t launch = t.infos()[g.slice[v]].launch;
            const TimeNs at = launch != kNone && g.kind[v] == DepNodeKind::Wait ? t.slices()[launch].start : g.start[v];
            auto pos = std::upper_bound(iterations.begin(), iterations.end(), at,
                                        [](TimeNs x, const IterationStats& s) { return x < s.start; });
            if (pos != iterations.begin()) it = static_cast<std::uint32_t>(pos - iterations.begin()) - 1;
        }
        g.iteration[v] = it == kNone ? 0 : it;
    }
}

void criticalPaths(const Trace& t, std::size_t iterationCount, DependencyGraph& g) {
    const std::size_t n = g.size();
    g.iterations.assign(std::max<std::size_t>(1, iterationCount), IterationPath{});
    std::vector<std::uint32_t> lastOf(g.iterations.size(), kNone);
    TimeNs origin = kTimeMax;
    for (std::uint32_t v = 0; v < n; ++v) {
        std::uint32_t& l = lastOf[g.iteration[v]];
        if (l == kNone || g.end[v] > g.end[l]) l = v;
        if (g.iteration[v] == 0) origin = std::min(origin, g.start[v]);
    }
    g.originNs = origin == kTimeMax ? 0 : origin;
    TimeNs prev = g.originNs;
    std::vector<TimeNs> onTrack(t.tracks().size(), 0);
    std::vector<std::uint32_t> used;
    for (std::size_t i = 0; i < g.iterations.size(); ++i) {
        IterationPath& p = g.iterations[i];
        const std::uint32_t last = lastOf[i];
        const TimeNs e = last == kNone ? prev : std::max(prev, g.end[last]);
        p.endNs = e;
        p.timeNs = e - prev;
        prev = e;
        if (last == kNone || p.timeNs == 0) continue;
        p.last = last;
        // Walk the binding edges back while they stay in the iteration.
        for (std::uint32_t v = last; v != kNone && g.iteration[v] == i;) {
            ++p.nodes;
            const Slice& s = t.slices()[g.slice[v]];
            const TimeNs busy = g.end[v] - g.start[v];
            if (g.kind[v] == DepNodeKind::Device) p.deviceNs += busy;
            if (onTrack[s.track] == 0) used.push_back(s.track);
            onTrack[s.track] += std::max<TimeNs>(1, busy);
            v = g.bindEnd[v] != kNone ? g.bindEnd[v] : g.bindStart[v];
        }
        TimeNs best = 0;
        for (std::uint32_t tr : used) {
            if (onTrack[tr] > best) {
                best = onTrack[tr];
                p.track = tr;
            }
            onTrack[tr] = 0;
        }
        used.clear();
    }
    g.spanNs = prev - g.originNs;
    // Latest end first, ties in node order: by radix on (latest end - end, node) keys when they
    // fit in 64 bits (spans under minutes at millions of nodes; an indirect std::sort missed the
    // cache on every comparison), else by std::sort.
    g.byEnd.resize(n);
    const auto [lo, hi] = std::minmax_element(g.end.begin(), g.end.end());
    const int nodeBits = std::bit_width(n);
    if (n > 0 && std::bit_width(static_cast<std::uint64_t>(*hi - *lo)) + nodeBits <= 64) {
        std::vector<std::uint64_t> keys(n), scratch;
        for (std::uint32_t v = 0; v < n; ++v) keys[v] = (static_cast<std::uint64_t>(*hi - g.end[v]) << nodeBits) | v;
        radixSort(keys, scratch);
        const std::uint64_t nodeMask = (std::uint64_t{1} << nodeBits) - 1;
        for (std::uint32_t k = 0; k < n; ++k) g.byEnd[k] = static_cast<std::uint32_t>(keys[k] & nodeMask);
        return;
    }
    for (std::uint32_t v = 0; v < n; ++v) g.byEnd[v] = v;
    std::sort(g.byEnd.begin(), g.byEnd.end(),
              [&](std::uint32_t a, std::uint32_t b) { return g.end[a] != g.end[b] ? g.end[a] > g.end[b] : a < b; });
}

}  // namespace

std::shared_ptr<const DependencyGraph> buildDependencyGraph(const Trace& t, const OperatorSet& ops,
                                                            const std::vector<IterationStats>& iterations,
                                                            const std::vector<std::uint32_t>& iterationOfOp,
                                                            const std::function<bool()>& keepGoing) {
    const auto t0 = std::chrono::steady_clock::now();
    // Checked between the passes (each a few tens of ms at 10^6 nodes), so a Cancel is not held
    // up by the whole build.
    auto stop = [&] { return keepGoing && !keepGoing(); };
    auto g = std::make_shared<DependencyGraph>();
    g->csr = std::make_shared<DepCsr>();
    if (!ops.deviceScope || ops.size() == 0) return g;
    std::vector<TrackNodes> tracks;
    collectNodes(t, ops, *g, tracks);
    if (stop()) return nullptr;
    std::vector<std::uint32_t> nodeOfSlice(t.slices().size(), kNone);
    for (std::uint32_t v = 0; v < g->size(); ++v) nodeOfSlice[g->slice[v]] = v;
    std::vector<RawEdge> edges;
    edges.reserve(g->size() * 2 + 16);
    collectEdges(t, *g, tracks, nodeOfSlice, edges);
    if (stop()) return nullptr;
    // Nominal launch lag: the shortest launch-call-start to device-start seen.
    TimeNs lag = kTimeMax;
    for (const RawEdge& e : edges)
        if (e.kind == DepEdgeKind::Launch) lag = std::min(lag, g->start[e.to] - g->start[e.from]);
    g->launchLagNs = lag == kTimeMax ? 0 : lag;
    inferEventWaits(t, *g, tracks, nodeOfSlice, edges);
    if (stop()) return nullptr;
    nodeOfSlice = {};
    tracks = {};

    std::shared_ptr<DepCsr> csr;
    // The CSR read straight off the edge list, through views of each edge's two ends and its
    // kind (copies of them were 16 bytes an edge of fresh pages: 300 MB at 10M kernels).
    auto build = [&](const std::vector<RawEdge>& es) {
        auto ends = [](const RawEdge& e) { return std::pair<std::uint32_t, std::uint32_t>(e.from, e.to); };
        auto props = [](const RawEdge& e) { return DepEdge{0, e.kind}; };
        csr = std::make_shared<DepCsr>(DepCsr{
            DepBoostGraph(boost::edges_are_unsorted_multi_pass, boost::make_transform_iterator(es.begin(), ends),
                          boost::make_transform_iterator(es.end(), ends),
                          boost::make_transform_iterator(es.begin(), props), static_cast<std::uint32_t>(g->size()))});
    };
    build(edges);
    if (stop()) return nullptr;
    if (!depthFirstOrder(csr->g, g->order)) {
        // Times that contradict each other (equal stamps around a zero-length node): keep the
        // orders and launches, drop the sync and wait edges, and say so.
        const auto before = edges.size();
        edges.erase(std::remove_if(edges.begin(), edges.end(), [](const RawEdge& e) { return !startEdge(e.kind); }),
                    edges.end());
        g->droppedEdges = before - edges.size();
        build(edges);
        if (!depthFirstOrder(csr->g, g->order))
            throw std::runtime_error("the dependency graph has a cycle in its stream, host, launch or event edges");
    }
    rankByOrder(*g);
    edges = {};
    if (stop()) return nullptr;
    bindObserved(*g, csr->g);
    if (stop()) return nullptr;
    computeSlack(*g, csr->g);
    if (stop()) return nullptr;
    g->csr = csr;
    assignIterations(t, ops, iterations, iterationOfOp, *g);
    criticalPaths(t, iterations.size(), *g);
    g->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return g;
}

std::vector<ReportNote> dependencyNotes(const DependencyGraph& g) {
    std::vector<ReportNote> out;
    if (g.deviceNodes == 0) return out;
    if (g.linkedDeviceNodes == 0) {
        out.push_back({"depgraph-stream-only",
                       "No launch calls linked to the device operators (no runtime events, flows or correlation "
                       "ids): the dependency graph has stream order only, each gap between operators is kept as "
                       "observed, and the predicted gains cannot move the host."});
    } else if (g.linkedDeviceNodes * 10 < g.deviceNodes * 9) {
        out.push_back({"depgraph-partial-links",
                       std::to_string(g.deviceNodes - g.linkedDeviceNodes) + " of " + std::to_string(g.deviceNodes) +
                           " device operators have no launch call linked: they follow stream order only in the "
                           "dependency graph, with their gaps kept as observed."});
    }
    if (g.droppedEdges > 0)
        out.push_back({"depgraph-cycle", "The trace's times contradict each other around zero-length events: " +
                                             std::to_string(g.droppedEdges) +
                                             " sync and wait edges were left out of the dependency graph to keep it "
                                             "acyclic; predicted gains ignore those waits."});
    return out;
}

}  // namespace contend
