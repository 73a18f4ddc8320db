#include "widgets/timeline/range_max.h"

#include <algorithm>
#include <bit>

namespace contend::widgets {

RangeMax::RangeMax(std::vector<float> values) : m_values(std::move(values)) {
    const std::size_t n = m_values.size();
    if (n == 0) return;
    m_levels.emplace_back(n);
    for (std::size_t i = 0; i < n; ++i) m_levels[0][i] = static_cast<std::uint32_t>(i);
    for (std::size_t k = 1; (std::size_t{1} << k) <= n; ++k) {
        const std::size_t half = std::size_t{1} << (k - 1);
        const auto& prev = m_levels[k - 1];
        std::vector<std::uint32_t> cur(n - (std::size_t{1} << k) + 1);
        for (std::size_t i = 0; i < cur.size(); ++i) {
            const std::uint32_t a = prev[i], b = prev[i + half];
            cur[i] = m_values[b] > m_values[a] ? b : a;
        }
        m_levels.push_back(std::move(cur));
    }
}

std::int64_t RangeMax::argmax(std::size_t begin, std::size_t end) const {
    end = std::min(end, m_values.size());
    if (begin >= end) return -1;
    const std::size_t len = end - begin;
    const unsigned k = static_cast<unsigned>(std::bit_width(len) - 1);
    const std::uint32_t a = m_levels[k][begin];
    const std::uint32_t b = m_levels[k][end - (std::size_t{1} << k)];
    return m_values[b] > m_values[a] ? b : a;
}

}  // namespace contend::widgets
