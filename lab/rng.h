#pragma once
// SplitMix64 (Steele, Lea and Flood, 2014; the seeding generator of xoshiro): a 64-bit state
// advanced by 0x9E3779B97F4A7C15 and mixed. Same seed, same sequence, on every platform.
#include <cstdint>

namespace lab {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) by rejection (no modulo bias); n > 0.
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x = next();
        while (x >= limit) x = next();
        return x % n;
    }

  private:
    std::uint64_t m_state;
};

}  // namespace lab
