#pragma once
// The report/3 and /4 writer's private parts (report_json_v3.cpp): the document's table of texts,
// report/4's table of slice times, and whether a score can be written as a 32-bit float.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

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
    const std::vector<std::string>& all() const { return m_all; }

  private:
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
    // The rows by slice.
    std::vector<Row> sorted() const {
        std::vector<Row> out;
        out.reserve(m_rows.size());
        if (m_dense) {
            for (const std::uint32_t p : m_pos)
                if (p != kAbsent) out.push_back(m_rows[p]);
        } else {
            out = m_rows;
            std::sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.slice < b.slice; });
        }
        return out;
    }

  private:
    static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
    bool m_dense;
    std::vector<std::uint32_t> m_pos;
    std::unordered_map<std::uint32_t, std::uint32_t> m_sparse;
    std::vector<Row> m_rows;
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

}  // namespace contend::v3detail
