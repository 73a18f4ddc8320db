#pragma once
// Which tracks the timeline shows and in what order (pure, no Qt), after Perfetto's and Nsight
// Systems' track controls: tracks pinned to the top (they stay put while the rest scrolls),
// tracks hidden one by one, tracks moved up or down among their neighbours, and a filter that
// keeps the tracks whose name or process matches a text, or device streams only. TrackLayout
// builds its rows from it; the session file saves it with each track named by pid and tid.
//
// Move Up / Move Down swap a track with the previous / next track the user sees in the same
// section: the pinned tracks, or the track's group (device streams, host threads, other).
// Hidden and filtered-out tracks are skipped, so a move always changes what is on screen.
//
// Counter tracks (Trace::counters(), by index) pin and hide as the other tracks do: a pinned
// counter goes to the pinned section after the pinned tracks, a hidden one is left out and
// counted with the hidden tracks, and Show All brings it back. They keep the trace's order and
// the filter leaves them alone.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace contend::widgets {

struct TrackFilter {
    std::string text;         // case-insensitive, in the track's label or its process name
    bool deviceOnly = false;  // device streams only (counters stay)
    bool active() const { return !text.empty() || deviceOnly; }
    friend bool operator==(const TrackFilter& a, const TrackFilter& b) {
        return a.text == b.text && a.deviceOnly == b.deviceOnly;
    }
};

class TrackArrangement {
  public:
    TrackArrangement() = default;
    // The trace's own order (Trace::trackOrder(): device streams first), nothing pinned or hidden.
    explicit TrackArrangement(const Trace& trace);

    // Every track of the trace once, in the user's order.
    const std::vector<std::uint32_t>& order() const { return m_order; }
    bool isPinned(std::uint32_t track) const { return m_pinned.count(track) > 0; }
    bool isHidden(std::uint32_t track) const { return m_hidden.count(track) > 0; }
    const std::set<std::uint32_t>& pinned() const { return m_pinned; }
    const std::set<std::uint32_t>& hidden() const { return m_hidden; }
    const TrackFilter& filter() const { return m_filter; }
    bool isCounterPinned(std::uint32_t counter) const { return m_pinnedCounters.count(counter) > 0; }
    bool isCounterHidden(std::uint32_t counter) const { return m_hiddenCounters.count(counter) > 0; }
    const std::set<std::uint32_t>& pinnedCounters() const { return m_pinnedCounters; }
    const std::set<std::uint32_t>& hiddenCounters() const { return m_hiddenCounters; }

    // Whether the filter keeps the track (hidden or not).
    bool matches(const Trace& trace, std::uint32_t track) const;
    // Not hidden and kept by the filter.
    bool shown(const Trace& trace, std::uint32_t track) const { return !isHidden(track) && matches(trace, track); }
    // Tracks among `candidates` (the ones with slices) that are not shown, hidden or filtered out.
    std::uint32_t notShownCount(const Trace& trace, const std::vector<std::uint32_t>& candidates) const;

    // Each returns whether anything changed.
    bool setPinned(std::uint32_t track, bool pinned);
    bool setHidden(std::uint32_t track, bool hidden);
    bool setFilter(const TrackFilter& filter);
    bool setCounterPinned(std::uint32_t counter, bool pinned);
    bool setCounterHidden(std::uint32_t counter, bool hidden);
    // Unhides every track and counter and clears the filter; pins and order stay.
    bool showAll();
    // `step` -1 (up) or +1 (down) among the tracks shown in the track's section (see above).
    bool move(const Trace& trace, std::uint32_t track, int step);
    // Whether move(track, step) would change anything.
    bool canMove(const Trace& trace, std::uint32_t track, int step) const;
    // A whole order (a saved session's): tracks it leaves out keep their relative order after it;
    // unknown or repeated ids are dropped.
    void setOrder(const std::vector<std::uint32_t>& order);

    friend bool operator==(const TrackArrangement& a, const TrackArrangement& b) {
        return a.m_order == b.m_order && a.m_pinned == b.m_pinned && a.m_hidden == b.m_hidden &&
               a.m_filter == b.m_filter && a.m_pinnedCounters == b.m_pinnedCounters &&
               a.m_hiddenCounters == b.m_hiddenCounters;
    }

  private:
    int neighbour(const Trace& trace, std::uint32_t track, int step) const;  // index into m_order, -1 if none

    std::vector<std::uint32_t> m_order;
    std::set<std::uint32_t> m_pinned;
    std::set<std::uint32_t> m_hidden;
    TrackFilter m_filter;
    std::set<std::uint32_t> m_pinnedCounters;  // indices into Trace::counters()
    std::set<std::uint32_t> m_hiddenCounters;
};

}  // namespace contend::widgets
