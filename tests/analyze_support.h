#pragma once
// The analysis pipeline (core/pipeline/analyze_trace.h) for the tests: a loaded trace to its
// report, without the memory budget's weighing (a test's outcome must not depend on the
// machine's free memory).
#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "core/pipeline/analyze_trace.h"

namespace contend::test {

inline Result<Report> analyzeResult(TracePtr trace, const AnalysisSettings& settings = {}) {
    PipelineOptions options;
    options.analysis = settings;
    options.weighMemory = false;
    return analyzeTrace(std::move(trace), options);
}

// The report; the analysis must succeed (its failure, with its message, fails the test).
inline Report analyzeOk(TracePtr trace, const AnalysisSettings& settings = {}) {
    Result<Report> r = analyzeResult(std::move(trace), settings);
    INFO((r ? std::string() : r.failure().message()));
    REQUIRE(r.ok());
    return std::move(r).value();
}

// "" when the analysis succeeds, else its failure's message (CHECK(analysisFailure(t) == "")
// shows why).
inline std::string analysisFailure(TracePtr trace, const AnalysisSettings& settings = {}) {
    const Result<Report> r = analyzeResult(std::move(trace), settings);
    return r ? std::string() : r.failure().message();
}

}  // namespace contend::test
