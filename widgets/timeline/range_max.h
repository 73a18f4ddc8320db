#pragma once
// Maximum over any index range of a fixed array in O(1): a sparse table (log2(n) levels of
// pairwise maxima). Used to colour a folded mark by the highest anomaly score it hides without
// walking the operators it folds.
#include <cstdint>
#include <vector>

namespace contend::widgets {

class RangeMax {
  public:
    RangeMax() = default;
    explicit RangeMax(std::vector<float> values);

    std::size_t size() const { return m_levels.empty() ? 0 : m_levels[0].size(); }
    // Index of the maximum of values[begin, end); `end` is clamped to size(). Empty range -> -1.
    std::int64_t argmax(std::size_t begin, std::size_t end) const;

  private:
    // m_levels[k][i] = index of the max of values[i, i + 2^k).
    std::vector<std::vector<std::uint32_t>> m_levels;
    std::vector<float> m_values;
};

}  // namespace contend::widgets
