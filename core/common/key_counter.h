#pragma once
// Counting the distinct values among millions of 64-bit keys when there are few of them: the
// partners' test counts, per signature, how many occurrences were exposed to each partner
// signature, class, serialisation and counter (a few dozen keys among millions). An
// open-addressing table that stays in cache does it in one pass, where sorting every key to count
// the runs of equal ones was a sixth of that stage on 1M Kineto kernels.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace contend {

class KeyCounter {
  public:
    using Count = std::pair<std::uint64_t, std::uint32_t>;  // a key and how many times it occurs

    // Counts `keys` and the `more` keys when given (forgetting what was counted before). The
    // all-ones key is not allowed: it marks an empty slot (the callers' keys have small kinds in
    // their high bits).
    void count(const std::vector<std::uint64_t>& keys, const std::vector<std::uint64_t>* more = nullptr) {
        m_slots.assign(kFirstSlots, {kEmpty, 0});
        m_used = 0;
        for (const std::uint64_t k : keys) ++slotOf(k).second;
        if (more)
            for (const std::uint64_t k : *more) ++slotOf(k).second;
        m_sorted.clear();
        for (const Count& slot : m_slots)
            if (slot.first != kEmpty) m_sorted.push_back(slot);
        std::sort(m_sorted.begin(), m_sorted.end());
    }
    // The distinct keys with their counts, by key.
    const std::vector<Count>& sorted() const { return m_sorted; }
    // How many times `key` occurred (0 if never).
    std::uint32_t countOf(std::uint64_t key) const {
        const auto it = std::lower_bound(m_sorted.begin(), m_sorted.end(), Count{key, 0});
        return it != m_sorted.end() && it->first == key ? it->second : 0;
    }
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  private:
    static constexpr std::size_t kFirstSlots = 64;
    static std::size_t mix(std::uint64_t k) {
        k ^= k >> 29;
        k *= 0xbf58476d1ce4e5b9ull;
        return static_cast<std::size_t>(k ^ (k >> 32));
    }
    // The key's slot, taken for it when it is new; the table doubles before it is half full.
    Count& slotOf(std::uint64_t key) {
        for (;;) {
            const std::size_t mask = m_slots.size() - 1;
            for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
                Count& slot = m_slots[i];
                if (slot.first == key) return slot;
                if (slot.first != kEmpty) continue;
                if (2 * (m_used + 1) > m_slots.size()) break;
                ++m_used;
                slot.first = key;
                return slot;
            }
            grow();
        }
    }
    void grow() {
        std::vector<Count> old(2 * m_slots.size(), {kEmpty, 0});
        old.swap(m_slots);
        const std::size_t mask = m_slots.size() - 1;
        for (const Count& slot : old) {
            if (slot.first == kEmpty) continue;
            std::size_t i = mix(slot.first) & mask;
            while (m_slots[i].first != kEmpty) i = (i + 1) & mask;
            m_slots[i] = slot;
        }
    }

    std::vector<Count> m_slots;
    std::size_t m_used = 0;
    std::vector<Count> m_sorted;
};

}  // namespace contend
