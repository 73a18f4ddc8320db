#include "core/pipeline/cluster_run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "core/io/reader_table.h"
#include "core/pipeline/analyze_trace.h"

namespace contend {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& n, const std::string& e) {
    return n.size() > e.size() && n.compare(n.size() - e.size(), e.size(), e) == 0;
}

bool isTraceFile(const fs::path& p) {
    const std::string n = p.filename().string();
    // Not traces: our own truth and report files, and the JSON side files profilers write.
    if (n == "cluster-truth.json" || endsWith(n, ".report.json") || endsWith(n, ".truth.json") || isProfilerSideFile(n))
        return false;
    return endsWith(n, ".json") || endsWith(n, ".json.gz");
}

void findUnder(const fs::path& dir, int depth, std::vector<std::string>& out) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.is_directory(ec)) {
            if (isRankFolder(e.path().string()))
                out.push_back(e.path().string());
            else if (depth < 2)
                findUnder(e.path(), depth + 1, out);
        } else if (e.is_regular_file(ec) && isTraceFile(e.path())) {
            out.push_back(e.path().string());
        }
    }
}

}  // namespace

std::vector<std::string> findRankTraces(const std::string& dir) {
    std::vector<std::string> out;
    findUnder(dir, 0, out);
    std::sort(out.begin(), out.end());
    return out;
}

bool isClusterFolder(const std::string& dir) {
    std::error_code ec;
    // One rank's own profiler folder opens as that one trace.
    if (!fs::is_directory(dir, ec) || isOwnTraceFolder(dir)) return false;
    return findRankTraces(dir).size() >= 2;
}

std::string checkRanks(std::vector<RankInput>& inputs) {
    std::sort(inputs.begin(), inputs.end(), [](const RankInput& a, const RankInput& b) { return a.rank < b.rank; });
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].rank < 0) return inputs[i].source + ": no rank (the trace has no " + rankFromWords() + ")";
        if (i && inputs[i].rank == inputs[i - 1].rank)
            return inputs[i - 1].source + " and " + inputs[i].source + " are both rank " +
                   std::to_string(inputs[i].rank);
    }
    return {};
}

ClusterRunResult analyseRanks(const std::vector<std::string>& traces, const ClusterRunOptions& o) {
    if (traces.empty()) return std::vector<RankInput>{};
    const int jobs = std::clamp(o.jobs, 1, static_cast<int>(traces.size()));
    LoadOptions load = o.load;
    const std::uint64_t budget = effectiveMemoryBudget(load);
    if (budget != kNoMemoryLimit) load.memoryLimitBytes = std::max<std::uint64_t>(budget / jobs, 1);
    std::atomic<bool> stop{false};
    auto keepGoing = [&]() {
        if (stop) return false;
        if (o.keepGoing && !o.keepGoing()) stop = true;
        return !stop.load();
    };
    load.progress = [&](double) { return keepGoing(); };

    std::vector<std::optional<RankInput>> results(traces.size());
    std::vector<std::optional<Failure>> errors(traces.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> finished{0};
    std::mutex report;
    auto fail = [&](std::size_t k, Failure why) {
        errors[k] = std::move(why);
        stop = true;  // the first failure stops the others: the cluster cannot be merged anyway
    };
    auto worker = [&]() {
        for (std::size_t k; !stop && (k = next++) < traces.size();) {
            // Each rank's report without the what-if (merge does not keep it); the budget is
            // already shared out between the jobs.
            PipelineOptions one;
            one.load = load;
            one.analysis = o.analysis;
            one.weighMemory = false;
            one.whatIf = false;
            one.keepGoing = keepGoing;
            PipelineOutputs made;
            const Result<Report> analysed = analyzeTrace(traces[k], one, &made);
            if (analysed.cancelled() || stop) break;
            if (!analysed) {
                // An analysis' failure is about the rank's trace (a load's names its file).
                fail(k, made.trace ? Failure::of(analysed.failure().kind, analysed.failure().message(), traces[k])
                                   : analysed.failure());
                break;
            }
            const Report& r = analysed.value();
            if (o.onReport) {
                std::lock_guard<std::mutex> lock(report);
                if (std::string e = o.onReport(r, *made.trace); !e.empty()) {
                    fail(k, Failure::of(Failure::Kind::Unreadable, std::move(e)));
                    break;
                }
            }
            RankInput in = rankInputFromReport(r, traces[k]);
            std::error_code ec;
            const fs::path abs = fs::absolute(traces[k], ec);
            in.trace = ec ? traces[k] : abs.lexically_normal().string();
            results[k] = std::move(in);
            const std::size_t n = ++finished;
            if (o.rankDone) o.rankDone(n, traces.size(), traces[k]);
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(jobs));
    for (int j = 0; j < jobs; ++j) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    for (const std::optional<Failure>& e : errors)
        if (e) return *e;
    if (stop) return Failure::cancelled();
    std::vector<RankInput> ranks;
    ranks.reserve(results.size());
    for (auto& r : results) ranks.push_back(std::move(*r));
    if (std::string e = checkRanks(ranks); !e.empty()) return Failure::of(Failure::Kind::Other, std::move(e));
    return ranks;
}

}  // namespace contend
