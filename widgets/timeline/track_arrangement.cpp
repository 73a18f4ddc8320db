#include "widgets/timeline/track_arrangement.h"

#include <algorithm>
#include <cctype>

namespace contend::widgets {

namespace {
std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}
}  // namespace

TrackArrangement::TrackArrangement(const Trace& trace) : m_order(trace.trackOrder()) {}

bool TrackArrangement::matches(const Trace& trace, std::uint32_t track) const {
    if (track >= trace.tracks().size()) return false;
    const Track& t = trace.tracks()[track];
    if (m_filter.deviceOnly && t.kind != TrackKind::DeviceStream) return false;
    if (m_filter.text.empty()) return true;
    const std::string needle = lower(m_filter.text);
    return lower(t.label()).find(needle) != std::string::npos || lower(t.processName).find(needle) != std::string::npos;
}

std::uint32_t TrackArrangement::notShownCount(const Trace& trace, const std::vector<std::uint32_t>& candidates) const {
    std::uint32_t n = 0;
    for (std::uint32_t t : candidates) n += shown(trace, t) ? 0 : 1;
    return n;
}

bool TrackArrangement::setPinned(std::uint32_t track, bool pinned) {
    if (pinned) return m_pinned.insert(track).second;
    return m_pinned.erase(track) > 0;
}

bool TrackArrangement::setHidden(std::uint32_t track, bool hidden) {
    if (hidden) return m_hidden.insert(track).second;
    return m_hidden.erase(track) > 0;
}

bool TrackArrangement::setCounterPinned(std::uint32_t counter, bool pinned) {
    if (pinned) return m_pinnedCounters.insert(counter).second;
    return m_pinnedCounters.erase(counter) > 0;
}

bool TrackArrangement::setCounterHidden(std::uint32_t counter, bool hidden) {
    if (hidden) return m_hiddenCounters.insert(counter).second;
    return m_hiddenCounters.erase(counter) > 0;
}

bool TrackArrangement::setFilter(const TrackFilter& filter) {
    if (filter == m_filter) return false;
    m_filter = filter;
    return true;
}

bool TrackArrangement::showAll() {
    const bool changed = !m_hidden.empty() || !m_hiddenCounters.empty() || m_filter.active();
    m_hidden.clear();
    m_hiddenCounters.clear();
    m_filter = TrackFilter();
    return changed;
}

int TrackArrangement::neighbour(const Trace& trace, std::uint32_t track, int step) const {
    const auto it = std::find(m_order.begin(), m_order.end(), track);
    if (it == m_order.end() || step == 0 || !shown(trace, track)) return -1;
    const bool pinned = isPinned(track);
    const TrackKind kind = trace.tracks()[track].kind;
    // The same section: the pinned tracks together, else the track's kind (its group).
    auto sameSection = [&](std::uint32_t other) {
        if (isPinned(other) != pinned || !shown(trace, other)) return false;
        return pinned || trace.tracks()[other].kind == kind;
    };
    auto i = static_cast<int>(it - m_order.begin());
    const int n = static_cast<int>(m_order.size());
    for (i += step; i >= 0 && i < n; i += step)
        if (sameSection(m_order[static_cast<std::size_t>(i)])) return i;
    return -1;
}

bool TrackArrangement::canMove(const Trace& trace, std::uint32_t track, int step) const {
    return neighbour(trace, track, step) >= 0;
}

bool TrackArrangement::move(const Trace& trace, std::uint32_t track, int step) {
    const int other = neighbour(trace, track, step);
    if (other < 0) return false;
    const auto self = std::find(m_order.begin(), m_order.end(), track);
    std::iter_swap(self, m_order.begin() + other);
    return true;
}

void TrackArrangement::setOrder(const std::vector<std::uint32_t>& order) {
    std::vector<std::uint32_t> next;
    std::vector<char> seen(m_order.size(), 0);
    // Only the ids this arrangement has (it holds every track of its trace once).
    std::vector<char> known(m_order.size(), 0);
    for (std::uint32_t t : m_order)
        if (t < known.size()) known[t] = 1;
    for (std::uint32_t t : order)
        if (t < known.size() && known[t] && !seen[t]) seen[t] = 1, next.push_back(t);
    for (std::uint32_t t : m_order)
        if (t < seen.size() && !seen[t]) next.push_back(t);
    m_order = std::move(next);
}

}  // namespace contend::widgets
