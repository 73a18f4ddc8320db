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
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (at + n) & ~(kHuge - 1);
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

}  // namespace contend
