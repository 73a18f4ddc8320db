#include "core/common/huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace contend {

bool hugePagesWanted() {
    static const bool wanted = [] {
        const char* v = std::getenv("CONTEND_HUGE_PAGES");
        return v == nullptr || std::strcmp(v, "0") != 0;
    }();
    return wanted;
}

void adviseHugePages(void* p, std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p == nullptr || n < kHugePagesFrom || !hugePagesWanted()) return;
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    // The first 2 MiB boundary in the block, and the whole huge pages from there.
    const std::size_t skip = (kHuge - reinterpret_cast<std::uintptr_t>(p) % kHuge) % kHuge;
    if (n <= skip) return;
    const std::size_t length = (n - skip) / kHuge * kHuge;
    if (length > 0) (void)madvise(static_cast<char*>(p) + skip, length, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

}  // namespace contend
