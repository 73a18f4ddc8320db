// Causes and breakdowns: which resource an anomaly is blamed on, and where its time went.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>
#include <vector>

#include "analysis_sim.h"
#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/patterns.h"
#include "core/analysis/model/resources.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {

const Anomaly& onlyAnomalyNamed(const Report& r, const std::string& name) {
    const Anomaly* found = nullptr;
    for (const auto& a : r.anomalies)
        if (a.name == name) {
            REQUIRE(found == nullptr);
            found = &a;
        }
    REQUIRE(found != nullptr);
    return *found;
}

// A chain op that lives on the cache: alone the hit rate is 92%; in the last step a big
// neighbour on another stream drops it to 50% and the chain op takes 1.3x.
KinetoTrace cacheThrash() {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 8; ++i) {
        k.hitRate(t, 92).compute(t, 40).kernel("conv_chain", 7, t, 100).compute(t + 100, 0);
        t += 200;
    }
    k.hitRate(t, 92).compute(t, 40);
    k.kernel("conv_chain", 7, t, 130);
    k.kernel("fpn_big_footprint", 9, t, 130);
    k.hitRate(t + 1, 50).hitRate(t + 130, 92).compute(t + 130, 0);
    return k;
}

}  // namespace

TEST_CASE("an operator slowed while the cache thrashed is blamed on the cache", "[analysis][causes]") {
    const Report r = contend::test::analyzeOk(cacheThrash().load(), AnalysisSettings{});
    const Anomaly& a = onlyAnomalyNamed(r, "conv_chain");
    CHECK(a.cause == Resource::Cache);
    CHECK(a.provenance == Provenance::Measured);
    CHECK(a.evidence.find("measured: cache thrashed") != std::string::npos);
    CHECK(a.evidence.find("hit rate 50%") != std::string::npos);
    CHECK(a.breakdown.dataWaitNs == 30000);  // the excess is waiting for data
    CHECK(a.breakdown.computeNs == 100000);
    CHECK_FALSE(a.breakdown.measuredData);
}

TEST_CASE("an operator that makes no progress until its partner ends, in step after step, waits on a lock",
          "[analysis][causes]") {
    // 12 runs on its own, then 6 where it starts with the holder, spins until it ends and then
    // does its own 40 us; counters stay low throughout.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 18; ++i) {
        if (i % 3 == 2) {
            k.compute(t, 6)
                .kernel("scatter_add_atomic", 17, t, 40)
                .kernel("index_put_accumulate", 21, t, 80)
                .compute(t + 80, 0);
        } else {
            k.compute(t, 5).kernel("index_put_accumulate", 21, t, 40).compute(t + 40, 0);
            k.kernel("scatter_add_atomic", 17, t + 60, 40);
        }
        t += 200;
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.anomalies.size() == 6);
    for (const Anomaly& a : r.anomalies) {
        CHECK(a.name == "index_put_accumulate");
        CHECK(a.cause == Resource::Lock);
        CHECK(a.provenance == Provenance::Estimated);
        CHECK(a.evidence.find("more than fair sharing can take (serialised)") != std::string::npos);
        CHECK(a.breakdown.syncNs == 40000);
        // The lock window pairs it with the holder.
        REQUIRE(a.windows.size() == 1);
        const ContentionWindow& w = r.windows[a.windows[0]];
        CHECK(w.resource == Resource::Lock);
        CHECK(w.provenance == Provenance::Estimated);
        CHECK_FALSE(w.fromCounters);
    }
}

TEST_CASE("a single slow run beside a partner, with nothing saturated, has an unknown cause", "[analysis][causes]") {
    // Once is not a pattern: no run of the signature shows the partner going with slow runs, and
    // the counters show nothing oversubscribed, so the verdict is "unknown" with the reason.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 8; ++i) {
        k.compute(t, 5).kernel("index_put_accumulate", 21, t, 40).compute(t + 40, 0);
        t += 100;
    }
    k.compute(t, 6)
        .kernel("scatter_add_atomic", 17, t, 40)
        .kernel("index_put_accumulate", 21, t, 80)
        .compute(t + 80, 0);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    const Anomaly& a = onlyAnomalyNamed(r, "index_put_accumulate");
    CHECK(a.cause == Resource::Unknown);
    CHECK(a.provenance == Provenance::Unknown);
    CHECK(a.evidence.rfind("unknown: ", 0) == 0);
    CHECK(a.windows.empty());
    CHECK(r.summary.bottleneck == Resource::None);  // unknown is not a bottleneck
}

TEST_CASE("every occurrence's breakdown adds up to its duration", "[analysis][breakdown]") {
    const TracePtr trace = cacheThrash().load();
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    const auto& ops = p->operators();
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        const Breakdown b = p->breakdownOf(op);
        const Slice& s = trace->slices()[ops.slices[op]];
        CHECK(b.computeNs + b.dataWaitNs + b.queueNs + b.syncNs == s.dur);
        CHECK(b.computeNs >= 0);
        CHECK(b.dataWaitNs >= 0);
    }
    const Report r = buildReport(*p, 3.0, 0.7);
    for (const auto& s : r.operators) {
        const Breakdown& b = s.breakdown;
        CHECK(b.computeNs + b.dataWaitNs + b.queueNs + b.syncNs == s.totalNs);
    }
    // None is kept per operator: each signature's row holds its occurrences' breakdowns added up,
    // and an anomaly's is its occurrence's.
    std::vector<Breakdown> sums(ops.signatures.size());
    for (std::uint32_t op = 0; op < ops.size(); ++op) accumulate(sums[ops.signatureOf[op]], p->breakdownOf(op));
    auto same = [](const Breakdown& x, const Breakdown& y) {
        return std::tie(x.computeNs, x.dataWaitNs, x.queueNs, x.syncNs, x.measuredData, x.measuredQueue, x.measuredSync,
                        x.waitBeforeNs) == std::tie(y.computeNs, y.dataWaitNs, y.queueNs, y.syncNs, y.measuredData,
                                                    y.measuredQueue, y.measuredSync, y.waitBeforeNs);
    };
    REQUIRE(r.operators.size() == sums.size());
    for (const auto& s : r.operators) CHECK(same(s.breakdown, sums[s.id]));
    const Report all = buildReport(*p, 0.0, 0.7);
    REQUIRE_FALSE(all.anomalies.empty());
    for (const Anomaly& a : all.anomalies) CHECK(same(a.breakdown, p->breakdownOf(ops.opOfSlice[a.slice])));
}

TEST_CASE("Kineto launch-to-start delay is measured through the correlation id", "[analysis][breakdown]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 7}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 40, "dur": 10, "args": {"stream": 7, "correlation": 7}}
    ]})J";
    auto lr = loadTraceFromMemory(json, "launch.json");
    REQUIRE(lr);
    auto p = prepareAnalysis(lr.value(), AnalysisSettings{}).value();
    REQUIRE(p->operators().size() == 1);
    CHECK(p->breakdownOf(0).waitBeforeNs == 25000);  // launch returned at 15 us, ran at 40 us
}

TEST_CASE("counters map to resources by name and unit, and a config maps the rest", "[analysis][resources]") {
    CHECK(classifyCounter("DRAM Bandwidth", "Utilization(%)", "%").resource == Resource::Bandwidth);
    CHECK(classifyCounter("HBM 0/Read", "Read(MB/s)", "MB/s").kind == CounterKind::Throughput);
    CHECK(classifyCounter("read_bandwidth", "value", "").resource == Resource::Bandwidth);
    CHECK(classifyCounter("Compute Units", "Utilization(%)", "%").resource == Resource::Compute);
    CHECK(classifyCounter("AI Core Utilization", "", "%").resource == Resource::Compute);
    const Classification hit = classifyCounter("LLC 0 Read/Hit Rate", "Hit Rate(%)", "%");
    CHECK(hit.resource == Resource::Cache);
    CHECK(hit.kind == CounterKind::HitRate);
    CHECK(classifyCounter("Issue Slots", "Utilization(%)", "%").resource == Resource::Issue);
    // Sizes, frequencies and levels are not resources.
    CHECK(classifyCounter("APP/DDR", "KB", "KB").resource == Resource::None);
    CHECK(classifyCounter("AI Core Freq", "MHz", "MHz").resource == Resource::None);
    CHECK(classifyCounter("Mata Bw Level", "Mata Bw Level", "").resource == Resource::None);
    CHECK(classifyCounter("read_ost", "value", "").resource == Resource::None);
    // Per-op metrics.
    CHECK(classifyMetric("aic_mte2_ratio").resource == Resource::Bandwidth);
    CHECK(classifyMetric("aic_mac_ratio").resource == Resource::Compute);
    CHECK(classifyMetric("l2_hit_rate").kind == CounterKind::HitRate);
    CHECK(classifyMetric("est. achieved occupancy %").resource == Resource::None);

    auto cfg = parseResourceConfig(
        R"({"map": [{"match": "^My Fabric", "resource": "bandwidth", "kind": "throughput", "peak": 400}]})",
        "cfg.json");
    REQUIRE(cfg);
    KinetoTrace k;
    k.counter("My Fabric", "GB/s", 0, 200).counter("My Fabric", "GB/s", 10, 400);
    const ResourceMap map = mapResources(*k.load(), *cfg);
    REQUIRE(map.counters.size() == 1);
    CHECK(map.counters[0].resource == Resource::Bandwidth);
    CHECK(map.counters[0].scale == Approx(1.0 / 400));

    const auto notJson = parseResourceConfig("{", "bad.json");
    REQUIRE_FALSE(notJson);
    CHECK(notJson.failure().kind == Failure::Kind::Malformed);
    CHECK(notJson.failure().message() == "bad.json: not valid JSON");
    const auto badRegex = parseResourceConfig(R"({"map": [{"match": "(", "resource": "bandwidth"}]})", "re.json");
    REQUIRE_FALSE(badRegex);
    CHECK(badRegex.failure().kind == Failure::Kind::Malformed);
    CHECK(badRegex.failure().message() == "re.json: map[0]: \"match\" is not a valid regular expression: (");
    CHECK_FALSE(parseResourceConfig(R"({"map": [{"match": "x", "resource": "lock"}]})", "lock.json"));
    const auto missing = loadResourceConfig("/nonexistent/contend/resources.json");
    REQUIRE_FALSE(missing);
    CHECK(missing.failure().kind == Failure::Kind::Unreadable);
    CHECK(missing.failure().message() == "/nonexistent/contend/resources.json: cannot open the config file");
}

TEST_CASE("causes attributed on two threads are the ones of one thread", "[analysis][causes][parallel]") {
    for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Lock}) {
        const auto& run = contend::test::simulated(scenario, false, 2);
        auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
        REQUIRE(p);
        CauseInputs in{p->trace(),    p->operators(),         p->baselines(), p->overlaps(),
                       p->pressure(), p->analysisTimelines(), p->exposure(),  p->characters()};
        std::vector<std::uint8_t> serialised;
        for (const FactorPhysics& ph : judgeSerialisation(in)) serialised.push_back(ph.serialised ? 1 : 0);
        in.serialised = &serialised;
        const CauseResult one = attributeCauses(in, {}, std::numeric_limits<std::uint32_t>::max());
        const CauseResult two = attributeCauses(in, {}, 1);  // forced: the halves of a small trace
        CHECK(one.cause == two.cause);
        CHECK(one.provenance == two.provenance);
        CHECK(one.factor == two.factor);
        CHECK(one.pattern == two.pattern);
        REQUIRE(one.credit.size() == two.credit.size());
        REQUIRE(one.lossRatio.size() == two.lossRatio.size());
        REQUIRE(one.ownTally.size() == two.ownTally.size());
        // Bit for bit (NaN where there is no partner).
        CHECK(std::memcmp(one.credit.data(), two.credit.data(), one.credit.size() * sizeof(PressureArray)) == 0);
        CHECK(std::memcmp(one.lossRatio.data(), two.lossRatio.data(), one.lossRatio.size() * sizeof(float)) == 0);
        CHECK(std::memcmp(one.ownTally.data(), two.ownTally.data(), one.ownTally.size() * sizeof(SampleTally)) == 0);
        REQUIRE(one.patterns.size() == two.patterns.size());
        for (std::size_t k = 0; k < one.patterns.size(); ++k) {
            CHECK(one.patterns[k].signatures == two.patterns[k].signatures);
            CHECK(one.patterns[k].resource == two.patterns[k].resource);
            CHECK(one.patterns[k].tally.busy == two.patterns[k].tally.busy);
            CHECK(one.patterns[k].tally.occurrences == two.patterns[k].tally.occurrences);
        }
        // And the engine's, made without the split (a small trace).
        CHECK(one.cause == p->causes().cause);
        std::size_t attributed = 0;
        for (Resource c : one.cause) attributed += c != Resource::None && c != Resource::Unknown;
        CHECK(attributed > 0);
    }
}

TEST_CASE("the per-operator pressure arrays exist only where counters or metrics fill them",
          "[analysis][pressure][memory]") {
    // Without counters they would be all NaN, ~100 bytes an operator (1 GB at 10M kernels).
    const auto& none =
        contend::test::simulated({.scenario = sim::Scenario::Mixed, .seed = 2, .counters = sim::CounterMode::None});
    auto bare = prepareAnalysis(none.trace, AnalysisSettings{}).value();
    REQUIRE(bare);
    const PressureResult& pb = bare->pressure();
    CHECK(bare->operators().size() > 0);
    CHECK(pb.mean.empty());
    CHECK(pb.highFrac.empty());
    CHECK(pb.peakLoad.empty());
    CHECK(pb.hitRate.empty());
    // Read through the accessors, a missing array is NaN.
    CHECK(std::isnan(PressureResult::of(pb.highFrac, 0, 0)));
    CHECK(std::isnan(PressureResult::of(pb.peakLoad, 0, 0)));
    CHECK(std::isnan(pb.hitRateOf(0)));
    // With full counters each is one entry an operator.
    const auto& full = contend::test::simulated(sim::Scenario::Mixed, false, 2);
    auto counted = prepareAnalysis(full.trace, AnalysisSettings{}).value();
    REQUIRE(counted);
    const PressureResult& pc = counted->pressure();
    const std::size_t n = counted->operators().size();
    CHECK(pc.mean.size() == n);
    CHECK(pc.highFrac.size() == n);
    CHECK(pc.peakLoad.size() == n);
    CHECK(pc.hitRate.size() == n);
    for (std::uint32_t op = 0; op < n; ++op) {
        const float hf = PressureResult::of(pc.highFrac, op, 0);
        CHECK((hf == pc.highFrac[op][0] || (std::isnan(hf) && std::isnan(pc.highFrac[op][0]))));
        if (!std::isnan(pc.hitRate[op])) CHECK(pc.hitRateOf(op) == pc.hitRate[op]);
    }
    // The per-op metric is made at its first value: here from the copies' byte counts, or not at all.
    CHECK((pc.metric.empty() || pc.metric.size() == n));
    // And the causes read a missing array as NaN: the anomalies without counters are all estimated.
    std::size_t measured = 0;
    for (const Provenance pr : bare->causes().provenance) measured += pr == Provenance::Measured;
    CHECK(measured == 0);
}

TEST_CASE("an operator's credit is kept only where a counter or a per-op metric can give one", "[analysis][causes]") {
    for (const sim::CounterMode mode : {sim::CounterMode::Full, sim::CounterMode::None, sim::CounterMode::Period}) {
        contend::test::SimOptions o;
        o.scenario = sim::Scenario::Mixed;
        o.seed = 4;
        o.counters = mode;
        if (mode == sim::CounterMode::Period) o.periodNs = 1'000'000;
        auto p = prepareAnalysis(contend::test::simulated(o).trace, AnalysisSettings{}).value();
        REQUIRE(p);
        const CauseResult& c = p->causes();
        const PressureResult& pr = p->pressure();
        const bool measurable =
            std::find(pr.haveCounters.begin(), pr.haveCounters.end(), true) != pr.haveCounters.end() ||
            std::find(pr.haveMetrics.begin(), pr.haveMetrics.end(), true) != pr.haveMetrics.end();
        // (1 ms means are too coarse to speak for these operators: the engine may drop them.)
        if (mode != sim::CounterMode::Period) CHECK(measurable == (mode == sim::CounterMode::Full));
        const std::size_t n = p->operators().size();
        CHECK(c.credit.size() == (measurable ? n : 0));
        CHECK(c.ownTally.size() == (measurable ? n : 0));
        // What the readers see: each op's credit, zero for every op when nothing could give one,
        // some for each op measured on a resource, and some op measured when the counters are full.
        std::size_t credited = 0;
        for (std::uint32_t op = 0; op < n; ++op) {
            const PressureArray& cr = c.creditOf(op);
            credited += std::any_of(cr.begin(), cr.end(), [](float x) { return x > 0; }) ? 1 : 0;
            if (c.provenance[op] == Provenance::Measured && pressureIndex(c.cause[op]) >= 0)
                CHECK(cr[static_cast<std::size_t>(pressureIndex(c.cause[op]))] > 0);
        }
        if (mode == sim::CounterMode::None) CHECK(credited == 0);
        if (mode == sim::CounterMode::Full) CHECK(credited > 0);
    }
}
