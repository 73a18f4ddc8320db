// The device simulator (core/sim): its physics on hand-built steps whose answers follow from
// the model on paper, the scenarios against their fixed twins, determinism, and the written
// trace read back through our own reader.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "core/io/load.h"
#include "core/sim/model/device_model.h"
#include "core/sim/model/project_x.h"
#include "core/sim/model/rng.h"
#include "core/sim/model/simulator.h"
#include "core/sim/run_simulation.h"
#include "core/sim/write/json_text.h"
#include "core/trace/conventions.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
using namespace contend::sim;
using contend::test::TempFile;

namespace {

constexpr std::int64_t kMiB = 1 << 20;

// A device and host without jitter, so durations are exact.
SimConfig exactConfig() {
    SimConfig c;
    c.host.jitter = 0;
    c.counterNoise = 0;
    return c;
}

std::vector<StreamInfo> testStreams() { return {{7, "a"}, {13, "b"}, {21, "gate"}}; }

OpSpec op(const char* name, std::int32_t stream, double us, OpDemand d) {
    OpSpec o;
    o.name = name;
    o.hostOp = std::string("aten::") + name;
    o.stream = stream;
    o.workNs = static_cast<TimeNs>(us * 1000);
    o.jitterSigma = 0;
    o.demand = d;
    return o;
}

// A step where every listed op starts at the same moment: a 100 us gate op with no demand runs
// first on its own stream, and each op waits for it (by then all launches have arrived).
Iteration together(std::vector<OpSpec> ops) {
    Iteration it;
    it.ops.push_back(op("gate", 21, 100, {}));
    for (OpSpec& o : ops) {
        o.after.push_back(0);
        it.ops.push_back(std::move(o));
    }
    return it;
}

// Runs one step on a fresh simulator and returns a copy of its result.
IterationResult simulate(const Iteration& it, SimConfig config = exactConfig()) {
    Simulator sim(std::move(config), testStreams(), 1);
    REQUIRE(validate(it, sim.streams()).empty());
    return sim.run(it);
}

TimeNs soloDuration(const OpSpec& o) {
    const IterationResult r = simulate(together({o}));
    return r.ops[1].dur();
}

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

SimulationSummary simulateTo(const std::string& trace, const std::string& truth, Scenario s, bool fixed,
                             std::uint64_t seed, int iterations) {
    SimulationRequest req;
    req.scenario = s;
    req.fixed = fixed;
    req.seed = seed;
    req.iterations = iterations;
    req.tracePath = trace;
    req.truthPath = truth;
    Result<SimulationSummary> sum = runSimulation(req);
    INFO((sum ? std::string() : sum.failure().message()));
    REQUIRE(sum.ok());
    return sum.value();
}

nlohmann::json readJson(const std::string& path) { return nlohmann::json::parse(slurp(path)); }

}  // namespace

TEST_CASE("water-filling gives small wants in full and splits the rest", "[sim][physics]") {
    std::vector<double> alloc;
    waterFill(std::vector<double>{0.8, 0.8}, 1.0, alloc);
    CHECK(alloc[0] == Approx(0.5));
    CHECK(alloc[1] == Approx(0.5));
    waterFill(std::vector<double>{0.8, 0.3}, 1.0, alloc);
    CHECK(alloc[0] == Approx(0.7));
    CHECK(alloc[1] == Approx(0.3));
    waterFill(std::vector<double>{0.2, 0.3}, 1.0, alloc);  // fits: untouched
    CHECK(alloc[0] == 0.2);
    CHECK(alloc[1] == 0.3);
}

TEST_CASE("two memory-bound ops together each take the sum of their demands times solo", "[sim][physics]") {
    const OpDemand mem{0.8, 0.1, 0.3, 4 * kMiB, 0, 0};
    const OpSpec a = op("normalize", 7, 100, mem);
    const OpSpec b = op("transform", 13, 100, mem);
    REQUIRE(soloDuration(a) == 100000);
    REQUIRE(soloDuration(b) == 100000);
    const IterationResult r = simulate(together({a, b}));
    // 0.8 + 0.8 of peak: each gets half the bandwidth, progresses at 0.5 / 0.8 = 0.625: 1.6x.
    CHECK(r.ops[1].start == r.ops[2].start);
    CHECK(static_cast<double>(r.ops[1].dur()) == Approx(160000).epsilon(0.01));
    CHECK(static_cast<double>(r.ops[2].dur()) == Approx(160000).epsilon(0.01));
    CHECK(r.ops[1].soloNs == 100000);
    CHECK(r.ops[1].cause == Cause::Bandwidth);
    CHECK(r.ops[2].cause == Cause::Bandwidth);
}

TEST_CASE("a memory-light op beside a memory-bound one keeps its speed", "[sim][physics]") {
    const OpSpec heavy = op("normalize", 7, 100, {0.8, 0.05, 0.1, 4 * kMiB, 0, 0});
    const OpSpec light = op("gemm", 13, 100, {0.3, 0.5, 0.5, 4 * kMiB, 0, 0});
    const IterationResult r = simulate(together({heavy, light}));
    // Water-filling: light gets its 0.3, heavy the remaining 0.7 (rate 0.875) until light ends
    // at 100 us with 87.5 us of work done, then runs alone: 112.5 us.
    CHECK(r.ops[2].dur() == 100000);
    CHECK(r.ops[2].cause == Cause::None);
    CHECK(static_cast<double>(r.ops[1].dur()) == Approx(112500).epsilon(0.001));
}

TEST_CASE("devices the rules were not written against: proportional sharing, half the bandwidth, a small cache",
          "[sim][physics][device]") {
    std::vector<double> alloc;
    proportionalFill(std::vector<double>{0.8, 0.3}, 1.0, alloc);
    CHECK(alloc[0] == Approx(0.8 / 1.1));
    CHECK(alloc[1] == Approx(0.3 / 1.1));
    proportionalFill(std::vector<double>{0.2, 0.3}, 1.0, alloc);  // fits: untouched
    CHECK(alloc[0] == 0.2);
    CHECK(alloc[1] == 0.3);

    SimConfig proportional = exactConfig();
    proportional.device = *devicePreset("proportional");
    const OpSpec heavy = op("normalize", 7, 100, {0.8, 0.05, 0.1, 4 * kMiB, 0, 0});
    const OpSpec light = op("gemm", 13, 100, {0.3, 0.5, 0.5, 4 * kMiB, 0, 0});
    // Unlike water-filling, the light op loses its share too: 0.3 / 1.1 of its ask, 1.1x.
    const IterationResult r = simulate(together({heavy, light}), proportional);
    CHECK(static_cast<double>(r.ops[2].dur()) == Approx(110000).epsilon(0.001));
    CHECK(r.ops[2].cause == Cause::Bandwidth);

    SimConfig narrow = exactConfig();
    narrow.device = *devicePreset("narrow");
    // Alone, an op asking 0.8 of the reference bandwidth asks 1.6 of this device's: it runs at
    // 1 / 1.6 by itself, which is its solo time (no slowdown, no cause).
    const IterationResult alone = simulate(together({heavy}), narrow);
    CHECK(static_cast<double>(alone.ops[1].dur()) == Approx(160000).epsilon(0.001));
    CHECK(alone.ops[1].soloNs == alone.ops[1].dur());
    CHECK(alone.ops[1].cause == Cause::None);
    // Two asks of 0.3 fit the reference device and contend on this one (0.6 + 0.6): 1.2x.
    const OpDemand third{0.3, 0.1, 0.1, 4 * kMiB, 0, 0};
    const IterationResult pair = simulate(together({op("a", 7, 100, third), op("b", 13, 100, third)}), narrow);
    CHECK(static_cast<double>(pair.ops[1].dur()) == Approx(120000).epsilon(0.001));
    CHECK(pair.ops[1].cause == Cause::Bandwidth);
    CHECK(simulate(together({op("a", 7, 100, third), op("b", 13, 100, third)})).ops[1].dur() == 100000);

    const DeviceModel small(*devicePreset("small-cache"));
    const DeviceModel reference(*devicePreset("simdevice"));
    CHECK(small.hitRateFor(20 * kMiB) < reference.hitRateFor(20 * kMiB));
    CHECK(reference.hitRateFor(20 * kMiB) == reference.config().baseHitRate);
    CHECK_FALSE(devicePreset("gpu9000"));
}

TEST_CASE("a simulation names its device in the trace name and refuses an unknown one", "[sim][device]") {
    TempFile trace("dev.json"), truth("dev.truth.json");
    SimulationRequest req;
    req.scenario = Scenario::Bandwidth;
    req.iterations = 2;
    req.tracePath = trace.path();
    req.truthPath = truth.path();
    req.device = "narrow";
    REQUIRE(runSimulation(req).ok());
    CHECK(traceNameFor(req) == "contend-sim/bandwidth/seed-1/device-narrow");
    CHECK(readJson(truth.path())["device"]["peak_bandwidth_gbps"] == 1020);
    req.device = "simdevice";
    CHECK(traceNameFor(req) == "contend-sim/bandwidth/seed-1");
    req.device = "gpu9000";
    const auto bad = runSimulation(req);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.failure().message().find("unknown device 'gpu9000'") != std::string::npos);
}

TEST_CASE("two compute-bound ops share the compute units", "[sim][physics]") {
    const OpDemand conv{0.1, 0.7, 0.6, 4 * kMiB, 0, 0};
    const IterationResult r = simulate(together({op("conv_a", 7, 200, conv), op("conv_b", 13, 200, conv)}));
    // 0.7 + 0.7 of the units: each runs at 0.5 / 0.7: 1.4x.
    CHECK(static_cast<double>(r.ops[1].dur()) == Approx(280000).epsilon(0.01));
    CHECK(static_cast<double>(r.ops[2].dur()) == Approx(280000).epsilon(0.01));
    CHECK(r.ops[1].cause == Cause::Compute);
}

TEST_CASE("overlapping ops whose combined demand fits do not slow down", "[sim][physics]") {
    const IterationResult r = simulate(together({op("conv", 7, 120, {0.2, 0.8, 0.6, 16 * kMiB, 0.25, 0.1}),
                                                 op("roi_align", 13, 60, {0.35, 0.15, 0.2, 4 * kMiB, 0, 0})}));
    CHECK(r.ops[1].dur() == 120000);
    CHECK(r.ops[2].dur() == 60000);
    CHECK(r.ops[1].cause == Cause::None);
    CHECK(r.ops[2].cause == Cause::None);
}

TEST_CASE("working sets beyond the cache lower the hit rate and slow cache-sensitive ops", "[sim][physics]") {
    const SimConfig cfg = exactConfig();
    const double cap = static_cast<double>(cfg.device.cacheBytes);  // 40 MiB
    const double base = cfg.device.baseHitRate;                     // 0.92
    const OpSpec conv = op("conv_chain", 7, 100, {0.1, 0.3, 0.5, 24 * kMiB, 0.6, 0.0});
    const OpSpec fpn = op("fpn", 13, 400, {0.1, 0.2, 0.3, 48 * kMiB, 0.0, 0.0});
    REQUIRE(soloDuration(conv) == 100000);
    const IterationResult r = simulate(together({conv, fpn}));
    // Shared hit rate 0.92 * 40 / 72; the conv loses (0.92 - h) / 0.92 of its hits and takes
    // 1 + 0.6 * lost times as long.
    const double hit = base * cap / static_cast<double>(72 * kMiB);
    const double lost = (base - hit) / base;
    CHECK(hit < 0.6);
    CHECK(r.ops[1].hitRate() == Approx(hit).epsilon(1e-9));
    CHECK(static_cast<double>(r.ops[1].dur()) == Approx(100000 * (1 + 0.6 * lost)).epsilon(0.01));
    CHECK(r.ops[1].cause == Cause::Cache);
    // The fpn op is not sensitive: same hit rate, full speed.
    CHECK(r.ops[2].dur() == 400000);
    CHECK(r.ops[2].cause == Cause::None);
    // The L2 counter shows the drop while both run, and base again once the conv ends.
    bool sawDrop = false;
    for (const CounterSample& s : r.samples)
        if (s.series == Series::HitRate && s.t > r.ops[1].start && s.t < r.ops[1].end)
            sawDrop = sawDrop || s.tenths == static_cast<std::int16_t>(std::llround(hit * 1000));
    CHECK(sawDrop);

    // Re-tiled (12 + 20 MiB fit): no loss at all.
    OpSpec tiledConv = conv;
    tiledConv.demand.wsBytes = 12 * kMiB;
    OpSpec tiledFpn = fpn;
    tiledFpn.demand.wsBytes = 20 * kMiB;
    const IterationResult f = simulate(together({tiledConv, tiledFpn}));
    CHECK(f.ops[1].dur() == 100000);
    CHECK(f.ops[1].hitRate() == Approx(base));
}

TEST_CASE("lost hits add DRAM traffic that can saturate bandwidth", "[sim][physics]") {
    // Each op alone: bw 0.45 at its solo hit rate. Together their 60 MiB overflow the 40 MiB
    // cache; lost = 1/3 of the hits, each adds reuse 0.6 * 1/3 = 0.2 of peak: 0.65 + 0.65 > 1.
    const OpDemand d{0.45, 0.1, 0.2, 30 * kMiB, 0.0, 0.6};
    const IterationResult r = simulate(together({op("a", 7, 100, d), op("b", 13, 100, d)}));
    const DeviceModel model(exactConfig().device);
    const OpDemand* both[] = {&d, &d};
    std::vector<OpRate> rates;
    const DeviceLoad load = model.solve(both, 0, rates);
    CHECK(rates[0].bw == Approx(0.45 + 0.6 * (1.0 - 40.0 / 60.0)));
    CHECK(rates[0].rate == Approx(0.5 / rates[0].bw));
    CHECK(load.bandwidth == Approx(1.0));
    CHECK(static_cast<double>(r.ops[1].dur()) == Approx(100000 / rates[0].rate).epsilon(0.01));
    CHECK(r.ops[1].cause == Cause::Bandwidth);
}

TEST_CASE("a sync barrier leaves exactly its cost between tiny ops", "[sim][physics]") {
    const SimConfig cfg = exactConfig();
    Iteration it;
    for (int k = 0; k < 6; ++k) {
        OpSpec t = op("elementwise_mul", 7, 3, {0.1, 0.05, 0.1, 1 * kMiB, 0, 0});
        t.barrier = true;
        it.ops.push_back(t);
    }
    const IterationResult r = simulate(it, cfg);
    for (int k = 1; k < 6; ++k) {
        CHECK(r.ops[k].start - r.ops[k - 1].end == cfg.device.barrierNs);
        CHECK(r.ops[k].barrierNs == cfg.device.barrierNs);
        CHECK(r.ops[k].dur() == 3000);
        CHECK(r.ops[k].cause == Cause::Sync);
        CHECK(r.ops[k].syncStart != kNoTime);  // the host synchronised before launching it
    }
    REQUIRE(r.clusters.size() == 1);
    const SyncCluster& c = r.clusters[0];
    CHECK(c.ops == 6);
    CHECK(c.busyNs == 6 * 3000);
    CHECK(c.end == r.ops[5].end);
    CHECK(c.barrierNs == r.ops[0].barrierNs + 5 * cfg.device.barrierNs);
    CHECK(c.start == r.ops[0].start - r.ops[0].barrierNs);
}

TEST_CASE("ops sharing a lock: one spins while the other holds it, on idle counters", "[sim][physics]") {
    Iteration it = together({op("scatter_add_atomic", 7, 40, {0.04, 0.05, 0.03, 1 * kMiB, 0, 0}),
                             op("index_put_accumulate", 13, 40, {0.04, 0.05, 0.03, 1 * kMiB, 0, 0})});
    it.locks = {"cu_group_3.accum_lock"};
    it.ops[1].lock = 0;
    it.ops[2].lock = 0;
    const IterationResult r = simulate(it);
    CHECK(r.ops[1].start == r.ops[2].start);
    CHECK(r.ops[1].dur() == 40000);  // holder: unaffected
    CHECK(r.ops[1].cause == Cause::None);
    CHECK(r.ops[2].lockWaitNs == 40000);  // waiter: spins for the holder's whole run
    CHECK(r.ops[2].dur() == 80000);
    CHECK(r.ops[2].soloNs == 40000);
    CHECK(r.ops[2].cause == Cause::Lock);
    REQUIRE(r.lockWaits.size() == 1);
    CHECK(r.lockWaits[0].op == 2);
    CHECK(r.lockWaits[0].holder == 1);
    CHECK(r.lockWaits[0].waitNs == 40000);
    for (const CounterSample& s : r.samples) {
        if (s.t >= r.ops[1].start && s.t < r.ops[2].end && s.series != Series::HitRate)
            CHECK(s.tenths < 100);  // below 10% on every utilisation counter
    }
    // Separate locks: both run at once.
    it.locks.push_back("private");
    it.ops[2].lock = 1;
    const IterationResult f = simulate(it);
    CHECK(f.ops[2].dur() == 40000);
    CHECK(f.lockWaits.empty());
}

TEST_CASE("jitter draws are reproducible and shaped", "[sim][rng]") {
    Rng a(42), b(42), c(43);
    double sum = 0, sq = 0;
    bool differs = false;
    for (int i = 0; i < 20000; ++i) {
        const double x = a.normal();
        CHECK(x == b.normal());
        differs = differs || x != c.normal();
        sum += x;
        sq += x * x;
    }
    CHECK(differs);
    CHECK(sum / 20000 == Approx(0).margin(0.03));
    CHECK(sq / 20000 == Approx(1).epsilon(0.05));
}

TEST_CASE("numbers are printed exactly with integer arithmetic", "[sim][json]") {
    JsonText t;
    t.micros(1000013552)
        .raw(" ")
        .micros(5)
        .raw(" ")
        .fixed(-735, 1)
        .raw(" ")
        .ratio(1, 3, 4)
        .raw(" ")
        .ratio(-2, 3, 2)
        .raw(" ")
        .string("a\"b\n");
    CHECK(t.text() == "1000013.552 0.005 -73.5 0.3333 -0.67 \"a\\\"b\\u000a\"");
}

TEST_CASE("every fixed twin is faster end to end than its scenario", "[sim][scenario]") {
    for (Scenario s : allScenarios()) {
        if (s == Scenario::Null) continue;  // nothing to fix: its "--fixed" is the same trace
        INFO(scenarioName(s));
        TempFile bad("sim-bad.json"), good("sim-good.json");
        const SimulationSummary b = simulateTo(bad.path(), "", s, false, 3, 8);
        const SimulationSummary g = simulateTo(good.path(), "", s, true, 3, 8);
        CHECK(g.endToEndNs < b.endToEndNs);
    }
}

TEST_CASE("scenarios plant their causes and spare the controls", "[sim][scenario]") {
    TempFile trace("sim-mixed.json"), truth("sim-mixed.truth.json");
    simulateTo(trace.path(), truth.path(), Scenario::Mixed, false, 7, 24);
    const nlohmann::json t = readJson(truth.path());
    CHECK(t["schema"] == "contend.truth/1");
    std::set<std::string> causes;
    for (const auto& o : t["ops"]) {
        causes.insert(o["cause"].get<std::string>());
        const std::string tag = o.value("tag", "");
        if (tag.rfind("control:", 0) == 0) {
            INFO(o.dump());
            CHECK(o["cause"] == "none");
            CHECK(o["slowdown"].get<double>() < 0.02);
        }
    }
    CHECK(causes == std::set<std::string>{"none", "bandwidth", "cache", "sync", "lock"});
    CHECK_FALSE(t["clusters"].empty());
    CHECK_FALSE(t["lock_waits"].empty());

    // The fixed twin flags nothing at all.
    TempFile fixedTrace("sim-mixed-fixed.json"), fixedTruth("sim-mixed-fixed.truth.json");
    simulateTo(fixedTrace.path(), fixedTruth.path(), Scenario::Mixed, true, 7, 24);
    const nlohmann::json f = readJson(fixedTruth.path());
    for (const auto& o : f["ops"]) CHECK(o["cause"] == "none");
    CHECK(f["clusters"].empty());
    CHECK(f["lock_waits"].empty());
    CHECK(f["end_to_end_ns"].get<std::int64_t>() < t["end_to_end_ns"].get<std::int64_t>());
}

TEST_CASE("the cache scenario drops the hit rate under 60%, its twin keeps it above 85%", "[sim][scenario]") {
    TempFile trace("sim-cache.json"), truth("sim-cache.truth.json");
    simulateTo(trace.path(), truth.path(), Scenario::Cache, false, 5, 6);
    TempFile fixedTrace("sim-cache-f.json"), fixedTruth("sim-cache-f.truth.json");
    simulateTo(fixedTrace.path(), fixedTruth.path(), Scenario::Cache, true, 5, 6);
    auto minHit = [](const nlohmann::json& t) {
        double m = 1;
        for (const auto& o : t["ops"])
            if (o["name"] == "conv2d_3x3_bias_relu_fwd") m = std::min(m, o["hit_rate"].get<double>());
        return m;
    };
    CHECK(minHit(readJson(truth.path())) < 0.6);
    CHECK(minHit(readJson(fixedTruth.path())) > 0.85);
}

TEST_CASE("the same seed gives byte-identical output, another seed does not", "[sim][determinism]") {
    TempFile a("sim-a.json"), at("sim-a.truth.json"), b("sim-b.json"), bt("sim-b.truth.json");
    TempFile c("sim-c.json");
    simulateTo(a.path(), at.path(), Scenario::Mixed, false, 11, 6);
    simulateTo(b.path(), bt.path(), Scenario::Mixed, false, 11, 6);
    simulateTo(c.path(), "", Scenario::Mixed, false, 12, 6);
    const std::string ta = slurp(a.path());
    CHECK(ta.size() > 100000);
    CHECK(ta == slurp(b.path()));
    CHECK(slurp(at.path()) == slurp(bt.path()));
    CHECK(ta != slurp(c.path()));
    CHECK_FALSE(contend::test::leftTemporary(a.path()));
}

TEST_CASE("the written trace loads back with the counts the simulator wrote", "[sim][reader]") {
    for (const char* name : {"sim-rt.json", "sim-rt.json.gz"}) {
        INFO(name);
        TempFile trace(name), truth("sim-rt.truth.json");
        const SimulationSummary s = simulateTo(trace.path(), truth.path(), Scenario::Mixed, false, 7, 4);
        const LoadResult r = loadTrace(trace.path());
        REQUIRE(r);
        const Trace& t = *r.value();
        CHECK(formatName(t.traceFormat()) == "kineto");
        CHECK(t.stats().events == s.counts.events);
        std::map<std::string, std::uint64_t> phases(t.stats().phases.begin(), t.stats().phases.end());
        CHECK(phases == s.counts.phases);
        std::size_t kernels = 0;
        for (const Slice& sl : t.slices()) kernels += t.str(sl.category) == "kernel";
        CHECK(kernels == s.counts.kernels);
        CHECK(t.flows().size() == s.counts.flows);
        std::size_t samples = 0;
        std::set<std::string> series;
        for (const CounterSeries& c : t.counters()) {
            samples += c.times.size();
            series.insert(c.name);
        }
        CHECK(samples == s.counts.counters);
        CHECK(series == std::set<std::string>{"DRAM Bandwidth", "Compute Units", "L2 Cache", "Issue Slots"});
        // Each kernel's time in the trace is the truth's, to the ns.
        const nlohmann::json truthJson = readJson(truth.path());
        CHECK(truthJson["counts"]["events"].get<std::uint64_t>() == s.counts.events);
        std::multiset<std::pair<TimeNs, TimeNs>> fromTruth, fromTrace;
        for (const auto& o : truthJson["ops"])
            fromTruth.insert({o["start_ns"].get<TimeNs>(), o["dur_ns"].get<TimeNs>()});
        for (const Slice& sl : t.slices())
            if (t.str(sl.category) == "kernel") fromTrace.insert({sl.start, sl.dur});
        CHECK(fromTruth == fromTrace);
    }
}

TEST_CASE("events mode runs steps until about that many kernels", "[sim][scale]") {
    TempFile trace("sim-events.json");
    SimulationRequest req;
    req.scenario = Scenario::Mixed;
    req.events = 3000;
    req.tracePath = trace.path();
    req.hostEvents = false;
    const Result<SimulationSummary> s = runSimulation(req);
    REQUIRE(s.ok());
    CHECK(s->counts.kernels >= 3000);
    CHECK(s->counts.kernels < 3000 + 120);  // at most one step more
    CHECK(s->counts.flows == 0);
}

TEST_CASE("contend-cli simulate: help, usage errors and I/O errors", "[sim][cli]") {
    auto run = [](const std::string& args) {
        const std::string cmd = contend::test::cliPath() + " simulate " + args + " >/dev/null 2>&1";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    CHECK(run("--help") == 0);
    CHECK(run("") == 2);
    CHECK(run("nonsense --out x.json") == 2);
    CHECK(run("mixed") == 2);
    CHECK(run("mixed --seed abc --out x.json") == 2);
    CHECK(run("lock --iterations 1 --out /nonexistent-dir/x.json") == 3);
    TempFile out("sim-cli.json.gz");
    CHECK(run("lock --iterations 2 --quiet --out " + out.path()) == 0);
    const LoadResult r = loadTrace(out.path());
    REQUIRE(r);
    CHECK(r.value()->source().gzip);
}
