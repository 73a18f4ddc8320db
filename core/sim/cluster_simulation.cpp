#include "core/sim/cluster_simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

#include "core/common/output_sink.h"
#include "core/sim/model/dp_workload.h"
#include "core/sim/model/rng.h"
#include "core/sim/model/simulator.h"
#include "core/sim/write/json_text.h"
#include "core/sim/write/trace_writer.h"

namespace contend::sim {

namespace {

constexpr std::uint64_t kRankSalt = 0x5a4e4b;    // per-rank jitter streams
constexpr std::uint64_t kBadSalt = 0xbad5;       // the slow rank's bad steps
constexpr std::uint64_t kTransferSalt = 0x7e4f;  // AllReduce transfer times
constexpr TimeNs kTransferNs = 40000;            // AllReduce transfer, ns (+-10%)
constexpr int kMaxRanks = 4096;

struct Arrivals {
    // [rank][bucket]: AllReduce kernel start (arrival) and end; [bucket]: common end.
    std::vector<std::vector<TimeNs>> start;
    std::vector<std::vector<TimeNs>> work;
};

bool badFor(const ClusterRequest& q, int rank, int step) {
    if (rank != q.slowRank || q.scenario != Scenario::Bandwidth) return false;
    if (q.badRate >= 1.0) return true;
    if (q.badRate <= 0.0) return false;
    Rng rng(mixSeed(q.seed, static_cast<std::uint64_t>(step), kBadSalt));
    return rng.chance(q.badRate);
}

std::vector<TimeNs> transfers(const ClusterRequest& q, int step) {
    Rng rng(mixSeed(q.seed, static_cast<std::uint64_t>(step), kTransferSalt));
    std::vector<TimeNs> t(DataParallelWorkload::kBuckets);
    for (TimeNs& x : t) x = kTransferNs + static_cast<TimeNs>((rng.uniform() - 0.5) * 0.2 * kTransferNs);
    return t;
}

std::uint64_t rankSeed(const ClusterRequest& q, int rank) {
    return mixSeed(q.seed, static_cast<std::uint64_t>(rank), kRankSalt);
}

struct Window {
    TimeNs start = 0, end = 0, lateByNs = 0;
};

}  // namespace

// The sink's failure (it names the file), or a generic one when the writer stopped without one.
Failure writeFailed(const OutputSink& sink) {
    return sink.failure() ? *sink.failure() : Failure::of(Failure::Kind::Unreadable, "write failed", sink.path());
}

std::string rankFileName(int rank, int ranks, bool gzip) {
    int digits = 2;
    for (int n = ranks - 1; n >= 100; n /= 10) ++digits;
    std::string num = std::to_string(rank);
    if (static_cast<int>(num.size()) < digits) num.insert(0, digits - num.size(), '0');
    return "rank-" + num + (gzip ? ".json.gz" : ".json");
}

Result<ClusterSummary> runClusterSimulation(const ClusterRequest& q) {
    ClusterSummary out;
    const auto t0 = std::chrono::steady_clock::now();
    if (q.scenario != Scenario::Bandwidth && q.scenario != Scenario::Null) {
        return Failure::of(Failure::Kind::Invalid,
                           "a cluster plants bandwidth contention (bandwidth) or none (null), not " +
                               std::string(scenarioName(q.scenario)));
    }
    if (q.ranks < 2 || q.ranks > kMaxRanks) {
        return Failure::of(Failure::Kind::Invalid, "a cluster needs 2 to " + std::to_string(kMaxRanks) + " ranks");
    }
    if (q.slowRank >= q.ranks || (q.slowRank >= 0 && q.scenario == Scenario::Null)) {
        return Failure::of(Failure::Kind::Invalid, q.scenario == Scenario::Null
                                                       ? "the null cluster has no slow rank"
                                                       : "the slow rank must be below --ranks");
    }
    if (q.iterations < 1 || !(q.badRate >= 0.0 && q.badRate <= 1.0)) {
        return Failure::of(Failure::Kind::Invalid, "a cluster needs at least one iteration and a bad rate in [0, 1]");
    }
    std::error_code ec;
    std::filesystem::create_directories(q.outDir, ec);
    if (ec) {
        return Failure::of(Failure::Kind::Unreadable, q.outDir + ": cannot create the folder: " + ec.message());
    }

    const DataParallelWorkload work;
    const SimConfig config;
    const int K = DataParallelWorkload::kBuckets;
    const DataParallelWorkload::Layout good = DataParallelWorkload::layout(false);
    const DataParallelWorkload::Layout bad = DataParallelWorkload::layout(true);

    // Pass 1: every rank in lock step; the AllReduce work of every (step, rank, bucket).
    std::vector<std::vector<std::vector<TimeNs>>> arWork(q.iterations, std::vector<std::vector<TimeNs>>(q.ranks));
    std::vector<std::vector<int>> lastRank(q.iterations, std::vector<int>(K, -1));
    std::vector<std::vector<TimeNs>> lateBy(q.iterations, std::vector<TimeNs>(K, 0));
    std::vector<Window> windows(q.iterations);
    {
        std::vector<std::unique_ptr<Simulator>> sims;
        sims.reserve(static_cast<std::size_t>(q.ranks));
        for (int r = 0; r < q.ranks; ++r)
            sims.push_back(std::make_unique<Simulator>(config, DataParallelWorkload::streams(), rankSeed(q, r)));
        for (int s = 0; s < q.iterations; ++s) {
            const std::vector<TimeNs> transfer = transfers(q, s);
            for (int k = 0; k < K; ++k) {
                std::vector<TimeNs> arrival(q.ranks);
                for (int r = 0; r < q.ranks; ++r) {
                    const bool b = badFor(q, r, s);
                    const IterationResult res = sims[r]->probe(work.build(s, b, arWork[s][r]));
                    arrival[r] = res.ops[(b ? bad : good).allReduce[k]].start;
                }
                const auto last = std::max_element(arrival.begin(), arrival.end());
                const TimeNs end = *last + transfer[k];
                lastRank[s][k] = static_cast<int>(last - arrival.begin());
                TimeNs second = kTimeMin;
                for (int r = 0; r < q.ranks; ++r)
                    if (r != lastRank[s][k]) second = std::max(second, arrival[r]);
                lateBy[s][k] = *last - second;
                for (int r = 0; r < q.ranks; ++r) {
                    arWork[s][r].resize(K, 1000);
                    arWork[s][r][k] = end - arrival[r];
                }
            }
            for (int r = 0; r < q.ranks; ++r) {
                const bool b = badFor(q, r, s);
                const IterationResult& res = sims[r]->run(work.build(s, b, arWork[s][r]));
                if (r == q.slowRank && b) {
                    const OpRecord& a = res.ops[bad.augment];
                    windows[s].start = std::max(a.start, res.ops[bad.siteNorm].start);
                    windows[s].end = std::min(a.end, res.ops[bad.siteCast].end);
                }
            }
        }
    }

    // Pass 2: one rank at a time, written.
    for (int r = 0; r < q.ranks; ++r) {
        const std::string name = rankFileName(r, q.ranks, q.gzip);
        const std::string path = (std::filesystem::path(q.outDir) / name).string();
        OutputSink::Options so;
        so.gzip = q.gzip;
        auto opened = OutputSink::open(path, so);
        if (!opened) return opened.failure();
        const std::unique_ptr<OutputSink> sink = std::move(opened).value();
        Simulator sim(config, DataParallelWorkload::streams(), rankSeed(q, r));
        TraceWriter::Options wo;
        wo.traceName = "contend-sim/cluster-" + std::string(scenarioName(q.scenario)) + "/seed-" +
                       std::to_string(q.seed) + "/rank-" + std::to_string(r) + "-of-" + std::to_string(q.ranks);
        wo.counters = {q.counters, q.counterIntervalNs};
        wo.counterNoiseSeed = mixSeed(rankSeed(q, r), 0, 0x4e5a3);
        wo.rank = r;
        wo.worldSize = q.ranks;
        TraceWriter trace(*sink, config, sim.streams(), wo);
        if (!trace.begin()) return writeFailed(*sink);
        for (int s = 0; s < q.iterations; ++s) {
            const Iteration it = work.build(s, badFor(q, r, s), arWork[s][r]);
            const std::string problem = validate(it, sim.streams());
            if (!problem.empty()) {
                return Failure::of(Failure::Kind::Invalid,
                                   "cluster workload step " + std::to_string(s) + ": " + problem);
            }
            if (!trace.write(it, sim.run(it))) return writeFailed(*sink);
        }
        if (!trace.finish() || sink->finish()) return writeFailed(*sink);
        out.files.push_back(path);
    }

    // The truth.
    out.truthPath = (std::filesystem::path(q.outDir) / "cluster-truth.json").string();
    auto opened = OutputSink::open(out.truthPath, {});
    if (!opened) return opened.failure();
    const std::unique_ptr<OutputSink> sink = std::move(opened).value();
    JsonText o(sink.get());
    o.raw("{\n  \"schema\": \"contend.cluster-truth/1\",\n  \"scenario\": ")
        .string(scenarioName(q.scenario))
        .raw(",\n  \"seed\": ")
        .integer(static_cast<std::int64_t>(q.seed))
        .raw(",\n  \"ranks\": ")
        .integer(q.ranks)
        .raw(",\n  \"slow_rank\": ");
    if (q.slowRank >= 0)
        o.integer(q.slowRank);
    else
        o.raw("null");
    o.raw(",\n  \"bad_rate\": ")
        .fixed(std::llround(q.badRate * 1000), 3)
        .raw(",\n  \"iterations\": ")
        .integer(q.iterations)
        .raw(",\n  \"collective\": ")
        .string(DataParallelWorkload::kAllReduceName)
        .raw(",\n  \"collectives_per_iteration\": ")
        .integer(K)
        .raw(",\n  \"site_collective\": ")
        .integer(DataParallelWorkload::kSiteBucket)
        .raw(",\n  \"files\": [");
    for (int r = 0; r < q.ranks; ++r) o.raw(r ? ", " : "").string(rankFileName(r, q.ranks, q.gzip));
    o.raw("],\n  \"bad_iterations\": [");
    bool first = true;
    for (int s = 0; s < q.iterations; ++s)
        if (q.slowRank >= 0 && badFor(q, q.slowRank, s)) {
            o.raw(first ? "" : ", ").integer(s);
            first = false;
        }
    o.raw("],\n  \"delayed\": [");
    first = true;
    for (int s = 0; s < q.iterations; ++s) {
        const int k = DataParallelWorkload::kSiteBucket;
        if (q.slowRank < 0 || !badFor(q, q.slowRank, s) || lastRank[s][k] != q.slowRank) continue;
        ++out.delayedIterations;
        o.raw(first ? "\n    " : ",\n    ")
            .raw("{\"iteration\": ")
            .integer(s)
            .raw(", \"collective\": ")
            .integer(k)
            .raw(", \"rank\": ")
            .integer(q.slowRank)
            .raw(", \"late_by_ns\": ")
            .integer(lateBy[s][k])
            .raw(", \"resource\": \"bandwidth\", \"window\": {\"start_ns\": ")
            .integer(windows[s].start)
            .raw(", \"end_ns\": ")
            .integer(windows[s].end)
            .raw("}}");
        first = false;
    }
    o.raw(first ? "],\n" : "\n  ],\n").raw("  \"last_rank\": [");
    for (int s = 0; s < q.iterations; ++s) {
        o.raw(s ? ", [" : "[");
        for (int k = 0; k < K; ++k) o.raw(k ? ", " : "").integer(lastRank[s][k]);
        o.raw("]");
    }
    o.raw("]\n}\n");
    if (!o.flush() || sink->finish()) return writeFailed(*sink);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace contend::sim
