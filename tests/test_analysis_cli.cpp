// contend-cli analyze from the outside: exit codes, the JSON on stdout, the files it writes.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "analysis_test_trace.h"
#include "test_support.h"

using contend::test::slurp;

namespace {

using Run = contend::test::CliRun;
Run cli(const std::string& args, bool withStderr = false) { return contend::test::runCliCapture(args, withStderr); }

}  // namespace

TEST_CASE("contend-cli analyze: summary, JSON, Markdown and exit codes", "[analysis][cli]") {
    contend::test::KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 20; ++i, t += 200) k.kernel("gemm", 7, t, 100);
    k.kernel("gemm", 7, t, 250);
    contend::test::TempFile trace("cli-analyze.json", k.json());
    contend::test::TempFile json("cli-analyze.report.json");
    contend::test::TempFile md("cli-analyze.report.md");

    const Run summary = cli("analyze " + trace.path());
    CHECK(summary.code == 0);
    CHECK(summary.out.find("1 anomalies") != std::string::npos);
    CHECK(summary.out.find("what to try") != std::string::npos);

    const Run toStdout = cli("analyze " + trace.path() + " --json - --coefficient 2.5 --overlap 0.6");
    REQUIRE(toStdout.code == 0);
    const auto j = nlohmann::json::parse(toStdout.out);
    CHECK(j["schema"] == "contend.report/4");
    CHECK(j["settings"]["coefficient"] == 2.5);
    CHECK(j["settings"]["overlap_ratio"] == 0.6);
    CHECK(j["anomalies"]["rows"] == 1);
    // report/4: the anomaly's start is its slice's, in `slices` (one row: it counts from the origin).
    CHECK(j["slices"]["slice"][0] == j["anomalies"]["slice"][0]);
    CHECK(j["time_origin_ns"].get<std::int64_t>() + j["slices"]["start_ns"][0].get<std::int64_t>() ==
          static_cast<std::int64_t>(t * 1000));
    // report/2 on request: the same anomaly as an object.
    const Run v2 = cli("analyze " + trace.path() + " --json - --json-schema 2 --coefficient 2.5 --overlap 0.6");
    REQUIRE(v2.code == 0);
    const auto j2 = nlohmann::json::parse(v2.out);
    CHECK(j2["schema"] == "contend.report/2");
    CHECK(j2["anomalies"].size() == 1);
    CHECK(j2["anomalies"][0]["start_ns"] == static_cast<std::int64_t>(t * 1000));
    // report/3 on request: the anomaly's own times.
    const Run v3 = cli("analyze " + trace.path() + " --json - --json-schema 3 --coefficient 2.5 --overlap 0.6");
    REQUIRE(v3.code == 0);
    const auto j3 = nlohmann::json::parse(v3.out);
    CHECK(j3["schema"] == "contend.report/3");
    CHECK(j3["time_origin_ns"].get<std::int64_t>() + j3["anomalies"]["start_ns"][0].get<std::int64_t>() ==
          static_cast<std::int64_t>(t * 1000));
    CHECK(cli("analyze " + trace.path() + " --json - --json-schema 5").code == 2);

    CHECK(cli("analyze " + trace.path() + " --json " + json.path() + " --markdown " + md.path()).code == 0);
    CHECK(nlohmann::json::parse(slurp(json.path()))["summary"]["anomalies"] == 1);
    CHECK(slurp(md.path()).find("# Contention report") != std::string::npos);

    CHECK(cli("analyze").code == 2);
    CHECK(cli("analyze " + trace.path() + " --coefficient x").code == 2);
    CHECK(cli("analyze " + trace.path() + " --overlap 1.5").code == 2);
    CHECK(cli("analyze " + trace.path() + " --bogus").code == 2);
    CHECK(cli("analyze /nonexistent/trace.json").code == 3);
    contend::test::TempFile badConfig("cli-analyze-config.json", "{\"map\": 3}");
    CHECK(cli("analyze " + trace.path() + " --config " + badConfig.path()).code == 3);
    contend::test::TempFile config("cli-analyze-config-ok.json", R"({"map": [{"match": "^QoS", "resource": "none"}]})");
    CHECK(cli("analyze " + trace.path() + " --config " + config.path()).code == 0);
}

TEST_CASE("contend-cli analyze --timings: each stage's wall time on stderr, the outputs unchanged",
          "[analysis][cli][bench]") {
    contend::test::KinetoTrace k;
    for (int i = 0; i < 50; ++i) k.kernel("gemm", 7, i * 200.0, i == 30 ? 300 : 100);
    contend::test::TempFile trace("cli-timings.json", k.json());
    contend::test::TempFile plain("cli-timings.plain.json");
    contend::test::TempFile timed("cli-timings.timed.json");
    const Run without = cli("analyze " + trace.path() + " --json " + plain.path(), true);
    const Run with = cli("analyze " + trace.path() + " --json " + timed.path() + " --timings", true);
    REQUIRE(without.code == 0);
    REQUIRE(with.code == 0);
    CHECK(without.out.find("timings (wall ms)") == std::string::npos);
    const std::size_t at = with.out.find("timings (wall ms):");
    REQUIRE(at != std::string::npos);
    CHECK(with.out.substr(0, at) == without.out);  // the summary first, as without
    for (const char* stage : {"load", "prepare", "selecting operators", "finding overlaps", "reading counters",
                              "measuring pressure", "testing partners", "computing baselines", "attributing causes",
                              "pairing windows", "finding clusters", "building the dependency graph", "ranking",
                              "report", "what-if", "json", "summary", "total", "total / load"}) {
        INFO(stage);
        CHECK(with.out.find(stage, at) != std::string::npos);
    }
    CHECK(slurp(plain.path()) == slurp(timed.path()));
}

TEST_CASE("contend-cli bench-analyze ends with one line of numbers", "[analysis][cli][bench]") {
    contend::test::KinetoTrace k;
    for (int i = 0; i < 50; ++i) k.kernel("gemm", 7, i * 200.0, 100);
    contend::test::TempFile trace("cli-bench.json", k.json());
    const Run r = cli("bench-analyze " + trace.path() + " --repeat 1");
    REQUIRE(r.code == 0);
    CHECK(r.out.find("prepare_ms=") != std::string::npos);
    CHECK(r.out.find("rethreshold_ms=") != std::string::npos);
    CHECK(r.out.find("load_ms=") != std::string::npos);
    CHECK(r.out.find("operators=50") != std::string::npos);
}

TEST_CASE("contend-cli bench-memory ends with one line of rates, and refuses a bad option", "[analysis][cli][bench]") {
    const Run r = cli("bench-memory --mib 16 --repeat 2 --idle 0");
    REQUIRE(r.code == 0);
    const auto at = r.out.find("cold_mb_per_s=");
    REQUIRE(at != std::string::npos);
    double cold = 0, warm = 0;
    REQUIRE(std::sscanf(r.out.c_str() + at, "cold_mb_per_s=%lf warm_mb_per_s=%lf", &cold, &warm) == 2);
    CHECK(cold > 0);
    CHECK(warm > 0);
    CHECK(cli("bench-memory --mib 8").code == 2);  // under the 16 MiB it needs to say anything
    CHECK(cli("bench-memory --idle").code == 2);
    CHECK(cli("bench-memory --bogus").code == 2);
}

TEST_CASE("contend-cli --max-memory: a global option, checked, applied to traces and saved reports",
          "[analysis][cli][memory]") {
    contend::test::KinetoTrace k;
    for (int i = 0; i < 20000; ++i) k.kernel("gemm" + std::to_string(i % 9), 7 + i % 2, i * 20.0, 10);
    contend::test::TempFile trace("cli-mem.json", k.json());
    CHECK(cli("info " + trace.path() + " --max-memory 1G").code == 0);
    CHECK(cli("--max-memory=0 info " + trace.path()).code == 0);
    const Run tight = cli("info " + trace.path() + " --max-memory 1M", true);
    CHECK(tight.code == 3);
    CHECK(tight.out.find("cli-mem.json") != std::string::npos);
    CHECK(tight.out.find("not enough memory") != std::string::npos);
    const Run bad = cli("info " + trace.path() + " --max-memory lots", true);
    CHECK(bad.code == 2);
    CHECK(bad.out.find("not a size") != std::string::npos);
    CHECK(cli("info " + trace.path() + " --max-memory").code == 2);
    // A file that is not a trace is read whole as a saved report only if that fits the budget.
    contend::test::TempFile junk("cli-junk.json", std::string(3u << 20, 'x'));
    const Run big = cli("compare " + junk.path() + " " + trace.path() + " --max-memory 16M", true);
    CHECK(big.code == 3);
    CHECK(big.out.find("too large to read as a saved report") != std::string::npos);
}

TEST_CASE("contend-cli analyze: findings ranked by predicted gain, or by score with --rank-by score",
          "[analysis][cli][whatif]") {
    // Two slow gemms on stream 7, each launched by the host: the first (400 us, the higher
    // score) is followed by 2 ms the stream waits for the next launch, so it has slack; the
    // second (300 us) ends the run, on the critical path. By gain the second comes first (the
    // long kernel on stream 13 bounds its gain to 100 us), by score the first.
    contend::test::KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 20; ++i, t += 200) k.kernel("gemm", 7, t, 100);
    auto launched = [&](double ts, double dur, int corr) {
        char b[512];
        std::snprintf(
            b, sizeof b,
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": %.3f,)"
            R"( "dur": 5, "args": {"correlation": %d}})",
            ts - 10, corr);
        k.add(b);
        std::snprintf(
            b, sizeof b,
            R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": %.3f, "dur": %.3f,)"
            R"( "args": {"stream": 7, "device": 0, "correlation": %d, "grid": [1, 1, 1], "block": [128, 1, 1]}})",
            ts, dur, corr);
        k.add(b);
    };
    launched(t, 400, 1);
    k.kernel("tail_kernel", 13, t, 3000);
    launched(t + 2800, 300, 2);
    contend::test::TempFile trace("cli-rank.json", k.json());
    const Run byGain = cli("analyze " + trace.path() + " --coefficient 2");
    REQUIRE(byGain.code == 0);
    CHECK(byGain.out.find("what-if (dependency graph") != std::string::npos);
    CHECK(byGain.out.find("top anomalies (by predicted gain; times since the trace start)") != std::string::npos);
    const auto first = byGain.out.find("#", byGain.out.find("top anomalies"));
    REQUIRE(first != std::string::npos);
    CHECK(byGain.out.compare(first, 3, "#1 ") == 0);  // id 1: the lower score, the gain
    const Run byScore = cli("analyze " + trace.path() + " --coefficient 2 --rank-by score");
    REQUIRE(byScore.code == 0);
    const auto top = byScore.out.find("#", byScore.out.find("top anomalies (by score; times since the trace start)"));
    REQUIRE(top != std::string::npos);
    CHECK(byScore.out.compare(top, 3, "#0 ") == 0);
    CHECK(cli("analyze " + trace.path() + " --rank-by size").code == 2);
}
