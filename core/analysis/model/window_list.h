#pragma once
// A report's contention windows, built only where they are read.
//
// At a low coefficient a re-threshold qualifies hundreds of thousands of window candidates into
// tens of thousands of windows; building each window's operators (their time in it, the split of
// their excess, three strings each) and the evidence was most of a slider step at 1M operators
// (profiled: about 150 of 200 ms), though the step itself needs only how many windows there are
// and where. So a report built from a prepared analysis holds compact rows (id, resource, span,
// ratio: what a count, a search or an overlay reads), found by one pass over the candidates, and
// the full windows are built once, all together, on the first read of operator[] or of an
// iteration (the operators' shares depend on every window an operator is in, and the evidence
// goes to the windows that cost the most, so one window cannot be built alone). A report read
// from JSON, or built by hand, owns a plain vector instead; both read the same.
//
// Reads are const and thread-safe (the source builds once, under std::call_once); copies share
// what was built. Changes go through edit(), which turns the list into a plain owned vector.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/model/anomaly.h"
#include "core/common/shared_text.h"
#include "core/trace/types.h"

namespace contend {

struct WindowOp {
    std::uint32_t slice = 0;
    TimeNs extraWaitNs = 0;  // share of its excess attributed to this window
    // Slice-independent copies (see Anomaly), shared by the operators that have the same one.
    SharedText name;
    SharedText pid;
    SharedText tid;
    TimeNs startNs = 0;
    TimeNs durNs = 0;
    TimeNs slackNs = -1;  // since report/2: see Anomaly::slackNs
};

struct ContentionWindow {
    std::uint32_t id = 0;
    Resource resource = Resource::Unknown;
    TimeNs start = 0;
    TimeNs end = 0;
    double overlapRatio = 0;
    double peakUtilization = 0;  // 0..1 of the resource's capacity
    std::vector<WindowOp> ops;
    // True when resource and peak come from counters; false when the trace has no counter
    // for it and the window rests on the overlap plus the operators' measured slowdown (peak 0).
    bool fromCounters = false;
    // Measured (counters saw the resource oversubscribed) or estimated (the operators'
    // runs beside each other against their runs apart); and the evidence in words (for the
    // windows with the most extra wait; empty for the rest).
    Provenance provenance = Provenance::Estimated;
    std::string evidence;
    // Since report/2: predicted end-to-end gain of its operators shortened by the extra wait
    // they paid in it; -1 when not computed.
    TimeNs gainNs = -1;
};

// What a slider step keeps per window: the fields of its ContentionWindow that the chaining of
// the candidates decides.
struct WindowRow {
    std::uint32_t id = 0;
    Resource resource = Resource::Unknown;
    bool fromCounters = false;
    float overlapRatio = 0;  // the highest ratio of its candidates
    TimeNs start = 0;
    TimeNs end = 0;
};

// The tracks each window's operators ran on, per compact row (ascending, each once): ids
// [first[k], first[k + 1]). What the timeline shades a window over, without building it.
struct WindowTracks {
    std::vector<std::uint32_t> first;  // rows + 1
    std::vector<std::uint32_t> ids;
};

// Builds the full windows of a lazy list, once, in row order. Implemented by the engine; keeps
// what it reads alive.
class WindowSource {
  public:
    virtual ~WindowSource() = default;
    virtual const std::vector<ContentionWindow>& windows() const = 0;
    // The built windows handed to the one list that reads them, for it to own (WindowList::edit
    // when no copy of that list shares this source): a source that can moves them out and is not
    // read again; by default a copy.
    virtual std::vector<ContentionWindow> take() const { return windows(); }
    // True once windows() has been built (for tests and benchmarks).
    virtual bool built() const = 0;
};

class WindowList {
  public:
    using const_iterator = std::vector<ContentionWindow>::const_iterator;

    WindowList() = default;
    WindowList(std::vector<ContentionWindow> owned) : m_owned(std::move(owned)) {}  // NOLINT: a vector reads as a list
    WindowList(std::initializer_list<ContentionWindow> owned) : m_owned(owned) {}
    WindowList(std::shared_ptr<const WindowSource> source, std::vector<WindowRow> rows,
               std::shared_ptr<const WindowTracks> tracks = nullptr)
        : m_source(std::move(source)),
          m_rows(std::move(rows)),
          m_tracks(std::move(tracks)),
          m_readers(std::make_shared<const char>(0)) {}

    bool lazy() const { return m_source != nullptr; }
    std::size_t size() const { return m_source ? m_rows.size() : m_owned.size(); }
    bool empty() const { return size() == 0; }

    // The full window (all of them are built on the first read when lazy).
    const ContentionWindow& operator[](std::size_t k) const { return all()[k]; }
    const ContentionWindow& front() const { return (*this)[0]; }
    const ContentionWindow& back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return all().begin(); }
    const_iterator end() const { return all().end(); }

    // Compact fields, never building anything.
    std::uint32_t id(std::size_t k) const { return m_source ? m_rows[k].id : m_owned[k].id; }
    Resource resource(std::size_t k) const { return m_source ? m_rows[k].resource : m_owned[k].resource; }
    TimeNs start(std::size_t k) const { return m_source ? m_rows[k].start : m_owned[k].start; }
    TimeNs end(std::size_t k) const { return m_source ? m_rows[k].end : m_owned[k].end; }
    bool fromCounters(std::size_t k) const { return m_source ? m_rows[k].fromCounters : m_owned[k].fromCounters; }
    double overlapRatio(std::size_t k) const {
        return m_source ? static_cast<double>(m_rows[k].overlapRatio) : m_owned[k].overlapRatio;
    }

    // Whether tracks(k) answers without building the windows (a lazy list given its tracks).
    bool compactTracks() const { return m_source && m_tracks; }
    // The tracks of window k's operators, ascending; only where compactTracks().
    std::span<const std::uint32_t> tracks(std::size_t k) const {
        return {m_tracks->ids.data() + m_tracks->first[k], m_tracks->ids.data() + m_tracks->first[k + 1]};
    }

    // A plain vector to change freely (builds everything first when lazy). The built windows are
    // taken from the source when no copy of this list shares it (the what-if setting a report's
    // gains: copying every window with its operators' strings was a sixth of an analysis of 1M
    // Kineto kernels at coefficient 0.5), else copied.
    std::vector<ContentionWindow>& edit();
    ContentionWindow& edit(std::size_t k) { return edit()[k]; }
    void push_back(ContentionWindow w) { edit().push_back(std::move(w)); }
    void clear() { *this = WindowList(); }
    void resize(std::size_t n) { edit().resize(n); }
    void reserve(std::size_t n) { edit().reserve(n); }

    // True when the full windows exist (owned, or built by the source).
    bool built() const { return !m_source || m_source->built(); }

  private:
    const std::vector<ContentionWindow>& all() const { return m_source ? m_source->windows() : m_owned; }

    std::vector<ContentionWindow> m_owned;
    std::shared_ptr<const WindowSource> m_source;
    std::vector<WindowRow> m_rows;
    std::shared_ptr<const WindowTracks> m_tracks;  // shared by copies (a report copied for its gains)
    // One per lazy list, shared by its copies: how many lists read the source.
    std::shared_ptr<const char> m_readers;
};

}  // namespace contend
