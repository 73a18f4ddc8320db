// The null scenario (issue 11): a busy four-stream device where nothing is shared. Its kernels
// overlap most of the time, yet none is slowed, and each signature's durations have the shape
// it was given (narrow, uniform, heavy-tailed, bimodal).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/sim/model/null_workload.h"
#include "core/sim/run_simulation.h"
#include "sim_test_output.h"

using namespace contend;
using namespace contend::sim;
using namespace contend::test;

TEST_CASE("null scenario: any four kernels fit the device, nothing waits or shares", "[sim][null]") {
    const Iteration it = NullWorkload().build(0);
    const DeviceConfig device;
    std::map<std::int32_t, OpDemand> ceiling;  // per stream, the largest demand of each kind
    using Shape = std::array<std::int32_t, 3>;
    std::set<std::tuple<std::string, Shape, Shape>> sigs;
    std::map<std::string, int> perSignature;
    for (const OpSpec& op : it.ops) {
        OpDemand& c = ceiling[op.stream];
        c.bw = std::max(c.bw, op.demand.bw);
        c.cu = std::max(c.cu, op.demand.cu);
        c.issue = std::max(c.issue, op.demand.issue);
        c.wsBytes = std::max(c.wsBytes, op.demand.wsBytes);
        CHECK(op.demand.cacheSens == 0);
        CHECK(op.demand.reuse == 0);
        CHECK(op.lock < 0);
        CHECK_FALSE(op.barrier);
        CHECK(op.after.empty());
        CHECK(op.tag.rfind("control:null-", 0) == 0);
        CHECK(op.demand.bw >= 0.08);  // real utilisation, not idle kernels
        sigs.insert({op.name, op.shape.grid, op.shape.block});
        ++perSignature[op.name + "/" + std::to_string(op.shape.grid[0]) + "x" + std::to_string(op.shape.grid[1])];
    }
    REQUIRE(ceiling.size() == 4);
    double bw = 0, cu = 0, issue = 0;
    std::int64_t ws = 0;
    for (const auto& [stream, c] : ceiling) {
        bw += c.bw;
        cu += c.cu;
        issue += c.issue;
        ws += c.wsBytes;
    }
    CHECK(bw <= 0.9 + 1e-12);
    CHECK(cu <= 0.9 + 1e-12);
    CHECK(issue <= 0.9 + 1e-12);
    CHECK(ws < device.cacheBytes);
    CHECK(sigs.size() >= 15);
    CHECK(sigs.size() <= 25);
    for (const auto& [sig, n] : perSignature) {
        INFO(sig);
        CHECK(n >= 5);  // at least a few launches of every signature per step
    }
    CHECK(validate(it, NullWorkload::streams()).empty());
}

TEST_CASE("null scenario: heavy overlap, no slowdown, and every duration shape visible", "[sim][null]") {
    SimulationRequest req = request(Scenario::Null, 3, 0);
    const Output out = run(req, "null");
    const nlohmann::json truth = nlohmann::json::parse(out.truth);
    const nlohmann::json& ops = truth["ops"];
    REQUIRE(out.summary.iterations == 24);
    REQUIRE(ops.size() == out.summary.counts.kernels);
    CHECK(truth["clusters"].empty());
    CHECK(truth["lock_waits"].empty());

    // Slowdown 0 and cause none everywhere; the durations are the drawn work itself.
    std::map<std::int32_t, std::vector<std::pair<TimeNs, TimeNs>>> byStream;
    for (const auto& o : ops) {
        INFO(o.dump());
        CHECK(o["cause"] == "none");
        CHECK(o["slowdown"].get<double>() <= 0.02);
        CHECK(o["dur_ns"] == o["solo_ns"]);
        const TimeNs s = o["start_ns"].get<TimeNs>();
        byStream[o["stream"].get<std::int32_t>()].push_back({s, s + o["dur_ns"].get<TimeNs>()});
    }
    REQUIRE(byStream.size() == 4);

    // Overlap: the share of kernel time during which another stream runs a kernel too.
    double kernelNs = 0, overlappedNs = 0;
    for (const auto& [stream, mine] : byStream) {
        std::vector<std::pair<TimeNs, TimeNs>> others;
        for (const auto& [s2, v] : byStream)
            if (s2 != stream) others.insert(others.end(), v.begin(), v.end());
        std::sort(others.begin(), others.end());
        std::size_t from = 0;
        for (const auto& [a, b] : mine) {
            kernelNs += static_cast<double>(b - a);
            while (from < others.size() && others[from].second <= a - 10'000'000)
                ++from;  // kernels are far shorter than 10 ms: nothing before this overlaps
            TimeNs cursor = a;
            for (std::size_t k = from; k < others.size() && others[k].first < b; ++k) {
                const TimeNs x = std::max(cursor, others[k].first);
                const TimeNs y = std::min(b, others[k].second);
                if (y > x) {
                    overlappedNs += static_cast<double>(y - x);
                    cursor = y;
                }
            }
        }
    }
    CHECK(overlappedNs / kernelNs >= 0.6);

    // Shapes, from each launch's duration over its signature's work (steps are built alone).
    std::map<std::string, std::vector<double>> factors;  // by tag
    std::size_t i = 0;
    for (int step = 0; step < 24; ++step) {
        const Iteration it = NullWorkload().build(step);
        for (const OpSpec& op : it.ops) {
            const auto& o = ops[i++];
            REQUIRE(o["name"].get<std::string>() == op.name);
            factors[op.tag].push_back(o["dur_ns"].get<double>() / static_cast<double>(op.workNs));
        }
    }
    auto sorted = [&](const char* tag) {
        std::vector<double> v = factors.at(tag);
        std::sort(v.begin(), v.end());
        return v;
    };
    const std::vector<double> uniform = sorted("control:null-uniform");
    CHECK(uniform.front() >= 0.5 - 1e-3);
    CHECK(uniform.front() < 0.6);
    CHECK(uniform.back() <= 1.5 + 1e-3);
    CHECK(uniform.back() > 1.4);
    const std::vector<double> heavy = sorted("control:null-heavy");
    const double heavyMedian = heavy[heavy.size() / 2];
    CHECK(heavy.front() >= 1.0 - 1e-3);
    CHECK(heavyMedian == Approx(1.414).margin(0.2));
    CHECK(heavy.back() >= 3 * heavyMedian);
    CHECK(heavy.back() <= 8.0 + 1e-3);
    const std::vector<double> bimodal = sorted("control:null-bimodal");
    const double second =
        static_cast<double>(std::count_if(bimodal.begin(), bimodal.end(), [](double f) { return f > 1.3; }));
    CHECK(second / static_cast<double>(bimodal.size()) == Approx(0.25).margin(0.07));
    const std::vector<double> narrow = sorted("control:null-narrow");
    double sum = 0, sq = 0;
    for (double f : narrow) {
        sum += f;
        sq += f * f;
    }
    const double mean = sum / static_cast<double>(narrow.size());
    const double cv = std::sqrt(sq / static_cast<double>(narrow.size()) - mean * mean) / mean;
    CHECK(cv == Approx(0.06).margin(0.015));

    // Full counters show real utilisation: the typical DRAM reading is well inside 20-85%.
    const std::map<std::string, Readings> tracks = counterTracks(out.trace);
    std::vector<std::int64_t> dram = tracks.at("DRAM Bandwidth").v;
    std::sort(dram.begin(), dram.end());
    CHECK(dram[dram.size() / 2] >= 200);
    CHECK(dram[dram.size() / 2] <= 850);
    CHECK(dram.back() <= 925);  // 90% of demand at most, plus 0.4 points of noise
}

TEST_CASE("null scenario: deterministic, --fixed the same kernels, streams in events mode", "[sim][null]") {
    const SimulationRequest req = request(Scenario::Null, 8, 4);
    const Output a = run(req, "null-a");
    CHECK(run(req, "null-b").trace == a.trace);
    CHECK(run(req, "null-b").truth == a.truth);
    CHECK(run(request(Scenario::Null, 9, 4), "null-c").trace != a.trace);

    SimulationRequest fixedReq = req;
    fixedReq.fixed = true;
    const Output f = run(fixedReq, "null-fixed");
    CHECK(nonCounterLines(f.trace) == nonCounterLines(a.trace));
    CHECK(nlohmann::json::parse(f.truth)["ops"] == nlohmann::json::parse(a.truth)["ops"]);

    SimulationRequest ev;
    ev.scenario = Scenario::Null;
    ev.events = 20000;
    ev.hostEvents = false;
    ev.counters = CounterMode::None;
    const Output e = run(ev, "null-events");
    CHECK(e.summary.counts.kernels >= 20000);
    CHECK(e.summary.counts.kernels < 20000 + 130);  // at most one step more
    CHECK(e.summary.counts.counters == 0);
}
