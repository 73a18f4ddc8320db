// adviseHugePages marks a large block's aligned interior for transparent huge pages: where the
// kernel grants them, the block's pages are then 2 MiB ones (/proc/self/smaps, AnonHugePages).
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/mman.h>

#include "core/common/huge_pages.h"

using contend::adviseHugePages;

namespace {

// The THP mode in brackets ("always", "madvise", "never"), empty when the file is missing.
std::string thpMode() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(f, line);
    const auto a = line.find('['), b = line.find(']');
    return a == std::string::npos || b == std::string::npos ? std::string() : line.substr(a + 1, b - a - 1);
}

// AnonHugePages (kB) of the mapping that holds `p`, -1 when not found.
long hugeKbAt(const void* p) {
    std::ifstream f("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(f, line)) {
        std::uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
            inside = lo <= at && at < hi;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) return std::stol(line.substr(14));
    }
    return -1;
}

}  // namespace

TEST_CASE("adviseHugePages gives a large block 2 MiB pages where the kernel has them", "[common][huge-pages]") {
    const std::size_t n = std::size_t{16} << 20;
    // Its own mapping, so that no other allocation shares (or has already faulted) its pages.
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    adviseHugePages(p, n);
    std::memset(p, 1, n);
    const long kb = hugeKbAt(p);
    const std::string mode = thpMode();
    INFO("THP mode '" << mode << "', AnonHugePages " << kb << " kB");
    REQUIRE(kb >= 0);
    if (mode == "madvise" || mode == "always") {
        // 16 MiB hold at least 7 aligned 2 MiB pages; a kernel short of free huge pages may
        // grant fewer, but one at least (a fresh machine has plenty).
        CHECK(kb >= 2048);
    } else {
        WARN("transparent huge pages are '" << mode << "' here: nothing to check");
    }
    munmap(p, n);
}

TEST_CASE("adviseHugePages leaves small blocks and null alone", "[common][huge-pages]") {
    adviseHugePages(nullptr, std::size_t{64} << 20);
    const std::size_t n = contend::kHugePagesFrom - 1;
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    adviseHugePages(p, n);
    std::memset(p, 1, n);
    // Under the threshold nothing is marked: with THP "madvise" no huge page is given.
    if (thpMode() == "madvise") CHECK(hugeKbAt(p) == 0);
    munmap(p, n);
}
