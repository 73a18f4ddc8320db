#pragma once
// Sorting large arrays. Plain unsigned keys in linear time: LSD radix passes of 11 bits,
// skipping the digits on which all keys agree (a key built from a small id in its high bits and
// an index in its low ones sorts in two or three passes). The analysis sorts hundreds of
// thousands of durations per signature: an indirect std::sort (a cache miss per comparison) was
// a tenth of its time.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace contend {

// Sorts `keys` ascending; `scratch` is reused between calls (its contents are lost).
inline void radixSort(std::vector<std::uint64_t>& keys, std::vector<std::uint64_t>& scratch) {
    const std::size_t n = keys.size();
    if (n < 2048) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    constexpr int kBits = 11;
    constexpr std::size_t kBuckets = std::size_t{1} << kBits;
    constexpr int kDigits = (64 + kBits - 1) / kBits;
    std::uint64_t orAll = 0, andAll = ~std::uint64_t{0};
    for (std::uint64_t k : keys) orAll |= k, andAll &= k;
    const std::uint64_t varying = orAll ^ andAll;
    if (varying == 0) return;
    std::vector<std::array<std::uint32_t, kBuckets>> counts(kDigits);
    std::array<bool, kDigits> pass{};
    for (int d = 0; d < kDigits; ++d) pass[d] = ((varying >> (d * kBits)) & (kBuckets - 1)) != 0;
    for (auto& c : counts) c.fill(0);
    for (std::uint64_t k : keys)
        for (int d = 0; d < kDigits; ++d)
            if (pass[d]) ++counts[d][(k >> (d * kBits)) & (kBuckets - 1)];
    scratch.resize(n);
    for (int d = 0; d < kDigits; ++d) {
        if (!pass[d]) continue;
        std::uint32_t sum = 0;
        for (std::uint32_t& c : counts[d]) {
            const std::uint32_t here = c;
            c = sum;
            sum += here;
        }
        const int shift = d * kBits;
        for (std::uint64_t k : keys) scratch[counts[d][(k >> shift) & (kBuckets - 1)]++] = k;
        keys.swap(scratch);
    }
}

// Puts element i of v at destination[i] (a permutation of v's indices: every index once), in
// place: each cycle of the permutation is followed once from its first element, carrying one
// element along it; a bit per element marks the places already filled. Each element moves once,
// but a cycle jumps across the array (a random access each): more CPU than scattering into a
// new array, and no second array's worth of memory or fresh pages.
template <typename T>
void permuteInPlace(std::vector<T>& v, const std::vector<std::uint32_t>& destination) {
    const auto n = static_cast<std::uint32_t>(v.size());
    std::vector<bool> placed(n, false);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (placed[i] || destination[i] == i) continue;
        T carry = std::move(v[i]);
        for (std::uint32_t j = destination[i]; j != i; j = destination[j]) {
            std::swap(carry, v[j]);
            placed[j] = true;
        }
        v[i] = std::move(carry);
        placed[i] = true;
    }
}

}  // namespace contend
