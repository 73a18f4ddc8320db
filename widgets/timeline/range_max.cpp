#include "widgets/timeline/range_max.h"

#include <algorithm>
#include <bit>

namespace contend::widgets {

RangeMax::RangeMax(std::vector<float> values) : m_values(std::move(values)) {
    const std::size_t n = m_values.size();
    if (n == 0) return;
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<std::uint32_t> first(blocks);
    for (std::size_t b = 0; b < blocks; ++b) first[b] = scan(b * kBlock, std::min(n, (b + 1) * kBlock));
    m_levels.push_back(std::move(first));
    for (std::size_t k = 1; (std::size_t{1} << k) <= blocks; ++k) {
        const std::size_t half = std::size_t{1} << (k - 1);
        const auto& prev = m_levels[k - 1];
        std::vector<std::uint32_t> cur(blocks - (std::size_t{1} << k) + 1);
        for (std::size_t i = 0; i < cur.size(); ++i) cur[i] = better(prev[i], prev[i + half]);
        m_levels.push_back(std::move(cur));
    }
}

std::uint32_t RangeMax::scan(std::size_t begin, std::size_t end) const {
    std::size_t best = begin;
    for (std::size_t i = begin + 1; i < end; ++i)
        if (m_values[i] > m_values[best]) best = i;
    return static_cast<std::uint32_t>(best);
}

std::int64_t RangeMax::argmax(std::size_t begin, std::size_t end) const {
    end = std::min(end, m_values.size());
    if (begin >= end) return -1;
    const std::size_t firstFull = (begin + kBlock - 1) / kBlock;  // blocks wholly inside
    const std::size_t lastFull = end / kBlock;                    // [firstFull, lastFull)
    if (firstFull >= lastFull) return scan(begin, end);           // within two blocks: <= 64 reads
    std::int64_t best = -1;
    auto take = [&](std::uint32_t k) { best = best < 0 ? k : better(static_cast<std::uint32_t>(best), k); };
    if (begin < firstFull * kBlock) take(scan(begin, firstFull * kBlock));
    const std::size_t len = lastFull - firstFull;
    const unsigned k = static_cast<unsigned>(std::bit_width(len) - 1);
    // The two halves of the block query may overlap; the left one wins a tie.
    take(better(m_levels[k][firstFull], m_levels[k][lastFull - (std::size_t{1} << k)]));
    if (lastFull * kBlock < end) take(scan(lastFull * kBlock, end));
    return best;
}

}  // namespace contend::widgets
