#pragma once
// The small Kineto trace whose breakdowns are worked out by hand (test_breakdowns.cpp, and over
// ranges test_breakdowns_range.cpp), and the helpers that write its events.
#include <cstdio>
#include <string>

#include "analysis_test_trace.h"

namespace contend::test {

constexpr TimeNs kUs = 1000;

inline std::string event(const char* cat, const std::string& name, int pid, int tid, double ts, double dur,
                         const std::string& args) {
    char buf[512];
    std::snprintf(
        buf, sizeof buf,
        R"({"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %.3f, "dur": %.3f, "args": {%s}})", cat,
        name.c_str(), pid, tid, ts, dur, args.c_str());
    return buf;
}

// A launch call (host pid 1) and the device operation it enqueued (pid 0, tid = stream).
inline void launched(KinetoTrace& t, const char* call, int tid, double callUs, double callDur, const char* cat,
                     const std::string& name, int stream, double startUs, double durUs, int correlation,
                     const std::string& extra = "") {
    const std::string corr = "\"correlation\": " + std::to_string(correlation);
    t.add(event("cuda_runtime", call, 1, tid, callUs, callDur, corr));
    t.add(event(cat, name, 0, stream, startUs, durUs,
                "\"stream\": " + std::to_string(stream) + ", \"device\": 0, " + corr + extra));
}

// Two steps, [0, 100) and [100, 200) us; every operation launched in the first counts.
//   stream 7: gemm [20, 50) (call at 10), gemm [70, 80) (call at 60: host wait 20), copy A
//             [90, 100) 100 GB/s (call at 15: kernel wait 10), copy B [100, 110) 50 GB/s (call at
//             16 on thread 2, 20 us long: the copy is shorter than its call; kernel wait 0);
//   stream 8: ncclKernel [40, 80) (call at 12), gemm [130, 140) (call at 40 on thread 2: other 50);
//   a gemm [160, 170) launched at 150, in the last step: out of HTA's scope.
// Annotations on thread 1: ProfilerStep#1 around everything, "## fwd ##" [9, 20) around the calls
// at 10 and 15, "inner" [11.5, 14) around the call at 12.
inline TracePtr handTrace() {
    KinetoTrace t;
    t.step(1, 0, 100).step(2, 100, 100);
    t.add(event("user_annotation", "## fwd ##", 1, 1, 9, 11, ""));
    t.add(event("user_annotation", "inner", 1, 1, 11.5, 2.5, ""));
    const std::string copyA = R"j(, "bytes": 1000000, "memory bandwidth (GB/s)": 100.0)j";
    const std::string copyB = R"j(, "bytes": 500000, "memory bandwidth (GB/s)": 50.0)j";
    launched(t, "cudaLaunchKernel", 1, 10, 1, "kernel", "gemm", 7, 20, 30, 1);
    launched(t, "cudaLaunchKernel", 1, 12, 1, "kernel", "ncclKernel_AllReduce", 8, 40, 40, 2);
    launched(t, "cudaLaunchKernel", 1, 60, 5, "kernel", "gemm", 7, 70, 10, 3);
    launched(t, "cudaMemcpyAsync", 1, 15, 1, "gpu_memcpy", "Memcpy DtoD (Device -> Device)", 7, 90, 10, 4, copyA);
    launched(t, "cudaMemcpyAsync", 2, 16, 20, "gpu_memcpy", "Memcpy DtoD (Device -> Device)", 7, 100, 10, 7, copyB);
    launched(t, "cudaLaunchKernel", 2, 40, 1, "kernel", "gemm", 8, 130, 10, 8);
    launched(t, "cudaLaunchKernel", 1, 150, 1, "kernel", "gemm", 7, 160, 10, 5);
    return t.load("hand.json");
}

}  // namespace contend::test
