#pragma once
// The lab's kernels: real loops, each with a fixed amount of work per launch, run by a worker
// thread on its own CPU. Every stream has its own buffers, except the lock lines, which both
// streams share on purpose.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "lab_types.h"

namespace lab {

struct CacheSizes {
    std::size_t l2 = 1 << 20;   // per CPU
    std::size_t l3 = 32 << 20;  // shared
};
// From /sys/devices/system/cpu/cpu0/cache (index*/level, size); the defaults above where absent.
CacheSizes readCacheSizes();

struct KernelSizes {
    std::size_t arrayBytes = std::size_t{128} << 20;  // each STREAM array (a, b, c), per stream
    std::size_t streamChunk = std::size_t{1} << 20;   // elements (doubles) per copy/scale launch
    std::size_t triadChunk = 768 * 1024;              // elements per triad launch
    std::size_t gatherCount = 24 * 1024;              // random loads per gather launch
    std::size_t l3Bytes = 8 << 20;                    // the L3-resident buffer, per stream
    int l3Passes = 3;
    std::size_t l2Bytes = 512 << 10;  // the L2-resident buffer, per stream
    int l2Passes = 24;
    std::size_t fmaIters = 360000;  // iterations of 8 independent multiply-add chains
    std::size_t lockOps = 110000;   // lock/modify/unlock rounds over the 16 shared lines
};
KernelSizes defaultSizes(const CacheSizes& caches, bool quick);
// The L3-resident buffer as L3 / share per stream (both streams' buffers together: 2 / share of
// the L3), with passes for ~24 MiB of reads per launch.
KernelSizes withL3Share(KernelSizes s, const CacheSizes& caches, std::size_t share);

// 16 cache lines that both streams lock and modify (the lock kernel's shared state).
struct alignas(64) SharedLine {
    std::atomic<std::uint32_t> lock{0};
    std::uint32_t pad = 0;
    std::uint64_t data[7] = {};
};
struct SharedLines {
    SharedLine line[16];
};

// One stream's buffers and cursors. Allocate and touch on the worker's own CPU (first touch).
class StreamBuffers {
  public:
    StreamBuffers(const KernelSizes& sizes, std::uint64_t seed);
    StreamBuffers(const StreamBuffers&) = delete;
    StreamBuffers& operator=(const StreamBuffers&) = delete;
    ~StreamBuffers();

    // Runs one launch of `kind`; returns the bytes it moved to or from DRAM (0 for kinds whose
    // working set is meant to stay in cache or registers) and its checksum in `checksum`.
    std::uint64_t run(Kind kind, SharedLines& lines, int streamIndex, double& checksum);

  private:
    std::uint64_t copy(double& checksum);
    std::uint64_t scale(double& checksum);
    std::uint64_t triad(double& checksum);
    std::uint64_t gather(double& checksum);
    double sumPasses(const double* buf, std::size_t n, int passes);
    double fma();
    double lock(SharedLines& lines, int streamIndex);
    std::size_t advance(std::size_t chunk);  // the STREAM cursor: next chunk start, wrapping

    KernelSizes m_sizes;
    double* m_block = nullptr;  // a, b, c back to back (gather indexes all three)
    double *m_a = nullptr, *m_b = nullptr, *m_c = nullptr;
    std::size_t m_n = 0;  // elements per array
    std::size_t m_cursor = 0;
    std::unique_ptr<std::uint32_t[]> m_index;
    std::size_t m_indexCount = 0, m_indexCursor = 0;
    double* m_l3 = nullptr;
    double* m_l2 = nullptr;
};

}  // namespace lab
