#pragma once
// The anomalies of a report, materialised only where they are read.
//
// A re-threshold at a low coefficient flags hundreds of thousands of operators; building an
// Anomaly for each (four strings, a breakdown, a list of windows: ~300 bytes and two heap
// blocks) was most of a slider step at 1M operators, though a view shows a few dozen rows. So a
// report built from a prepared analysis holds a view over the prepared rows (score order, the
// report's anomalies are a prefix of them): the compact per-anomaly fields are read straight
// from the rows (score(k), slice(k), cause(k), ...: what summaries, overlays and the what-if
// need), and a full Anomaly is built on the first read of operator[] for its block of
// kChunk anomalies, then kept (a JSON export that walks all of them pays what it paid before,
// once). A report read from JSON, or built by hand, owns a plain vector instead; both read the
// same.
//
// Reads are const and thread-safe (each block is filled once, under std::call_once). Writes go
// through setGain / setSlack (kept beside the rows, no materialisation) or edit(), which turns
// the list into a plain owned vector first.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/model/anomaly.h"

namespace contend {

// What a prepared analysis keeps per operator that can be an anomaly, in score order.
struct AnomalyRow {
    std::uint32_t op = 0;
    std::uint32_t slice = 0;
    std::uint32_t signature = 0;
    std::uint32_t track = 0;
    std::uint32_t iteration = kNone;  // index into the report's iterations, kNone outside all
    StringId name = 0;
    Resource cause = Resource::Unknown;
    Provenance provenance = Provenance::Unknown;
    double score = 0;
    TimeNs baselineNs = 0;  // its signature's
    TimeNs excessNs = 0;
    TimeNs startNs = 0;
    TimeNs durNs = 0;
    Breakdown breakdown;
};

static_assert(sizeof(AnomalyRow) <= 120, "memory_estimate.h counts 120 bytes per row");

// An anomaly's texts as views (into the trace, the prepared analysis or the list's own anomaly),
// valid as long as the list is and unchanged.
struct AnomalyText {
    std::string_view name, pid, tid, trackLabel, evidence;
};

// Builds the full Anomaly of row k (everything except `windows`, `gainNs` and `slackNs`, which
// the list adds). Implemented by the engine; keeps what it reads alive.
class AnomalySource {
  public:
    virtual ~AnomalySource() = default;
    virtual void fill(std::size_t k, Anomaly& out) const = 0;
    // Row k's texts, as fill() would copy them.
    virtual AnomalyText text(std::size_t k) const = 0;
};

// The windows each anomaly was in, as (anomaly index, window id) pairs sorted by anomaly index,
// each anomaly's ids in the order to list them; built on first call (a lazy window list's
// source, window_list.h: the memberships come with the windows).
class WindowMembership {
  public:
    virtual ~WindowMembership() = default;
    virtual const std::vector<std::pair<std::uint32_t, std::uint32_t>>& windowsOf() const = 0;
};

class AnomalyList {
  public:
    static constexpr std::size_t kChunk = 64;

    AnomalyList() = default;
    AnomalyList(std::vector<Anomaly> owned) : m_owned(std::move(owned)) {}  // NOLINT: a vector reads as a list
    AnomalyList(std::initializer_list<Anomaly> owned) : m_owned(owned) {}
    // The first `count` rows of `rows` (owned by `source`); `windowsOf` holds (anomaly index,
    // window id) pairs sorted by anomaly index, each anomaly's ids in the order to list them.
    AnomalyList(std::shared_ptr<const AnomalySource> source, const AnomalyRow* rows, std::size_t count,
                std::vector<std::pair<std::uint32_t, std::uint32_t>> windowsOf);
    // The same, with the memberships read from `membership` when first needed.
    AnomalyList(std::shared_ptr<const AnomalySource> source, const AnomalyRow* rows, std::size_t count,
                std::shared_ptr<const WindowMembership> membership);
    AnomalyList(const AnomalyList& o);
    AnomalyList& operator=(const AnomalyList& o);
    AnomalyList(AnomalyList&&) noexcept = default;
    AnomalyList& operator=(AnomalyList&&) noexcept = default;
    ~AnomalyList() = default;

    bool lazy() const { return m_rows != nullptr; }
    std::size_t size() const { return m_rows ? m_count : m_owned.size(); }
    bool empty() const { return size() == 0; }

    // The full anomaly (built on first read when lazy; the reference stays valid until the list
    // is changed).
    const Anomaly& operator[](std::size_t k) const { return m_rows ? materialised(k) : m_owned[k]; }
    const Anomaly& front() const { return (*this)[0]; }
    const Anomaly& back() const { return (*this)[size() - 1]; }

    // Compact fields, never materialising.
    std::uint32_t slice(std::size_t k) const { return m_rows ? m_rows[k].slice : m_owned[k].slice; }
    std::uint32_t signature(std::size_t k) const { return m_rows ? m_rows[k].signature : m_owned[k].signature; }
    std::uint32_t track(std::size_t k) const { return m_rows ? m_rows[k].track : m_owned[k].track; }
    double score(std::size_t k) const { return m_rows ? m_rows[k].score : m_owned[k].score; }
    TimeNs excessNs(std::size_t k) const { return m_rows ? m_rows[k].excessNs : m_owned[k].excessNs; }
    TimeNs startNs(std::size_t k) const { return m_rows ? m_rows[k].startNs : m_owned[k].startNs; }
    TimeNs durNs(std::size_t k) const { return m_rows ? m_rows[k].durNs : m_owned[k].durNs; }
    Resource cause(std::size_t k) const { return m_rows ? m_rows[k].cause : m_owned[k].cause; }
    Provenance provenance(std::size_t k) const { return m_rows ? m_rows[k].provenance : m_owned[k].provenance; }
    TimeNs baselineNs(std::size_t k) const { return m_rows ? m_rows[k].baselineNs : m_owned[k].baselineNs; }
    TimeNs gainNs(std::size_t k) const { return m_rows ? (m_gain.empty() ? -1 : m_gain[k]) : m_owned[k].gainNs; }
    TimeNs slackNs(std::size_t k) const { return m_rows ? (m_slack.empty() ? -1 : m_slack[k]) : m_owned[k].slackNs; }
    std::uint32_t id(std::size_t k) const { return m_rows ? static_cast<std::uint32_t>(k) : m_owned[k].id; }
    const Breakdown& breakdown(std::size_t k) const { return m_rows ? m_rows[k].breakdown : m_owned[k].breakdown; }
    AnomalyText text(std::size_t k) const;
    std::size_t windowCount(std::size_t k) const;
    // Calls fn(k, id) for each window each anomaly k was in: by anomaly, each one's in order.
    template <typename Fn>
    void forEachMembership(Fn fn) const {
        if (!m_rows) {
            for (std::size_t k = 0; k < m_owned.size(); ++k)
                for (const std::uint32_t id : m_owned[k].windows) fn(k, id);
            return;
        }
        for (const auto& [k, id] : windowsOf())
            if (k < m_count) fn(std::size_t{k}, id);
    }
    // Calls fn(id) for each window anomaly k was in, in order.
    template <typename Fn>
    void forEachWindow(std::size_t k, Fn fn) const {
        if (!m_rows) {
            for (const std::uint32_t id : m_owned[k].windows) fn(id);
            return;
        }
        const auto& of = windowsOf();
        for (auto it = firstWindow(k); it != of.end() && it->first == k; ++it) fn(it->second);
    }

    // The what-if's results, stored beside the rows when lazy.
    void setGain(std::size_t k, TimeNs ns);
    void setSlack(std::size_t k, TimeNs ns);

    // A plain vector to change freely (materialises everything first when lazy).
    std::vector<Anomaly>& edit();
    Anomaly& edit(std::size_t k) { return edit()[k]; }
    void push_back(Anomaly a) { edit().push_back(std::move(a)); }
    void clear() { *this = AnomalyList(); }
    void resize(std::size_t n) { edit().resize(n); }
    void reserve(std::size_t n) { edit().reserve(n); }

    class const_iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Anomaly;
        using difference_type = std::ptrdiff_t;
        using pointer = const Anomaly*;
        using reference = const Anomaly&;
        const_iterator() = default;
        const_iterator(const AnomalyList* list, std::ptrdiff_t i) : m_list(list), m_i(i) {}
        reference operator*() const { return (*m_list)[static_cast<std::size_t>(m_i)]; }
        pointer operator->() const { return &**this; }
        reference operator[](difference_type d) const { return (*m_list)[static_cast<std::size_t>(m_i + d)]; }
        const_iterator& operator++() { return ++m_i, *this; }
        const_iterator operator++(int) { return {m_list, m_i++}; }
        const_iterator& operator--() { return --m_i, *this; }
        const_iterator operator--(int) { return {m_list, m_i--}; }
        const_iterator& operator+=(difference_type d) { return m_i += d, *this; }
        const_iterator& operator-=(difference_type d) { return m_i -= d, *this; }
        friend const_iterator operator+(const_iterator a, difference_type d) { return a += d; }
        friend const_iterator operator+(difference_type d, const_iterator a) { return a += d; }
        friend const_iterator operator-(const_iterator a, difference_type d) { return a -= d; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) { return a.m_i - b.m_i; }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_i == b.m_i; }
        friend bool operator!=(const const_iterator& a, const const_iterator& b) { return a.m_i != b.m_i; }
        friend bool operator<(const const_iterator& a, const const_iterator& b) { return a.m_i < b.m_i; }
        friend bool operator>(const const_iterator& a, const const_iterator& b) { return a.m_i > b.m_i; }
        friend bool operator<=(const const_iterator& a, const const_iterator& b) { return a.m_i <= b.m_i; }
        friend bool operator>=(const const_iterator& a, const const_iterator& b) { return a.m_i >= b.m_i; }

      private:
        const AnomalyList* m_list = nullptr;
        std::ptrdiff_t m_i = 0;
    };
    // Read-only iteration, also on a non-const list (it must not materialise into a vector by
    // accident; use edit() to change anomalies in a loop).
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, static_cast<std::ptrdiff_t>(size())}; }

    // How many anomalies have been built so far (for tests and benchmarks).
    std::size_t materialisedCount() const;

  private:
    struct Cache {
        explicit Cache(std::size_t chunks);
        std::unique_ptr<std::once_flag[]> once;
        std::unique_ptr<std::unique_ptr<Anomaly[]>[]> chunks;
        std::size_t count = 0;
    };
    const Anomaly& materialised(std::size_t k) const;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>::const_iterator firstWindow(std::size_t k) const;
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& windowsOf() const {
        return m_membership ? m_membership->windowsOf() : m_windowsOf;
    }
    void build(std::size_t k, Anomaly& out) const;

    std::vector<Anomaly> m_owned;
    // Lazy: the source's rows, their count, memberships, the what-if's results (empty: none
    // set, all -1) and the blocks built so far.
    std::shared_ptr<const AnomalySource> m_source;
    const AnomalyRow* m_rows = nullptr;
    std::size_t m_count = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_windowsOf;
    std::shared_ptr<const WindowMembership> m_membership;  // instead of m_windowsOf when set
    std::vector<TimeNs> m_gain, m_slack;
    std::unique_ptr<Cache> m_cache;
};

}  // namespace contend
