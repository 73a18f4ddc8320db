// The simulator's modes that make its traces look like real profilers' (issue 11): counter
// modes (full, none, one mean per period) and the bad-step rate of the single-cause scenarios.
// The null scenario has its own file (test_sim_null.cpp).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "analysis_sim.h"
#include "core/sim/model/counter_mode.h"
#include "core/sim/model/project_x.h"
#include "core/sim/run_simulation.h"
#include "core/sim/write/counter_resampler.h"
#include "sim_test_output.h"
#include "test_paths.h"

using namespace contend;
using namespace contend::sim;
using namespace contend::test;

namespace {

// Time-weighted mean, in tenths, of a full-mode step function over [a, b): each value holds
// until the next sample.
double meanOver(const Readings& full, TimeNs a, TimeNs b) {
    double sum = 0;
    for (std::size_t i = 0; i < full.t.size(); ++i) {
        const TimeNs from = std::max(a, full.t[i]);
        const TimeNs to = std::min(b, i + 1 < full.t.size() ? full.t[i + 1] : b);
        if (to > from) sum += static_cast<double>(full.v[i]) * static_cast<double>(to - from);
    }
    return sum / static_cast<double>(b - a);
}

CounterSample sample(TimeNs t, Series s, std::int16_t exact) {
    CounterSample c;
    c.t = t;
    c.series = s;
    c.exact = exact;
    c.tenths = exact;
    return c;
}

int cli(const std::string& args) {
    const std::string cmd = contend::test::cliPath() + " simulate " + args + " >/dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("counter settings parse from full, none or a period in microseconds", "[sim][counters]") {
    CHECK(parseCounterSetting("full")->mode == CounterMode::Full);
    CHECK(parseCounterSetting("none")->mode == CounterMode::None);
    const auto p = parseCounterSetting("1000");
    REQUIRE(p);
    CHECK(p->mode == CounterMode::Period);
    CHECK(p->periodNs == 1'000'000);
    CHECK(counterSettingName(*p) == "1000us");
    for (const char* bad : {"", "0", "-5", "1.5", "10ms", "Full", "1000 "}) CHECK_FALSE(parseCounterSetting(bad));
}

TEST_CASE("the resampler writes the time-weighted mean of each period", "[sim][counters]") {
    // P = 100 ns from 0, no noise. Bandwidth (tenths):
    //   step 1: 200 at 0, 400 at 50, idle 0 at 230; the step ends at 240
    //   step 2: idle 0 at 320, 600 at 350; the trace ends at 430
    // Periods: [0,100) 200*50+400*50 -> 300; [100,200) no change -> 400; [200,300) 400*30, then
    // idle across the gap -> 120; [300,400) gap, idle, then 600*50 -> 300; [400,430) partial
    // -> 600.
    CounterResampler r(0, 100, 0.0, 1);
    r.add(sample(-40, Series::HitRate, 920));  // before the origin: the value held at 0
    r.add(sample(0, Series::Bandwidth, 200));
    r.add(sample(50, Series::Bandwidth, 400));
    r.add(sample(230, Series::Bandwidth, 0));
    r.add(sample(230, Series::HitRate, 920));
    r.holdUntil(240);
    std::vector<CounterSample> first = r.take();
    REQUIRE(first.size() == 4);  // periods 0 and 1 are complete, two series each
    CHECK(first[0].t == 0);
    CHECK(first[0].series == Series::Bandwidth);
    CHECK(first[0].tenths == 300);
    CHECK(first[1].series == Series::HitRate);
    CHECK(first[1].tenths == 920);
    CHECK(first[2].t == 100);
    CHECK(first[2].tenths == 400);

    r.add(sample(320, Series::Bandwidth, 0));
    r.add(sample(350, Series::Bandwidth, 600));
    r.finish(430);
    std::vector<CounterSample> rest = r.take();
    std::vector<std::pair<TimeNs, int>> bw;
    for (const CounterSample& s : rest)
        if (s.series == Series::Bandwidth) bw.push_back({s.t, s.tenths});
    CHECK(bw == std::vector<std::pair<TimeNs, int>>{{200, 120}, {300, 300}, {400, 600}});
    CHECK(rest.size() == 6);
    r.finish(430);  // finishing twice adds nothing
    CHECK(r.take().empty());

    // A mean that is not whole tenths rounds: 100 for 1/3 of the period, 0 after -> 33.3 -> 33.
    CounterResampler third(0, 300, 0.0, 1);
    third.add(sample(0, Series::Compute, 100));
    third.add(sample(100, Series::Compute, 0));
    third.finish(300);
    const std::vector<CounterSample> one = third.take();
    REQUIRE(one.size() == 1);
    CHECK(one[0].tenths == 33);
    CHECK(one[0].exact == 33);
}

TEST_CASE("resampler noise is reproducible, small, and leaves idle zeros at zero", "[sim][counters]") {
    auto series = [](std::uint64_t seed) {
        CounterResampler r(0, 1000, 0.4, seed);
        for (int k = 0; k < 400; ++k) r.add(sample(k * 500, Series::Bandwidth, k % 4 == 0 ? 0 : 500));
        r.finish(400 * 500);
        return r.take();
    };
    const std::vector<CounterSample> a = series(9), b = series(9), c = series(10);
    REQUIRE(a.size() == 200);
    bool differs = false, noisy = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].tenths == b[i].tenths);
        differs = differs || a[i].tenths != c[i].tenths;
        CHECK(a[i].exact == (i % 2 == 0 ? 250 : 500));
        CHECK(std::abs(a[i].tenths - a[i].exact) <= 24);  // within 6 sigma of 0.4 points
        noisy = noisy || a[i].tenths != a[i].exact;
    }
    CHECK(differs);
    CHECK(noisy);
    CounterResampler idle(0, 1000, 0.4, 9);
    idle.add(sample(0, Series::Issue, 0));
    idle.finish(5000);
    for (const CounterSample& s : idle.take()) CHECK(s.tenths == 0);
}

TEST_CASE("counter modes change only the counter events, never a kernel or the truth", "[sim][counters]") {
    SimulationRequest req = request(Scenario::Mixed, 5, 6);
    const Output full = run(req, "modes-full");
    req.counters = CounterMode::None;
    const Output none = run(req, "modes-none");
    req.counters = CounterMode::Period;
    req.counterIntervalNs = 1'000'000;
    const Output period = run(req, "modes-1ms");
    req.counterIntervalNs = 37'000;
    const Output odd = run(req, "modes-37us");

    const std::vector<std::string> kernels = nonCounterLines(full.trace);
    CHECK(kernels.size() > 2000);
    CHECK(nonCounterLines(none.trace) == kernels);
    CHECK(nonCounterLines(period.trace) == kernels);
    CHECK(nonCounterLines(odd.trace) == kernels);

    // The truth: identical but for the counts of what the trace holds.
    auto withoutCounts = [](const std::string& text) {
        nlohmann::json t = nlohmann::json::parse(text);
        t.erase("counts");
        return t;
    };
    const nlohmann::json truth = withoutCounts(full.truth);
    CHECK(withoutCounts(none.truth) == truth);
    CHECK(withoutCounts(period.truth) == truth);
    CHECK(withoutCounts(odd.truth) == truth);

    CHECK(none.summary.counts.counters == 0);
    CHECK(none.trace.find("\"ph\": \"C\"") == std::string::npos);
    CHECK(nlohmann::json::parse(none.truth)["counts"]["counters"] == 0);
    CHECK(full.summary.counts.counters > 10000);

    // Full mode keeps its old trace name; the others say their mode.
    CHECK(nlohmann::json::parse(full.trace)["traceName"] == "contend-sim/mixed/seed-5");
    CHECK(nlohmann::json::parse(none.trace)["traceName"] == "contend-sim/mixed/seed-5/counters-none");
    CHECK(nlohmann::json::parse(period.trace)["traceName"] == "contend-sim/mixed/seed-5/counters-1000us");
}

TEST_CASE("period counters: one sample per series per period, the mean of the full counters", "[sim][counters]") {
    for (const TimeNs p : {TimeNs{1'000'000}, TimeNs{37'000}}) {
        INFO("period " << p << " ns");
        SimulationRequest req = request(Scenario::Mixed, 5, 6);
        req.counterNoise = 0;  // exact values, so the two modes compare to the rounding
        const Output full = run(req, "period-full");
        req.counters = CounterMode::Period;
        req.counterIntervalNs = p;
        const Output period = run(req, "period-p");
        const nlohmann::json steps = nlohmann::json::parse(full.truth)["steps"];
        const TimeNs origin = steps.front()["start_ns"].get<TimeNs>();
        const TimeNs end = steps.back()["end_ns"].get<TimeNs>();
        const std::size_t intervals = static_cast<std::size_t>((end - origin + p - 1) / p);

        const std::map<std::string, Readings> fullTracks = counterTracks(full.trace);
        const std::map<std::string, Readings> tracks = counterTracks(period.trace);
        REQUIRE(tracks.size() == 4);
        CHECK(period.summary.counts.counters == 4 * intervals);
        for (const auto& [name, track] : tracks) {
            INFO(name);
            REQUIRE(track.t.size() == intervals);
            const Readings& fine = fullTracks.at(name);
            double worst = 0;
            for (std::size_t k = 0; k < intervals; ++k) {
                const TimeNs a = origin + static_cast<TimeNs>(k) * p;
                CHECK(track.t[k] == a);  // evenly spaced from the first step's start
                const double expected = meanOver(fine, a, std::min(a + p, end));
                worst = std::max(worst, std::abs(static_cast<double>(track.v[k]) - expected));
            }
            CHECK(worst <= 0.5 + 1e-9);  // half a tenth: rounding only
        }
    }

    // With the default noise (0.4 points), values stay within 6 sigma of the exact means.
    SimulationRequest req = request(Scenario::Cache, 2, 4);
    req.counters = CounterMode::Period;
    req.counterIntervalNs = 250'000;
    const Output noisy = run(req, "period-noisy");
    req.counterNoise = 0;
    const Output exact = run(req, "period-exact");
    const std::map<std::string, Readings> a = counterTracks(noisy.trace);
    const std::map<std::string, Readings> b = counterTracks(exact.trace);
    bool moved = false;
    for (const auto& [name, track] : a) {
        const Readings& e = b.at(name);
        REQUIRE(track.v.size() == e.v.size());
        for (std::size_t k = 0; k < e.v.size(); ++k) {
            CHECK(std::abs(track.v[k] - e.v[k]) <= 24);
            moved = moved || track.v[k] != e.v[k];
        }
    }
    CHECK(moved);
    CHECK(run(req, "period-exact-again").trace == exact.trace);  // same seed, same bytes
}

TEST_CASE("period counters work with events mode and periods longer than the trace", "[sim][counters]") {
    SimulationRequest req;
    req.scenario = Scenario::Lock;
    req.events = 3000;
    req.hostEvents = false;
    req.counters = CounterMode::Period;
    req.counterIntervalNs = 1'000'000;
    const Output ev = run(req, "period-events");
    CHECK(ev.summary.counts.kernels >= 3000);
    CHECK(ev.summary.counts.counters == 4 * static_cast<std::uint64_t>((ev.summary.endToEndNs + 999'999) / 1'000'000));

    SimulationRequest once = request(Scenario::Lock, 1, 2);
    once.counters = CounterMode::Period;
    once.counterIntervalNs = 3'600'000'000'000LL;  // an hour: one partial sample per series
    CHECK(run(once, "period-hour").summary.counts.counters == 4);

    SimulationRequest broken = request(Scenario::Lock, 1, 2);
    broken.counters = CounterMode::Period;
    broken.tracePath = "/dev/null";
    const Result<SimulationSummary> s = runSimulation(broken);  // no period given
    REQUIRE_FALSE(s.ok());
    CHECK(s.failure().kind == Failure::Kind::Invalid);
}

TEST_CASE("bad rate 1 is today's scenario, 0 its fixed sites, 0.5 a per-step mix", "[sim][bad-rate]") {
    for (Scenario sc : {Scenario::Bandwidth, Scenario::SyncCluster, Scenario::Cache, Scenario::Lock}) {
        INFO(scenarioName(sc));
        const SimulationRequest plain = request(sc, 4, 12);
        const Output today = run(plain, "bad-today");
        SimulationRequest one = plain;
        one.badRate = 1.0;
        const Output all = run(one, "bad-one");
        CHECK(all.trace == today.trace);
        CHECK(all.truth == today.truth);

        SimulationRequest fixedReq = plain;
        fixedReq.fixed = true;
        SimulationRequest zero = plain;
        zero.badRate = 0.0;
        const nlohmann::json fixedOps = nlohmann::json::parse(run(fixedReq, "bad-fixed").truth)["ops"];
        const nlohmann::json zeroTruth = nlohmann::json::parse(run(zero, "bad-zero").truth);
        CHECK(zeroTruth["ops"] == fixedOps);
        CHECK(zeroTruth["bad_rate"].get<double>() == 0.0);

        SimulationRequest half = plain;
        half.badRate = 0.5;
        const Output mix = run(half, "bad-half");
        CHECK(run(half, "bad-half-again").trace == mix.trace);  // deterministic
        const nlohmann::json t = nlohmann::json::parse(mix.truth);
        CHECK(t["bad_rate"].get<double>() == 0.5);
        CHECK(nlohmann::json::parse(mix.trace)["traceName"] ==
              "contend-sim/" + std::string(scenarioName(sc)) + "/seed-4/bad-0.5");
        // Each step is all bad or all good, as sitesFor says for that step alone.
        const std::string site = sc == Scenario::SyncCluster ? "sync" : std::string(scenarioName(sc));
        std::map<int, std::set<bool>> injected;
        for (const auto& o : t["ops"]) {
            const std::string tag = o.value("tag", "");
            if (tag == "injected:" + site || tag == "fixed:" + site)
                injected[o["iteration"].get<int>()].insert(tag == "injected:" + site);
        }
        REQUIRE(injected.size() == 12);
        int bad = 0;
        for (const auto& [step, kinds] : injected) {
            REQUIRE(kinds.size() == 1);
            const Sites sites = sitesFor(sc, false, 4, step, 0.5);
            const bool expected = sites.bandwidth || sites.sync || sites.cache || sites.lock;
            CHECK(*kinds.begin() == expected);
            bad += expected;
        }
        CHECK(bad >= 2);
        CHECK(bad <= 10);
        // A bad step of the mix is the same step of the always-bad scenario (built alone).
        const ProjectX always(sc, false, 4), mixed(sc, false, 4, 0.5);
        for (int step = 0; step < 12; ++step) {
            const Sites s = mixed.sites(step);
            if (!(s.bandwidth || s.sync || s.cache || s.lock)) continue;
            const Iteration a = mixed.build(step), b = always.build(step);
            REQUIRE(a.ops.size() == b.ops.size());
            for (std::size_t k = 0; k < a.ops.size(); ++k) {
                CHECK(a.ops[k].name == b.ops[k].name);
                CHECK(a.ops[k].tag == b.ops[k].tag);
                CHECK(a.ops[k].workNs == b.ops[k].workNs);
            }
        }
    }
}

TEST_CASE("a bad rate is refused where it has no meaning", "[sim][bad-rate]") {
    for (Scenario sc : {Scenario::Mixed, Scenario::Null}) {
        SimulationRequest req = request(sc, 1, 1);
        req.badRate = 0.5;
        req.tracePath = "/dev/null";
        const Result<SimulationSummary> s = runSimulation(req);
        REQUIRE_FALSE(s.ok());
        CHECK(s.failure().kind == Failure::Kind::Invalid);
        CHECK(s.failure().message().find("bad-step rate") != std::string::npos);
    }
    SimulationRequest req = request(Scenario::Cache, 1, 1);
    req.badRate = 1.5;
    req.tracePath = "/dev/null";
    CHECK_FALSE(runSimulation(req).ok());
}

TEST_CASE("contend-cli simulate: counter modes, bad rate and null", "[sim][cli]") {
    TempFile out("sim-modes-cli.json");
    CHECK(cli("null --iterations 1 --quiet --counters 1000 --out " + out.path()) == 0);
    CHECK(cli("cache --iterations 2 --quiet --counters none --bad-rate 0.5 --out " + out.path()) == 0);
    CHECK(cli("null --counters 0 --out " + out.path()) == 2);
    CHECK(cli("null --counters sometimes --out " + out.path()) == 2);
    CHECK(cli("mixed --bad-rate 0.5 --out " + out.path()) == 2);
    CHECK(cli("null --bad-rate 0.5 --out " + out.path()) == 2);
    CHECK(cli("lock --bad-rate 2 --out " + out.path()) == 2);
    CHECK(cli("lock --bad-rate half --out " + out.path()) == 2);
}

TEST_CASE("the analysis tests' simulated() caches a run per set of options", "[sim][helper]") {
    const SimRun& plain = simulated(Scenario::Lock, false, 2);
    SimOptions same;
    same.scenario = Scenario::Lock;
    same.seed = 2;
    CHECK(&simulated(same) == &plain);  // the 3-argument call is these options
    CHECK_FALSE(plain.trace->counters().empty());

    const SimRun& quiet =
        simulated({.scenario = Scenario::Null, .seed = 2, .counters = CounterMode::None, .iterations = 2});
    CHECK(&quiet != &plain);
    CHECK(quiet.trace->counters().empty());
    CHECK(quiet.truth["scenario"] == "null");
    CHECK(quiet.truth["steps"].size() == 2);

    const SimRun& sampled = simulated({.scenario = Scenario::Cache,
                                       .seed = 2,
                                       .counters = CounterMode::Period,
                                       .periodNs = 1'000'000,
                                       .badRate = 0.5});
    CHECK(sampled.truth["bad_rate"].get<double>() == 0.5);
    REQUIRE(sampled.trace->counters().size() == 4);
    const CounterSeries& c = sampled.trace->counters().front();
    REQUIRE(c.times.size() > 2);
    CHECK(c.times[1] - c.times[0] == 1'000'000);
}
