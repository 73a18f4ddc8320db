#pragma once
// Transparent huge pages for the large arrays a million-operator analysis allocates.
//
// A 1M-kernel trace's analysis touches about 1.6 GB of fresh memory, 4 KiB at a time: on two
// cores about a fifth of its CPU time went to page faults (the kernel clearing and mapping pages,
// measured with `perf record -e cpu-clock`). Where the kernel's THP mode is "madvise" (Debian's
// default) or "always", a range marked MADV_HUGEPAGE is faulted in 2 MiB pages: 512 times fewer
// faults for the same bytes.
#include <cstddef>

namespace contend {

// Allocations from this size have their 2 MiB-aligned interior marked (smaller ones rarely hold
// a whole huge page).
inline constexpr std::size_t kHugePagesFrom = std::size_t{4} << 20;

// Marks the 2 MiB-aligned pages inside [p, p + n) MADV_HUGEPAGE (Linux; elsewhere nothing).
// Errors are ignored: the pages stay small. Nothing happens when hugePagesWanted() is false.
void adviseHugePages(void* p, std::size_t n);

// False when the environment says CONTEND_HUGE_PAGES=0 (read once).
bool hugePagesWanted();

}  // namespace contend
