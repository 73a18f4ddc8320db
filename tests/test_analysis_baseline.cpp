// Baselines and anomaly scores: what is flagged, what is not, and the small-sample rules.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {

// Durations with 1% of regular noise around `us`: 99.0 .. 101.0.
double noisy(double us, int i) { return us * (1.0 + 0.005 * ((i * 7) % 5 - 2)); }

std::size_t countNamed(const Report& r, const std::string& name) {
    return static_cast<std::size_t>(
        std::count_if(r.anomalies.begin(), r.anomalies.end(), [&](const Anomaly& a) { return a.name == name; }));
}

}  // namespace

TEST_CASE("an occurrence far above its signature's baseline is flagged, a big constant operator is not",
          "[analysis][baseline]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 20; ++i) {
        k.kernel("gemm", 7, t, noisy(100, i));
        t += 150;
        k.kernel("big_conv", 7, t, 10000);  // ten times longer, but always the same
        t += 10050;
    }
    k.kernel("gemm", 7, t, 200);  // twice its usual time
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.anomalies.size() == 1);
    const Anomaly& a = r.anomalies[0];
    CHECK(a.name == "gemm");
    CHECK(a.durNs == 200000);
    CHECK(a.baselineNs == Approx(100000).margin(1000));
    CHECK(a.excessNs == Approx(100000).margin(1000));
    CHECK(a.score > 3.0);
    CHECK(a.startNs == static_cast<TimeNs>(t * 1000));
    CHECK(a.tid == "7");
    // Alone on the device, no counter: the time went inside the operator.
    CHECK(a.cause == Resource::Unknown);
    CHECK(a.evidence.find("look inside the operator") != std::string::npos);
    CHECK(countNamed(r, "big_conv") == 0);
}

TEST_CASE("scores are in spreads of the baseline and the coefficient is the cut", "[analysis][baseline]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 30; ++i, t += 200) k.kernel("relu", 7, t, noisy(100, i));
    k.kernel("relu", 7, t, 118);  // +18%: 3.6 spreads of the 5% floor
    const TracePtr trace = k.load();
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    CHECK(buildReport(*p, 3.0, 0.7).anomalies.size() == 1);
    CHECK(buildReport(*p, 4.0, 0.7).anomalies.size() == 0);
    const auto& sig = p->baselines().signatures[p->operators().signatureOf[p->operators().opOfSlice[0]]];
    CHECK(sig.rule == BaselineRule::All);            // nothing ran beside it: every run is the reference
    CHECK(sig.scaleNs == Approx(5000).margin(100));  // 5% of 100 us: MAD is smaller
}

TEST_CASE("fewer than five occurrences are not judged, and the report says so", "[analysis][baseline]") {
    KinetoTrace k;
    k.kernel("rare", 7, 0, 100).kernel("rare", 7, 1000, 102).kernel("rare", 7, 2000, 180);
    k.kernel("rarer", 7, 3000, 100).kernel("rarer", 7, 4000, 170);
    k.kernel("once", 7, 5000, 5000);
    auto p = prepareAnalysis(k.load(), AnalysisSettings{}).value();
    const Report r = buildReport(*p, 3.0, 0.7);
    // 1.8x its fastest run, but three runs cannot tell a slow one from an ordinary one.
    CHECK(r.anomalies.empty());
    CHECK(buildReport(*p, 0.0, 0.7).anomalies.empty());
    for (const auto& s : p->baselines().signatures) {
        if (s.count == 1) CHECK(s.rule == BaselineRule::Single);
        if (s.count == 3 || s.count == 2) CHECK(s.rule == BaselineRule::Few);
        if (s.count == 3) CHECK(s.baselineNs == 100000);  // its fastest run, shown as the baseline
    }
    const auto note =
        std::find_if(r.notes.begin(), r.notes.end(), [](const ReportNote& n) { return n.kind == "few-runs"; });
    REQUIRE(note != r.notes.end());
    CHECK(note->text.find("3 signatures") != std::string::npos);
    CHECK(note->text.find("not judged") != std::string::npos);
}

TEST_CASE("the small-sample rule still scores when asked to (judgeFew)", "[analysis][baseline]") {
    KinetoTrace k;
    k.kernel("rare", 7, 0, 100).kernel("rare", 7, 1000, 102).kernel("rare", 7, 2000, 180);  // (180-100)/25 = 3.2
    const TracePtr t = k.load();
    const OperatorSet ops = selectOperators(*t);
    BaselineSettings s;
    s.judgeFew = true;
    const BaselineResult b = computeBaselines(*t, ops, {}, {}, s);
    CHECK(b.signatures[0].rule == BaselineRule::Few);
    CHECK(b.score[2] == Approx(3.2));
}

TEST_CASE("a naturally variable operator is not flagged", "[analysis][baseline]") {
    // 24 draws of about 25% relative spread around 30 us (as the simulator's NMS control).
    const double draws[] = {30, 22, 37, 29, 41, 25, 33, 19, 35, 28, 44, 31,
                            24, 38, 27, 32, 21, 36, 30, 26, 40, 34, 23, 29};
    KinetoTrace k;
    double t = 0;
    for (double d : draws) {
        k.kernel("nms_kernel", 9, t, d);
        t += 100;
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    CHECK(r.anomalies.empty());
}

TEST_CASE("a lock held in most steps: the runs apart from the holder are the baseline", "[analysis][baseline]") {
    // index_put waits for scatter_add's lock in 8 of 14 steps: it starts with it and finishes
    // its own 40 us after scatter_add ends (~80 us). In the other 6 the two run apart.
    KinetoTrace k;
    double t = 0;
    int held = 0;
    for (int i = 0; i < 14; ++i, t += 400) {
        const bool lock = i % 7 >= 3;
        held += lock;
        k.kernel("scatter_add_atomic", 17, t, noisy(40, i + 3));
        if (lock)
            k.kernel("index_put_accumulate", 21, t, noisy(40, i + 3) + noisy(40, i));
        else
            k.kernel("index_put_accumulate", 21, t + 150, noisy(40, i));
    }
    REQUIRE(held == 8);
    auto p = prepareAnalysis(k.load(), AnalysisSettings{}).value();
    const Report r = buildReport(*p, 3.0, 0.7);
    CHECK(r.anomalies.size() == 8);
    const auto sig = std::find_if(r.operators.begin(), r.operators.end(),
                                  [](const SignatureStats& s) { return s.name == "index_put_accumulate"; });
    REQUIRE(sig != r.operators.end());
    CHECK(sig->baselineNs == Approx(40000).margin(500));
    CHECK(p->baselines().signatures[sig->id].rule == BaselineRule::Contrast);
    for (const Anomaly& a : r.anomalies) {
        CHECK(a.name == "index_put_accumulate");
        CHECK(a.cause == Resource::Lock);
        CHECK(a.provenance == Provenance::Estimated);
        CHECK(a.evidence.find("held up until scatter_add_atomic ended") != std::string::npos);
    }
}

TEST_CASE("a slow majority with nothing beside it to explain it is not flagged", "[analysis][baseline]") {
    // The same durations on one stream with no partner: the slow runs are most of the runs and
    // nothing in the trace goes with them, so they are taken as what the operator takes.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 14; ++i, t += 200)
        k.kernel("index_put_accumulate", 21, t, i % 7 < 3 ? noisy(40, i) : noisy(80, i));
    auto p = prepareAnalysis(k.load(), AnalysisSettings{}).value();
    CHECK(buildReport(*p, 3.0, 0.7).anomalies.empty());
    CHECK(p->baselines().signatures[0].rule == BaselineRule::All);
}

TEST_CASE("traces in whole microseconds cannot flag a one-microsecond difference", "[analysis][baseline]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 20; ++i, t += 10) k.kernel("tiny", 7, t, 2);
    k.kernel("tiny", 7, t, 3);  // +1 us: one timer tick
    auto p = prepareAnalysis(k.load(), AnalysisSettings{}).value();
    CHECK(p->operators().resolutionNs == 1000);
    CHECK(buildReport(*p, 3.0, 0.7).anomalies.empty());
}

TEST_CASE("copies of different sizes are different signatures", "[analysis][baseline]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 10; ++i, t += 1000) {
        const int bytes = i % 2 ? 4096 : 4194304;
        char ev[256];
        std::snprintf(
            ev, sizeof ev,
            R"J({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": %.1f, "dur": %d, "args": {"stream": 7, "bytes": %d}})J",
            t, i % 2 ? 3 : 400, bytes);
        k.add(ev);
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.operators.size() == 2);
    CHECK(r.anomalies.empty());
    CHECK(r.operators[0].signature.find("[bytes=") != std::string::npos);
    CHECK(r.operators[0].opType == "memcpy");
}

TEST_CASE("a trace without device operators analyses its host slices", "[analysis][baseline]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "name": "work", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "name": "work", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
      {"ph": "X", "name": "work", "pid": 1, "tid": 1, "ts": 40, "dur": 10}
    ]})J";
    auto lr = loadTraceFromMemory(json, "host.json");
    REQUIRE(lr);
    const Report r = contend::test::analyzeOk(lr.value(), AnalysisSettings{});
    CHECK(r.trace.scope == "host");
    CHECK(r.trace.operators == 3);
    CHECK(r.anomalies.empty());
    REQUIRE_FALSE(r.notes.empty());
    CHECK(r.notes[0].kind == "host-scope");
}
