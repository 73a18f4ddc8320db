#include "kernels.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

#include "rng.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lab {

namespace {

constexpr double kScalar = 0.5;
constexpr int kLockRounds = 2;  // the critical section: dependent rounds over the line

std::size_t parseCacheSize(const std::string& s) {  // "32K", "1024K", "32768K", "2M"
    if (s.empty()) return 0;
    std::size_t v = std::strtoull(s.c_str(), nullptr, 10);
    const char unit = s.back();
    if (unit == 'K') v <<= 10;
    if (unit == 'M') v <<= 20;
    return v;
}

double* allocate(std::size_t bytes) {
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<double*>(p);
}

// Non-temporal stores of two doubles (the pointer is 16-byte aligned), or plain ones.
inline void streamStore(double* dst, double x0, double x1) {
#if defined(__SSE2__)
    _mm_stream_pd(dst, _mm_set_pd(x1, x0));
#else
    dst[0] = x0;
    dst[1] = x1;
#endif
}

inline void storeFence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

inline void cpuRelax() {
#if defined(__SSE2__)
    _mm_pause();
#endif
}

}  // namespace

const char* kindKey(Kind k) {
    switch (k) {
    case Kind::Copy: return "copy";
    case Kind::Scale: return "scale";
    case Kind::Triad: return "triad";
    case Kind::Gather: return "gather";
    case Kind::L3Sum: return "l3sum";
    case Kind::L2Sum: return "l2sum";
    case Kind::Fma: return "fma";
    case Kind::Lock: return "lock";
    }
    return "?";
}

const char* kindResource(Kind k) {
    switch (k) {
    case Kind::Copy:
    case Kind::Scale:
    case Kind::Triad:
    case Kind::Gather: return "bandwidth";
    case Kind::L3Sum:
    case Kind::L2Sum: return "cache";
    case Kind::Fma: return "compute";
    case Kind::Lock: return "lock";
    }
    return "none";
}

const char* scheduleName(Schedule s) {
    switch (s) {
    case Schedule::Alone: return "alone";
    case Schedule::Competing: return "competing";
    case Schedule::NonCompeting: return "non-competing";
    }
    return "?";
}

CacheSizes readCacheSizes() {
    CacheSizes c;
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        std::ifstream levelFile(dir + "level"), sizeFile(dir + "size"), typeFile(dir + "type");
        int level = 0;
        std::string size, type;
        if (!(levelFile >> level) || !(sizeFile >> size)) continue;
        typeFile >> type;
        if (type == "Instruction") continue;
        const std::size_t bytes = parseCacheSize(size);
        if (bytes == 0) continue;
        if (level == 2) c.l2 = bytes;
        if (level == 3) c.l3 = bytes;
    }
    return c;
}

KernelSizes withL3Share(KernelSizes s, const CacheSizes& caches, std::size_t share) {
    s.l3Bytes = std::max<std::size_t>(caches.l3 / std::max<std::size_t>(share, 2), 1 << 20);
    s.l3Passes = static_cast<int>(std::clamp<std::size_t>((24u << 20) / s.l3Bytes, 1, 16));
    return s;
}

KernelSizes defaultSizes(const CacheSizes& caches, bool quick) {
    KernelSizes s;
    // Both streams' L3 buffers together take a quarter of the L3: they fit side by side, and a
    // streaming partner (reads pass through the caches) evicts them.
    s = withL3Share(s, caches, 8);
    // Half of the private L2.
    s.l2Bytes = std::max<std::size_t>(caches.l2 / 2, 64 << 10);
    s.l2Passes = static_cast<int>(std::clamp<std::size_t>((40u << 20) / s.l2Bytes, 1, 1024));
    if (quick) s.arrayBytes = std::size_t{32} << 20;
    return s;
}

StreamBuffers::StreamBuffers(const KernelSizes& sizes, std::uint64_t seed) : m_sizes(sizes) {
    m_n = sizes.arrayBytes / sizeof(double) / 2 * 2;
    m_block = allocate(3 * m_n * sizeof(double));
    m_a = m_block;
    m_b = m_block + m_n;
    m_c = m_block + 2 * m_n;
    for (std::size_t i = 0; i < m_n; ++i) {
        m_a[i] = 1.0;
        m_b[i] = 2.0;
        m_c[i] = 0.0;
    }
    // Random indexes into all three arrays (3 x arrayBytes >> LLC), drawn from the seed.
    m_indexCount = std::max<std::size_t>(sizes.gatherCount * 8, 1 << 16);
    m_index = std::make_unique<std::uint32_t[]>(m_indexCount);
    SplitMix64 rng(seed);
    const std::uint64_t span = 3 * m_n;
    for (std::size_t i = 0; i < m_indexCount; ++i) m_index[i] = static_cast<std::uint32_t>(rng.below(span));
    m_l3 = allocate(sizes.l3Bytes);
    m_l2 = allocate(sizes.l2Bytes);
    for (std::size_t i = 0; i < sizes.l3Bytes / sizeof(double); ++i) m_l3[i] = 1.0 / static_cast<double>(i + 1);
    for (std::size_t i = 0; i < sizes.l2Bytes / sizeof(double); ++i) m_l2[i] = 1.0 / static_cast<double>(i + 1);
}

StreamBuffers::~StreamBuffers() {
    std::free(m_block);
    std::free(m_l3);
    std::free(m_l2);
}

std::size_t StreamBuffers::advance(std::size_t chunk) {
    chunk = std::min(chunk, m_n) / 2 * 2;
    if (m_cursor + chunk > m_n) m_cursor = 0;
    const std::size_t at = m_cursor;
    m_cursor += chunk;
    return at;
}

std::uint64_t StreamBuffers::run(Kind kind, SharedLines& lines, int streamIndex, double& checksum) {
    switch (kind) {
    case Kind::Copy: return copy(checksum);
    case Kind::Scale: return scale(checksum);
    case Kind::Triad: return triad(checksum);
    case Kind::Gather: return gather(checksum);
    case Kind::L3Sum: checksum = sumPasses(m_l3, m_sizes.l3Bytes / sizeof(double), m_sizes.l3Passes); return 0;
    case Kind::L2Sum: checksum = sumPasses(m_l2, m_sizes.l2Bytes / sizeof(double), m_sizes.l2Passes); return 0;
    case Kind::Fma: checksum = fma(); return 0;
    case Kind::Lock: checksum = lock(lines, streamIndex); return 0;
    }
    return 0;
}

// c = a
std::uint64_t StreamBuffers::copy(double& checksum) {
    const std::size_t n = std::min(m_sizes.streamChunk, m_n) / 2 * 2;
    const std::size_t at = advance(n);
    const double* a = m_a + at;
    double* c = m_c + at;
    for (std::size_t i = 0; i < n; i += 2) streamStore(c + i, a[i], a[i + 1]);
    storeFence();
    checksum = c[0];
    return 2 * n * sizeof(double);
}

// b = q * c
std::uint64_t StreamBuffers::scale(double& checksum) {
    const std::size_t n = std::min(m_sizes.streamChunk, m_n) / 2 * 2;
    const std::size_t at = advance(n);
    const double* c = m_c + at;
    double* b = m_b + at;
    for (std::size_t i = 0; i < n; i += 2) streamStore(b + i, kScalar * c[i], kScalar * c[i + 1]);
    storeFence();
    checksum = b[0];
    return 2 * n * sizeof(double);
}

// a = b + q * c
std::uint64_t StreamBuffers::triad(double& checksum) {
    const std::size_t n = std::min(m_sizes.triadChunk, m_n) / 2 * 2;
    const std::size_t at = advance(n);
    const double* b = m_b + at;
    const double* c = m_c + at;
    double* a = m_a + at;
    for (std::size_t i = 0; i < n; i += 2) streamStore(a + i, b[i] + kScalar * c[i], b[i + 1] + kScalar * c[i + 1]);
    storeFence();
    checksum = a[0];
    return 3 * n * sizeof(double);
}

// sum of block[index[k]]: independent random loads, one cache line each, over 3 x arrayBytes.
std::uint64_t StreamBuffers::gather(double& checksum) {
    const std::size_t n = std::min(m_sizes.gatherCount, m_indexCount);
    if (m_indexCursor + n > m_indexCount) m_indexCursor = 0;
    const std::uint32_t* idx = m_index.get() + m_indexCursor;
    m_indexCursor += n;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += m_block[idx[k]];
        s1 += m_block[idx[k + 1]];
        s2 += m_block[idx[k + 2]];
        s3 += m_block[idx[k + 3]];
    }
    for (; k < n; ++k) s0 += m_block[idx[k]];
    checksum = s0 + s1 + s2 + s3;
    return n * (64 + sizeof(std::uint32_t));
}

double StreamBuffers::sumPasses(const double* buf, std::size_t n, int passes) {
    double total = 0;
    for (int p = 0; p < passes; ++p) {
        double s[8] = {};
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8)
            for (int j = 0; j < 8; ++j) s[j] += buf[i + j];
        for (; i < n; ++i) s[0] += buf[i];
        for (double v : s) total += v;
    }
    return total;
}

// 8 independent chains x = x * m + c: latency- and port-bound, no memory traffic.
double StreamBuffers::fma() {
    double x[8];
    for (int j = 0; j < 8; ++j) x[j] = 0.5 + 0.01 * j;
    const double m = 0.999999, c = 1e-6;
    for (std::size_t i = 0; i < m_sizes.fmaIters; ++i)
        for (double& v : x) v = v * m + c;
    double s = 0;
    for (double v : x) s += v;
    return s;
}

// Lock one of the 16 shared lines (test-and-test-and-set), modify it, unlock. The line is drawn
// per round (xorshift, a fixed seed per stream), so the two streams meet on lines at a steady
// rate whatever their phase. Alone, the lines stay in this CPU's L1; beside the other stream's
// lock kernel every line bounces between the CPUs and the two serialise on the locks.
double StreamBuffers::lock(SharedLines& lines, int streamIndex) {
    std::uint64_t seen = 0;
    std::uint32_t x = 0x9E3779B9u ^ (static_cast<std::uint32_t>(streamIndex) * 0x85EBCA6Bu);
    for (std::size_t i = 0; i < m_sizes.lockOps; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        SharedLine& l = lines.line[x & 15];
        for (;;) {
            if (l.lock.exchange(1, std::memory_order_acquire) == 0) break;
            while (l.lock.load(std::memory_order_relaxed) != 0) cpuRelax();
        }
        for (int r = 0; r < kLockRounds; ++r)
            for (std::uint64_t& d : l.data) d = d * 3 + 1;
        seen += l.data[0];
        l.lock.store(0, std::memory_order_release);
    }
    return static_cast<double>(seen);
}

}  // namespace lab
