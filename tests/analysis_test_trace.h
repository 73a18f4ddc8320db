#pragma once
// Inline Kineto-shaped traces for the analysis tests: kernels on streams, device counters and
// step markers, written as JSON and read back through the real reader, so the tests exercise
// what a user's file goes through. Times are in microseconds, as in the file.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "core/io/load.h"

namespace contend::test {

class KinetoTrace {
  public:
    // A kernel on `stream` (pid 0, tid = stream). `grid` becomes args.grid (part of the signature).
    KinetoTrace& kernel(const std::string& name, int stream, double startUs, double durUs, int grid = 1) {
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      R"({"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f,)"
                      R"( "args": {"stream": %d, "device": 0, "grid": [%d, 1, 1], "block": [128, 1, 1]}})",
                      name.c_str(), stream, startUs, durUs, stream, grid);
        return add(buf);
    }
    // A device counter sample: name ("DRAM Bandwidth"), key ("Utilization(%)"), value.
    KinetoTrace& counter(const std::string& name, const std::string& key, double tsUs, double value) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      R"({"ph": "C", "name": "%s", "pid": 0, "tid": 0, "ts": %.3f, "args": {"%s": %.3f}})",
                      name.c_str(), tsUs, key.c_str(), value);
        return add(buf);
    }
    KinetoTrace& bandwidth(double tsUs, double percent) {
        return counter("DRAM Bandwidth", "Utilization(%)", tsUs, percent);
    }
    KinetoTrace& compute(double tsUs, double percent) {
        return counter("Compute Units", "Utilization(%)", tsUs, percent);
    }
    KinetoTrace& hitRate(double tsUs, double percent) { return counter("L2 Cache", "Hit Rate(%)", tsUs, percent); }
    // A cudaLaunchKernel call (host pid 1, thread 1) at `callUs` and the kernel it enqueued on
    // `stream`, linked by `correlation`.
    KinetoTrace& launchedKernel(const std::string& name, int stream, double callUs, double startUs, double durUs,
                                int correlation) {
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )"
                      R"("ts": %.3f, "dur": 1.000, "args": {"correlation": %d}})",
                      callUs, correlation);
        add(buf);
        std::snprintf(buf, sizeof buf,
                      R"({"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f,)"
                      R"( "args": {"stream": %d, "device": 0, "correlation": %d}})",
                      name.c_str(), stream, startUs, durUs, stream, correlation);
        return add(buf);
    }
    KinetoTrace& step(int n, double startUs, double durUs) {
        char buf[256];
        std::snprintf(
            buf, sizeof buf,
            R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 1, "tid": 1, "ts": %.3f, "dur": %.3f})",
            n, startUs, durUs);
        return add(buf);
    }
    KinetoTrace& add(const std::string& event) {
        if (!m_events.empty()) m_events += ",\n";
        m_events += event;
        return *this;
    }
    std::string json() const { return "{\"traceEvents\": [\n" + m_events + "\n]}"; }
    TracePtr load(const std::string& name = "inline.json") const {
        LoadResult r = loadTraceFromMemory(json(), name);
        if (!r) FAIL("inline trace did not load: " << (!r.ok() ? r.failure().message() : std::string("?")));
        return r.value();
    }

  private:
    std::string m_events;
};

}  // namespace contend::test
