#include <algorithm>
#include <boost/range/iterator_range.hpp>
#include <memory>
#include <vector>

#include "core/analysis/whatif/depgraph.h"
#include "core/analysis/whatif/depgraph_csr.h"

namespace contend {

// --- replay ----------------------------------------------------------------------------------

Replayer::Replayer(const DependencyGraph& g)
    : m_g(g),
      m_start(std::make_unique_for_overwrite<TimeNs[]>(g.size())),
      m_end(std::make_unique_for_overwrite<TimeNs[]>(g.size())),
      m_own(std::make_unique_for_overwrite<TimeNs[]>(g.size())),
      m_state(g.size(), 0),
      m_queued((g.size() + 63) / 64, 0) {
    m_touched.reserve(g.size());  // room once (a replay may touch every node): no doubling copies
}

Replayer::Result Replayer::run(const std::vector<Change>& changes, const std::vector<std::uint32_t>& fused) {
    const DepBoostGraph& bg = m_g.csr->g;
    Result res;
    for (std::uint32_t v : m_touched) {
        // Still queued: the last run stopped on an exception; its queue bits go too.
        if (m_state[v] & 1) m_queued[m_g.rank[v] >> 6] = 0;
        m_state[v] = 0;
    }
    m_touched.clear();
    if (m_g.size() == 0) return res;
    // The queued nodes by topological rank, lowest first: a node is recomputed after every
    // predecessor that moved. A bit per rank, scanned upward from the lowest queued word: the
    // same order a min-heap would give, in time linear in the ranks the run spans (a replay that
    // moves half the graph reads its bits in order instead of a heap's log n random steps).
    std::size_t queued = 0, word = m_queued.size();  // how many are queued; the lowest word that may hold one
    // A node's times are copied in when a run first touches it (the arrays are not filled
    // before: a replay moves a small part of a million-node graph, and three copies of it were
    // 24 MB of fresh pages per replayer); an untouched node reads the graph's (startOf, endOf).
    auto touch = [&](std::uint32_t v) {
        if (m_state[v] & 2) return;
        m_touched.push_back(v);
        m_start[v] = m_g.start[v];
        m_end[v] = m_g.end[v];
        m_own[v] = m_g.own[v];
        m_state[v] |= 2;
    };
    auto push = [&](std::uint32_t v) {
        touch(v);
        if (m_state[v] & 1) return;
        m_state[v] |= 1;
        const std::uint32_t r = m_g.rank[v];
        m_queued[r >> 6] |= std::uint64_t{1} << (r & 63);
        word = std::min<std::size_t>(word, r >> 6);
        ++queued;
    };
    for (const Change& c : changes) {
        if (c.node >= m_g.size() || c.shortenNs <= 0) continue;
        touch(c.node);
        m_own[c.node] = std::max<TimeNs>(0, m_own[c.node] - c.shortenNs);
        push(c.node);
    }
    // A fused run is one launch: the launch calls of its later operators, and the sync calls
    // that waited for the operator before each of them, go with the host work leading to them.
    auto drop = [&](std::uint32_t h) {
        touch(h);
        m_state[h] |= 8;
        m_own[h] = 0;
        push(h);
    };
    for (std::uint32_t v : fused) {
        if (v >= m_g.size()) continue;
        touch(v);
        m_state[v] |= 4;
        push(v);
        for (auto ed : boost::make_iterator_range(boost::in_edges(v, bg))) {
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(ed, bg));
            if (bg[ed].kind == DepEdgeKind::Launch) drop(u);
            if (bg[ed].kind != DepEdgeKind::Stream) continue;
            for (auto out : boost::make_iterator_range(boost::out_edges(u, bg))) {
                const std::uint32_t s = static_cast<std::uint32_t>(boost::target(out, bg));
                if (bg[out].kind == DepEdgeKind::Sync && m_g.bindEnd[s] == u) drop(s);
            }
        }
    }
    while (queued > 0) {
        std::uint64_t& bits = m_queued[word];
        if (bits == 0) {
            ++word;
            continue;
        }
        const std::size_t r = (word << 6) + static_cast<std::size_t>(__builtin_ctzll(bits));
        bits &= bits - 1;
        --queued;
        const std::uint32_t v = m_g.order[r];
        m_state[v] &= static_cast<std::uint8_t>(~1u);
        ++res.visited;
        const bool isFused = (m_state[v] & 4) != 0, dropped = (m_state[v] & 8) != 0;
        TimeNs s = kTimeMin, e = kTimeMin;
        bool hasStart = false;
        for (auto ed : boost::make_iterator_range(boost::in_edges(v, bg))) {
            const DepEdge& p = bg[ed];
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(ed, bg));
            if (startEdge(p.kind)) {
                if (isFused && p.kind != DepEdgeKind::Stream) continue;
                hasStart = true;
                const TimeNs ref = p.kind == DepEdgeKind::Launch ? startOf(u) : endOf(u);
                s = std::max(s, ref + (isFused || dropped ? 0 : p.lag));
            } else if (!isFused && !dropped) {
                e = std::max(e, endOf(u) + p.lag);
            }
        }
        if (!hasStart) s = m_g.start[v];
        e = std::max(e, s + m_own[v]);
        if (s == m_start[v] && e == m_end[v]) continue;
        m_start[v] = s;
        m_end[v] = e;
        for (auto ed : boost::make_iterator_range(boost::out_edges(v, bg)))
            push(static_cast<std::uint32_t>(boost::target(ed, bg)));
    }
    // New span: the latest end now (untouched nodes keep theirs; nothing moves later).
    TimeNs latest = kTimeMin;
    for (std::uint32_t v : m_touched) latest = std::max(latest, m_end[v]);
    for (std::uint32_t v : m_g.byEnd) {
        if (m_state[v] & 2) continue;
        latest = std::max(latest, m_g.end[v]);
        break;
    }
    const TimeNs oldLatest = m_g.originNs + m_g.spanNs;
    res.gainNs = std::max<TimeNs>(0, oldLatest - latest);
    return res;
}

std::size_t Replayer::mismatchesOfFullReplay() {
    const DepBoostGraph& bg = m_g.csr->g;
    std::vector<TimeNs> st(m_g.size()), en(m_g.size());
    std::size_t bad = 0;
    for (std::uint32_t v : m_g.order) {
        TimeNs s = kTimeMin, e = kTimeMin;
        bool hasStart = false;
        for (auto ed : boost::make_iterator_range(boost::in_edges(v, bg))) {
            const DepEdge& p = bg[ed];
            const std::uint32_t u = static_cast<std::uint32_t>(boost::source(ed, bg));
            if (startEdge(p.kind)) {
                hasStart = true;
                s = std::max(s, (p.kind == DepEdgeKind::Launch ? st[u] : en[u]) + p.lag);
            } else {
                e = std::max(e, en[u] + p.lag);
            }
        }
        if (!hasStart) s = m_g.start[v];
        e = std::max(e, s + m_g.own[v]);
        st[v] = s;
        en[v] = e;
        if (s != m_g.start[v] || e != m_g.end[v]) ++bad;
    }
    return bad;
}

}  // namespace contend
