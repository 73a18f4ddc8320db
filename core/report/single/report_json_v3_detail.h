#pragma once
// The report/3 and /4 writer's private parts (report_json_v3.cpp): the document's table of texts,
// report/4's table of slice times, the breakdown parts and which of the anomalies' columns can be
// left out, whether a score can be written as a 32-bit float, and whether the anomalies' windows
// follow from the windows' operators.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/analysis/model/anomaly_list.h"
#include "core/analysis/model/report.h"
#include "core/common/radix_sort.h"
#include "core/trace/types.h"

namespace contend::v3detail {

// The document's `strings`: each text once, numbered in the order first used.
class TextTable {
  public:
    std::uint64_t index(std::string_view s) {
        auto it = m_index.find(s);
        if (it != m_index.end()) return it->second;
        m_all.emplace_back(s);
        m_index.emplace(m_all.back(), m_all.size() - 1);
        return m_all.size() - 1;
    }
    // index(s) for a text whose bytes stay where they are while the table is in use (a
    // SharedText's block, a name kept by the report or the trace, a static name): looked up by
    // its address in a small direct-mapped cache before its bytes are hashed. A window
    // operator's name, pid and tid and every row's cause are a few such texts repeated hundreds
    // of thousands of times. Never for a temporary: another text could later sit at its address.
    std::uint64_t indexStable(std::string_view s) {
        Slot& slot = m_slots[(reinterpret_cast<std::uintptr_t>(s.data()) >> 4) % m_slots.size()];
        if (slot.data == s.data() && slot.size == s.size() && slot.data != nullptr) return slot.index;
        const std::uint64_t i = index(s);
        slot = {s.data(), s.size(), i};
        return i;
    }
    const std::vector<std::string>& all() const { return m_all; }

  private:
    struct Slot {
        const char* data = nullptr;
        std::size_t size = 0;
        std::uint64_t index = 0;
    };
    std::array<Slot, 256> m_slots{};
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::uint64_t, Hash, std::equal_to<>> m_index;
    std::vector<std::string> m_all;
};

// report/4's `slices`: each slice the findings name with the start and duration first given for
// it. A slice index is looked up in a vector when they are dense (the engine's: < 2^32 slices of
// one trace), in a hash map when they are not (a report built by hand).
class SliceTimes {
  public:
    struct Row {
        std::uint32_t slice;
        TimeNs start, dur;
    };
    SliceTimes(std::uint32_t maxSlice, std::size_t refs) : m_dense(maxSlice <= 8 * refs + 4096) {
        if (m_dense) m_pos.assign(std::size_t{maxSlice} + 1, kAbsent);
        m_rows.reserve(refs);  // room only: pages are touched as rows come
    }
    // False when the slice is there already with other times.
    bool add(std::uint32_t slice, TimeNs start, TimeNs dur) {
        std::uint32_t& p = m_dense ? m_pos[slice] : m_sparse.try_emplace(slice, kAbsent).first->second;
        if (p == kAbsent) {
            p = static_cast<std::uint32_t>(m_rows.size());
            m_rows.push_back({slice, start, dur});
            return true;
        }
        return m_rows[p].start == start && m_rows[p].dur == dur;
    }
    // The rows by slice: row(order()[i]) is the i-th (an index each, not a copy of the rows).
    std::vector<std::uint32_t> order() const {
        std::vector<std::uint32_t> out;
        out.reserve(m_rows.size());
        if (m_dense) {
            for (const std::uint32_t p : m_pos)
                if (p != kAbsent) out.push_back(p);
        } else {
            out.resize(m_rows.size());
            std::iota(out.begin(), out.end(), 0u);
            std::sort(out.begin(), out.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return m_rows[a].slice < m_rows[b].slice; });
        }
        return out;
    }
    const Row& row(std::uint32_t i) const { return m_rows[i]; }

  private:
    static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
    bool m_dense;
    std::vector<std::uint32_t> m_pos;
    std::unordered_map<std::uint32_t, std::uint32_t> m_sparse;
    std::vector<Row> m_rows;
};

// The anomalies' breakdown parts as report/3 and /4 write them, a column each.
struct BreakdownPart {
    const char* key;
    TimeNs Breakdown::*ns;
    bool Breakdown::*flag;
};
inline constexpr std::array<BreakdownPart, 8> kBreakdownParts{{{"compute_ns", &Breakdown::computeNs, nullptr},
                                                               {"data_wait_ns", &Breakdown::dataWaitNs, nullptr},
                                                               {"queue_ns", &Breakdown::queueNs, nullptr},
                                                               {"sync_ns", &Breakdown::syncNs, nullptr},
                                                               {"measured_data", nullptr, &Breakdown::measuredData},
                                                               {"measured_queue", nullptr, &Breakdown::measuredQueue},
                                                               {"measured_sync", nullptr, &Breakdown::measuredSync},
                                                               {"wait_before_ns", &Breakdown::waitBeforeNs, nullptr}}};

// Whether part i of a breakdown of an operator `dur` long is its default, left to the reader: 0,
// false, not known (wait_before_ns < 0); in report/4 compute_ns is the duration less the other
// three parts.
inline bool isDefaultPart(std::size_t i, const Breakdown& b, TimeNs dur, bool v4) {
    const BreakdownPart& p = kBreakdownParts[i];
    if (v4 && p.ns == &Breakdown::computeNs) return b.computeNs == dur - b.dataWaitNs - b.queueNs - b.syncNs;
    if (p.flag) return !(b.*p.flag);
    return p.ns == &Breakdown::waitBeforeNs ? b.waitBeforeNs < 0 : b.*p.ns == 0;
}

// Which of the anomalies' columns and breakdown parts can be left out (each test holds for every
// row), found in one pass over the rows: a pass per test read the whole row table (120 bytes a
// row, 438k rows at coefficient 0.5 on 1M Kineto kernels) a dozen times and more.
struct AnomalyChecks {
    bool ids = true;        // every id is its index
    bool names = true;      // every name is its signature's
    bool threads = true;    // every pid, tid and label is its thread's
    bool baselines = true;  // every baseline is its signature's
    bool excess = true;     // every excess is the duration less the baseline
    bool float32 = true;    // every score reads back from its shortest float text
    bool noEvidence = true;
    bool noGain = true;
    bool noSlack = true;
    std::array<bool, kBreakdownParts.size()> defaultPart{};  // the part is its default in every row
};

// Whether a score is a 32-bit float whose shortest decimal, read as a double and rounded to a
// float (as the reader does), gives it back: report/4's `score_f32`.
inline bool isFloat32(double v) {
    const auto f = static_cast<float>(v);
    if (!std::isfinite(f) || static_cast<double>(f) != v) return false;
    char buf[48];
    const auto w = std::to_chars(buf, buf + sizeof buf, f);
    double back = 0;
    const auto r = std::from_chars(buf, w.ptr, back);
    return r.ec == std::errc() && static_cast<float>(back) == f;
}

// The checks, in one pass over the rows: text(k) gives row k's name, pid, tid, label and dur
// (as the writer reads them), signature(sig) its signature's stats (null when none), and
// fromThread(track, text) whether its pid, tid and label are its thread's.
template <typename Text, typename Signature, typename FromThread>
AnomalyChecks checkAnomalies(const AnomalyList& list, bool v4, const Text& text, const Signature& signature,
                             const FromThread& fromThread) {
    AnomalyChecks c;
    c.defaultPart.fill(true);
    c.float32 = v4;
    for (std::size_t k = 0; k < list.size(); ++k) {
        const auto x = text(k);
        const SignatureStats* sig = signature(list.signature(k));
        c.ids = c.ids && list.id(k) == k;
        c.names = c.names && sig && sig->name == x.name;
        c.threads = c.threads && fromThread(list.track(k), x);
        c.baselines = c.baselines && sig && sig->baselineNs == list.baselineNs(k);
        c.excess = c.excess && list.excessNs(k) == x.dur - list.baselineNs(k);
        c.float32 = c.float32 && isFloat32(list.score(k));
        c.noEvidence = c.noEvidence && list.text(k).evidence.empty();
        c.noGain = c.noGain && list.gainNs(k) < 0;
        c.noSlack = c.noSlack && list.slackNs(k) < 0;
        for (std::size_t i = 0; i < kBreakdownParts.size(); ++i)
            c.defaultPart[i] = c.defaultPart[i] && isDefaultPart(i, list.breakdown(k), x.dur, v4);
    }
    return c;
}

// Whether each anomaly k's windows, in order, are exactly ids[at[k]], ids[at[k] + 1], ... (left[k]
// of them: its slice's ids); `at` and `left` are used up.
inline bool membershipsMatch(const AnomalyList& list, const std::vector<std::uint32_t>& ids,
                             std::vector<std::uint32_t>& at, std::vector<std::uint32_t>& left) {
    bool same = true;
    list.forEachMembership([&](std::size_t k, std::uint32_t id) {
        if (!same || left[k] == 0 || ids[at[k]] != id) {
            same = false;
            return;
        }
        ++at[k];
        --left[k];
    });
    return same && std::all_of(left.begin(), left.end(), [](std::uint32_t l) { return l == 0; });
}

// Whether every anomaly's windows are the ids of the windows whose operators hold its slice, in
// window order; operator i of every window's, one after the other, holds slice opSlice[i] and is
// in window opWindow[i]. Linear after two radix sorts: the operators by slice give each slice
// its ids, the anomalies by slice find their range of them, and the memberships are matched
// against it in one pass.
//
// When the slices are dense (the engine's: below 8 per operator and anomaly), the operators'
// ids are put in slice order by a counting sort instead, and each anomaly finds its slice's
// range directly, without sorting the anomalies.
inline bool windowsFollowOpsDense(const AnomalyList& list, const std::vector<std::uint32_t>& opSlice,
                                  const std::vector<std::uint32_t>& opWindow, std::uint32_t maxSlice) {
    const std::size_t n = list.size();
    // Each slice's ids from first[slice] to end[slice], in window order (a stable counting sort
    // of the operators, which come in window order), a window once when consecutive operators
    // share it.
    std::vector<std::uint32_t> first(std::size_t{maxSlice} + 1, 0);
    for (const std::uint32_t s : opSlice)
        if (s < maxSlice) ++first[s + 1];
    for (std::size_t s = 1; s < first.size(); ++s) first[s] += first[s - 1];
    std::vector<std::uint32_t> ids(opSlice.size()), end(first);
    for (std::size_t i = 0; i < opSlice.size(); ++i) {
        const std::uint32_t s = opSlice[i];
        if (end[s] > first[s] && ids[end[s] - 1] == opWindow[i]) continue;
        ids[end[s]++] = opWindow[i];
    }
    std::vector<std::uint32_t> at(n), left(n);  // each anomaly's next id, and how many it has still to match
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t s = list.slice(k);
        if (s > maxSlice) continue;  // no operator holds it: no window either
        at[k] = first[s];
        left[k] = end[s] - first[s];
    }
    return membershipsMatch(list, ids, at, left);
}

inline bool windowsFollowOps(const AnomalyList& list, const std::vector<std::uint32_t>& opSlice,
                             const std::vector<std::uint32_t>& opWindow) {
    const std::size_t n = list.size();
    std::uint32_t maxSlice = 0;
    for (const std::uint32_t s : opSlice) maxSlice = std::max(maxSlice, s);
    if (!opSlice.empty() && maxSlice <= 8 * (opSlice.size() + n) + 4096)
        return windowsFollowOpsDense(list, opSlice, opWindow, maxSlice);
    std::vector<std::uint64_t> keys, scratch;
    keys.reserve(opSlice.size());
    for (std::size_t i = 0; i < opSlice.size(); ++i) keys.push_back(std::uint64_t{opSlice[i]} << 32 | i);
    radixSort(keys, scratch);
    // Each slice's ids in window order, a window once when consecutive operators share it.
    std::vector<std::uint32_t> ids, idSlice;
    ids.reserve(keys.size());
    idSlice.reserve(keys.size());
    for (std::size_t j = 0; j < keys.size(); ++j) {
        const auto slice = static_cast<std::uint32_t>(keys[j] >> 32);
        const std::uint32_t id = opWindow[keys[j] & 0xffffffffu];
        if (!ids.empty() && idSlice.back() == slice && ids.back() == id) continue;
        ids.push_back(id);
        idSlice.push_back(slice);
    }
    keys.clear();
    keys.reserve(n);
    for (std::size_t k = 0; k < n; ++k) keys.push_back(std::uint64_t{list.slice(k)} << 32 | k);
    radixSort(keys, scratch);
    std::vector<std::uint32_t> lo(n), left(n);  // each anomaly's first id, and how many it has still to match
    std::size_t j = 0;
    for (const std::uint64_t key : keys) {
        const auto slice = static_cast<std::uint32_t>(key >> 32);
        const std::size_t k = key & 0xffffffffu;
        while (j < idSlice.size() && idSlice[j] < slice) ++j;
        std::size_t h = j;
        while (h < idSlice.size() && idSlice[h] == slice) ++h;
        lo[k] = static_cast<std::uint32_t>(j);
        left[k] = static_cast<std::uint32_t>(h - j);
    }
    return membershipsMatch(list, ids, lo, left);
}

}  // namespace contend::v3detail
