#pragma once
// A random device trace for the overlap tests: n kernels named "k" on `tracks` streams of one
// device, starts uniform in [0, 100 us), durations 1 ns .. 3 us, built through TraceBuilder.
#include <random>
#include <string>

#include "core/io/json/chrome_json_reader.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"

namespace contend::test {

inline TracePtr randomKernelTrace(std::mt19937_64& rng, int tracks, int n) {
    TraceBuilder b(kKinetoFormat);
    const StringId name = b.intern("k");
    for (int i = 0; i < n; ++i) {
        Slice s;
        s.track = b.track("0", std::to_string(rng() % static_cast<std::uint64_t>(tracks)));
        s.start = static_cast<TimeNs>(rng() % 100000);
        s.dur = 1 + static_cast<TimeNs>(rng() % 3000);
        s.name = name;
        s.flags = kSliceDevice;
        b.addSlice(s);
    }
    return b.finalize();
}

}  // namespace contend::test
