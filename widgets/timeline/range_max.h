#pragma once
// Maximum over any index range of a fixed array: the array in blocks of 32, a sparse table
// (log2 levels of pairwise maxima) over the blocks' maxima, and a scan of the two partial blocks
// at the ends. Built in O(n) time and O(n/32 log n) extra memory, answered in O(1) plus at most
// 64 reads. Used to colour a folded mark by the highest anomaly score it hides without walking
// the operators it folds; rebuilt per report, so the build is what a slider step pays (a
// sparse table over every value wrote 4 log2(n) bytes a value: 17 MB for 240k anomalies).
#include <cstdint>
#include <vector>

namespace contend::widgets {

class RangeMax {
  public:
    RangeMax() = default;
    explicit RangeMax(std::vector<float> values);

    std::size_t size() const { return m_values.size(); }
    // Index of the maximum of values[begin, end) (the leftmost of equal ones); `end` is clamped
    // to size(). Empty range -> -1.
    std::int64_t argmax(std::size_t begin, std::size_t end) const;

    static constexpr std::size_t kBlock = 32;

  private:
    // Leftmost index of the maximum in [begin, end), begin < end.
    std::uint32_t scan(std::size_t begin, std::size_t end) const;
    // The better of two indices (the left one on a tie; `a` < `b` by position).
    std::uint32_t better(std::uint32_t a, std::uint32_t b) const { return m_values[b] > m_values[a] ? b : a; }

    std::vector<float> m_values;
    // m_levels[k][i] = index (into m_values) of the max of blocks [i, i + 2^k).
    std::vector<std::vector<std::uint32_t>> m_levels;
};

}  // namespace contend::widgets
