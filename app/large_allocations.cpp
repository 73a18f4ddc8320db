// The global operator new of contend-cli and contend (compiled into both executables, not into
// a library, so that no other program linking core gets it): malloc, as the default one, and
// for a block of kHugePagesFrom or more its 2 MiB-aligned interior marked for transparent huge
// pages (core/common/huge_pages.h). The large std::vectors of an analysis (per-operator arrays,
// the file's bytes) are faulted in 2 MiB at a time.
//
// Measured on a 1M-kernel Kineto trace (scripts/gen-kineto-bench.py 1000000), `contend-cli
// analyze` paired against the same build with CONTEND_HUGE_PAGES=0 (farm-bench -n 8 --vs): page
// faults 405k -> 71k, wall median 0.94x, peak memory the same; `info` 0.87-0.92x.
// CONTEND_HUGE_PAGES=0 turns it off.
//
// Not in sanitizer builds: ASan and its siblings provide operator new themselves, and pair it
// with their own operator delete.
#include <cstdlib>
#include <new>

#include "core/common/huge_pages.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define CONTEND_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONTEND_SANITIZED 1
#endif

#if !defined(CONTEND_SANITIZED)

namespace {

void* allocate(std::size_t n) {
    if (n == 0) n = 1;
    for (;;) {
        if (void* p = std::malloc(n)) {
            if (n >= contend::kHugePagesFrom) contend::adviseHugePages(p, n);
            return p;
        }
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw std::bad_alloc();
        handler();
    }
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return allocate(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return allocate(n);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

#endif
