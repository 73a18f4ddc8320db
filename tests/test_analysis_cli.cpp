// contend-cli analyze from the outside: exit codes, the JSON on stdout, the files it writes.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "analysis_test_trace.h"
#include "test_support.h"

using contend::test::slurp;

namespace {

struct Run {
    int code = -1;
    std::string out;
};

Run cli(const std::string& args, bool withStderr = false) {
    Run r;
    const std::string cmd = std::string(CONTEND_CLI) + " " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = ::popen(cmd.c_str(), "r");
    REQUIRE(pipe);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
    const int status = ::pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}


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
    CHECK(j["schema"] == "contend.report/2");
    CHECK(j["settings"]["coefficient"] == 2.5);
    CHECK(j["settings"]["overlap_ratio"] == 0.6);
    CHECK(j["anomalies"].size() == 1);
    CHECK(j["anomalies"][0]["start_ns"] == static_cast<std::int64_t>(t * 1000));

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

TEST_CASE("contend-cli --max-memory: a global option, checked, applied to traces and saved reports", "[analysis][cli][memory]") {
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
