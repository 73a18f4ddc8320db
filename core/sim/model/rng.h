#pragma once
// Reproducible random numbers for the simulator. std::mt19937_64's raw output is fixed by the C++
// standard, but the std:: distributions are not (libstdc++ and libc++ give different numbers), so
// every shape here is built from raw 64-bit draws with +, *, / only: no log/cos from libm either,
// whose last bit may differ between platforms. sqrt is allowed: IEEE 754 requires it correctly
// rounded, like + and *. Same seed, same bytes, everywhere.
#include <cstdint>
#include <random>

namespace contend::sim {

// SplitMix64 finaliser: turns (seed, iteration, salt) into well-spread engine seeds.
inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

inline std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
    return mix64(mix64(mix64(seed) ^ a) ^ b);
}

class Rng {
  public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}

    std::uint64_t next() { return m_engine(); }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    bool chance(double p) { return uniform() < p; }

    // Standard normal by Irwin-Hall: the sum of 12 uniforms minus 6 has mean 0 and variance 1,
    // with tails cut at +-6 (which a simulator's jitter never wants anyway).
    double normal() {
        double s = 0;
        for (int i = 0; i < 12; ++i) s += uniform();
        return s - 6.0;
    }

    // Multiplicative jitter 1 + sigma * N(0,1), clamped to +-3 sigma and to at least 0.1 so a
    // duration never goes negative.
    double jitter(double sigma) {
        if (sigma <= 0) return 1.0;
        double z = normal();
        z = z < -3.0 ? -3.0 : (z > 3.0 ? 3.0 : z);
        const double f = 1.0 + sigma * z;
        return f < 0.1 ? 0.1 : f;
    }

  private:
    std::mt19937_64 m_engine;
};

}  // namespace contend::sim
