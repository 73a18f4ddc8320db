#include "widgets/timeline/track_layout.h"

#include <algorithm>
#include <cmath>

namespace contend::widgets {

std::string groupTitle(TrackGroup g) {
    switch (g) {
    case TrackGroup::Device: return "Device streams";
    case TrackGroup::Host: return "Host threads";
    case TrackGroup::Other: return "Other tracks";
    case TrackGroup::Counters: return "Counters";
    case TrackGroup::Pinned: return "Pinned";
    }
    return {};
}

namespace {
TrackGroup groupOf(TrackKind k) {
    switch (k) {
    case TrackKind::DeviceStream: return TrackGroup::Device;
    case TrackKind::HostThread: return TrackGroup::Host;
    case TrackKind::Other: break;
    }
    return TrackGroup::Other;
}
}  // namespace

TrackLayout::TrackLayout(const Trace& trace, const TimelineIndex& index, const LayoutOptions& o) {
    const auto& tracks = trace.tracks();
    m_trackSpan.assign(tracks.size(), {-1, -1});
    m_trackFirstRow.assign(tracks.size(), -1);
    // The arrangement, when it is this trace's (it lists every track once); else the trace's order.
    const bool arranged = o.arrangement.order().size() == tracks.size();
    const std::vector<std::uint32_t>& order = arranged ? o.arrangement.order() : trace.trackOrder();
    auto shown = [&](std::uint32_t t) { return !arranged || o.arrangement.shown(trace, t); };
    auto pinned = [&](std::uint32_t t) { return arranged && o.arrangement.isPinned(t); };
    int y = 0;
    auto header = [&](TrackGroup g, std::uint32_t count) {
        LayoutRow r;
        r.kind = RowKind::Header;
        r.group = g;
        r.y = y;
        r.h = o.headerHeight;
        r.collapsed = o.collapsedGroups.count(g) > 0;
        r.groupCount = count;
        r.pinned = g == TrackGroup::Pinned;
        m_rows.push_back(r);
        y += r.h;
        return !r.collapsed;
    };
    auto addTrack = [&](std::uint32_t t, bool isPinned) {
        const TrackGroup g = groupOf(tracks[t].kind);
        const std::uint32_t lanes = index.lanesOf(t);
        const bool collapsible = g != TrackGroup::Device && lanes > 1;
        const bool collapsed = collapsible && o.expandedHosts.count(t) == 0;
        const std::uint32_t shownLanes = collapsed ? 1 : lanes;
        const int top = y;
        m_trackFirstRow[t] = static_cast<int>(m_rows.size());
        for (std::uint32_t d = 0; d < shownLanes; ++d) {
            LayoutRow r;
            r.kind = RowKind::Lane;
            r.group = g;
            r.track = t;
            r.depth = static_cast<std::uint8_t>(d);
            r.lane = index.laneId(t, static_cast<std::uint8_t>(d));
            r.y = y;
            r.h = o.laneHeight;
            r.firstOfTrack = d == 0;
            r.collapsed = collapsed;
            r.hiddenLanes = d == 0 ? lanes - shownLanes : 0;
            r.pinned = isPinned;
            m_rows.push_back(r);
            y += r.h;
        }
        m_trackSpan[t] = {top, y};
        if (t < o.queueOfTrack.size() && o.queueOfTrack[t] != kNone) {
            LayoutRow r;
            r.kind = RowKind::Queue;
            r.group = g;
            r.track = t;
            r.counter = o.queueOfTrack[t];
            r.y = y;
            r.h = o.queueHeight;
            r.pinned = isPinned;
            m_rows.push_back(r);
            y += r.h;
        }
        y += o.trackGap;
    };
    // Tracks without slices are left out everywhere; the others count as shown or not.
    std::vector<std::uint32_t> withSlices, pinnedTracks;
    for (std::uint32_t t : order) {
        if (index.lanesOf(t) == 0) continue;
        withSlices.push_back(t);
        if (!shown(t)) {
            ++m_notShown;
            continue;
        }
        ++m_shown;
        if (pinned(t)) pinnedTracks.push_back(t);
    }
    // Counters: shown or hidden, pinned or not (an arrangement of this trace only).
    std::vector<std::uint32_t> pinnedCounters, counters;
    for (std::uint32_t c = 0; c < trace.counters().size(); ++c) {
        if (arranged && o.arrangement.isCounterHidden(c)) {
            ++m_notShown;
            continue;
        }
        (arranged && o.arrangement.isCounterPinned(c) ? pinnedCounters : counters).push_back(c);
    }
    auto addCounter = [&](std::uint32_t c, bool isPinned) {
        LayoutRow r;
        r.kind = RowKind::Counter;
        r.group = TrackGroup::Counters;
        r.counter = c;
        r.y = y;
        r.h = o.counterHeight;
        r.pinned = isPinned;
        m_rows.push_back(r);
        y += r.h + o.trackGap;
    };
    // The pinned section: it stays at the top while the rest scrolls under it.
    if (!pinnedTracks.empty() || !pinnedCounters.empty()) {
        if (header(TrackGroup::Pinned, static_cast<std::uint32_t>(pinnedTracks.size() + pinnedCounters.size()))) {
            for (std::uint32_t t : pinnedTracks) addTrack(t, true);
            for (std::uint32_t c : pinnedCounters) addCounter(c, true);
        }
        m_pinnedHeight = y;
    }
    // The other shown tracks in the arrangement's order, grouped.
    for (TrackGroup g : {TrackGroup::Device, TrackGroup::Host, TrackGroup::Other}) {
        std::vector<std::uint32_t> members;
        for (std::uint32_t t : withSlices)
            if (groupOf(tracks[t].kind) == g && shown(t) && !pinned(t)) members.push_back(t);
        if (members.empty()) continue;
        if (!header(g, static_cast<std::uint32_t>(members.size()))) continue;
        for (std::uint32_t t : members) addTrack(t, false);
    }
    if (!counters.empty() && header(TrackGroup::Counters, static_cast<std::uint32_t>(counters.size())))
        for (std::uint32_t c : counters) addCounter(c, false);
    m_height = y;
}

int TrackLayout::rowAtView(double viewY, double scrollY) const {
    if (viewY < 0) return -1;
    const double contentY = viewY < m_pinnedHeight ? viewY : viewY + scrollY;
    return rowAt(static_cast<int>(std::floor(contentY)));
}

int TrackLayout::rowAt(int y) const {
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const LayoutRow& r) { return v < r.y; });
    if (it == m_rows.begin()) return -1;
    --it;
    if (y >= it->y + it->h) return -1;  // in a gap between tracks
    return static_cast<int>(it - m_rows.begin());
}

std::pair<std::size_t, std::size_t> TrackLayout::rowsIn(int y0, int y1) const {
    auto first =
        std::lower_bound(m_rows.begin(), m_rows.end(), y0, [](const LayoutRow& r, int v) { return r.y + r.h <= v; });
    auto last = std::lower_bound(first, m_rows.end(), y1, [](const LayoutRow& r, int v) { return r.y < v; });
    return {static_cast<std::size_t>(first - m_rows.begin()), static_cast<std::size_t>(last - m_rows.begin())};
}

std::pair<int, int> TrackLayout::trackSpan(std::uint32_t track) const {
    return track < m_trackSpan.size() ? m_trackSpan[track] : std::pair<int, int>{-1, -1};
}

int TrackLayout::rowOf(std::uint32_t track, std::uint8_t depth) const {
    if (track >= m_trackFirstRow.size() || m_trackFirstRow[track] < 0) return -1;
    const int first = m_trackFirstRow[track];
    const LayoutRow& r = m_rows[static_cast<std::size_t>(first)];
    if (r.collapsed) return first;
    const int row = first + depth;
    if (row < static_cast<int>(m_rows.size()) && m_rows[static_cast<std::size_t>(row)].track == track &&
        m_rows[static_cast<std::size_t>(row)].kind == RowKind::Lane)
        return row;
    return first;
}

int TrackLayout::rowOfCounter(std::uint32_t counter) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].kind == RowKind::Counter && m_rows[i].counter == counter) return static_cast<int>(i);
    return -1;
}

}  // namespace contend::widgets
