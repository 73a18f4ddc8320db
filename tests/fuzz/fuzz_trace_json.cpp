// libFuzzer target: the Chrome/Kineto/Ascend JSON reader (and gzip, when the input starts with
// the gzip magic). Any input must load or fail with a message; never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    contend::LoadOptions options;
    options.chunkBytes = 4096;              // small chunks exercise the boundary logic
    options.maxEventBytes = 1u << 20;       // keep memory bounded under the fuzzer
    options.memoryLimitBytes = 256u << 20;  // a fixed budget: deterministic, and its checks get fuzzed too
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    contend::LoadResult r = contend::loadTraceFromMemory(bytes, "fuzz.json", options);
    if (r.ok()) {
        // Touch what the views and analyses touch.
        const auto& t = *r.value();
        for (std::uint32_t k = 0; k < t.tracks().size(); ++k) (void)t.visibleRange(k, t.begin(), t.end());
        for (const auto& c : t.counters()) (void)c.valueAt(t.begin());
    } else {
        (void)r.failure().message();
    }
    return 0;
}
