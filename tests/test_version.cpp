// One version, from one place, and the git commit of the build (core/common/version.h,
// cmake/build_info.cmake): `contend-cli --version` prints them, every report, comparison, trend
// and cluster report records them as its "producer" (docs/report-schema.md), documents written
// before the producer existed still read, and the generated source is rewritten only when its
// text changes.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "core/common/version.h"
#include "core/report/compare/compare_report.h"
#include "core/report/producer_json.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"
#include "json_schema_check.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }
json readJson(const fs::path& p) { return json::parse(test::slurp(p)); }
fs::path repoDir() { return test::sourceDir(); }

test::JsonSchemaCheck schema(const char* name) { return test::schemaCheck(name); }
using test::TempDir;

// The x.y.z of `project(Contend VERSION x.y.z ...)` in the top CMakeLists.txt.
std::string projectVersion() {
    const std::string text = test::slurp(repoDir() / "CMakeLists.txt");
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(R"(project\(Contend VERSION ([0-9.]+))"))) return {};
    return m[1];
}

struct VersionLine {
    std::string version, commit;
};
// "contend-cli 0.7.0 (commit 1a2b3c4d5e6f)\n" as contend-cli --version prints it.
VersionLine cliVersion() {
    const test::CliRun run = test::runCliCapture("--version");
    REQUIRE(run.code == 0);
    std::smatch m;
    INFO(run.out);
    REQUIRE(std::regex_match(run.out, m, std::regex(R"(contend-cli ([^ ]+) \(commit ([^ )]+)\)\n)")));
    return {m[1], m[2]};
}

json producerOf(const VersionLine& v) { return {{"name", "contend"}, {"version", v.version}, {"commit", v.commit}}; }

bool haveProgram(const std::string& name) {
    return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

// cmake -P cmake/build_info.cmake for SOURCE_DIR into OUTPUT; true when it exited 0.
bool runBuildInfo(const fs::path& source, const fs::path& output, const std::string& extra = {}) {
    const std::string cmd = "cmake -DSOURCE_DIR=" + q(source) + " -DOUTPUT=" + q(output) +
                            " -DVERSION=9.8.7 -DGIT_EXECUTABLE=git " + extra + " -P " +
                            q(repoDir() / "cmake" / "build_info.cmake") + " >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

// The commit a generated source returns ("" when the file has no such line).
std::string generatedCommit(const fs::path& file) {
    const std::string text = test::slurp(file);
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(R"re(commit\(\) \{ return "([^"]*)"; \})re"))) return {};
    return m[1];
}

}  // namespace

TEST_CASE("the version is project(VERSION) and contend-cli --version prints it with the commit", "[version][cli]") {
    const std::string fromCMake = projectVersion();
    REQUIRE(!fromCMake.empty());
    CHECK(version() == fromCMake);
    // 12 hex digits (more only if git needs them to be unique), "-dirty" when tracked files
    // differed at build time; "unknown" outside a checkout (or the hash CONTEND_COMMIT names).
    const std::string c(commit());
    INFO(c);
    CHECK(std::regex_match(c, std::regex("[0-9a-f]{7,40}(-dirty)?|unknown")));
    CHECK(versionLine() == fromCMake + " (commit " + c + ")");

    const VersionLine cli = cliVersion();
    CHECK(cli.version == version());
    CHECK(cli.commit == commit());
    CHECK(test::runCliCapture("--version").out == "contend-cli " + versionLine() + "\n");

    const Producer p = thisProducer();
    CHECK(p.known());
    CHECK(p.name == "contend");
    CHECK(p.text() == "contend " + versionLine());
    CHECK(Producer{}.text().empty());
    CHECK(producerJson() == producerOf(cli));
}

TEST_CASE("reports, comparisons, trends and cluster reports record the producer contend-cli --version prints",
          "[version][cli][schema]") {
    const VersionLine cli = cliVersion();
    const json expected = producerOf(cli);
    TempDir dir("producer");
    REQUIRE(test::runCli("simulate bandwidth --seed 3 --iterations 6 --out " + q(dir / "base.json")) == 0);
    REQUIRE(test::runCli("simulate bandwidth --seed 3 --iterations 6 --fixed --out " + q(dir / "new.json")) == 0);
    REQUIRE(test::runCli("analyze " + q(dir / "base.json") + " --json " + q(dir / "base.report.json")) == 0);
    REQUIRE(test::runCli("analyze " + q(dir / "new.json") + " --json " + q(dir / "new.report.json")) == 0);
    REQUIRE(test::runCli("compare " + q(dir / "base.json") + " " + q(dir / "new.json") + " --json " +
                         q(dir / "traces.compare.json")) == 0);
    // Saved reports as BASE/NEW: the comparison records this build, whoever wrote its inputs.
    REQUIRE(test::runCli("compare " + q(dir / "base.report.json") + " " + q(dir / "new.report.json") + " --json " +
                         q(dir / "reports.compare.json")) == 0);
    REQUIRE(test::runCli("trend " + q(dir / "base.report.json") + " " + q(dir / "new.report.json") + " --json " +
                         q(dir / "trend.json")) == 0);
    REQUIRE(test::runCli("simulate bandwidth --ranks 2 --iterations 6 --quiet --out " + q(dir / "ranks")) == 0);
    REQUIRE(test::runCli("cluster " + q(dir / "ranks") + " --jobs 1 --out " + q(dir / "cluster.json")) == 0);

    const test::JsonSchemaCheck reportSchema = schema("contend.report.schema.json");
    const test::JsonSchemaCheck compareSchema = schema("contend.compare.schema.json");
    const test::JsonSchemaCheck clusterSchema = schema("contend.cluster.schema.json");
    const std::pair<const char*, const test::JsonSchemaCheck*> files[] = {{"base.report.json", &reportSchema},
                                                                          {"new.report.json", &reportSchema},
                                                                          {"traces.compare.json", &compareSchema},
                                                                          {"reports.compare.json", &compareSchema},
                                                                          {"trend.json", nullptr},
                                                                          {"cluster.json", &clusterSchema}};
    for (const auto& [name, s] : files) {
        INFO(name);
        const json doc = readJson(dir / name);
        CHECK(doc.value("producer", json()) == expected);
        if (!s) continue;  // contend.trend/1 has no schema file
        CHECK(s->errors(doc).empty());
        // The schemas require it, with exactly its three strings.
        json without = doc;
        without.erase("producer");
        CHECK(s->errors(without) == std::vector<std::string>{"/: missing \"producer\""});
        json extra = doc;
        extra["producer"]["date"] = "today";
        CHECK(s->errors(extra) == std::vector<std::string>{"/producer: unexpected field \"date\""});
        json notText = doc;
        notText["producer"]["commit"] = 7;
        CHECK(s->errors(notText).size() == 1);
    }

    // Two runs of one build write the same bytes: the producer does not change between them.
    REQUIRE(test::runCli("analyze " + q(dir / "base.json") + " --json " + q(dir / "again.report.json")) == 0);
    CHECK(test::slurp(dir / "again.report.json") == test::slurp(dir / "base.report.json"));

    // The readers keep what they read.
    const Result<Report> report = reportFromJson(readJson(dir / "base.report.json"));
    REQUIRE(report);
    CHECK(report->producer.name == "contend");
    CHECK(report->producer.version == cli.version);
    CHECK(report->producer.commit == cli.commit);
    const Result<ClusterReport> cluster = readClusterReport((dir / "cluster.json").string());
    REQUIRE(cluster);
    CHECK(cluster->producer.version == cli.version);
    CHECK(cluster->producer.commit == cli.commit);
}

TEST_CASE("documents without a producer (written before 0.7.0) or with a bad one still read", "[version][report]") {
    // A hand-built report and cluster report, written by this build, then edited.
    const json report = reportToJson(Report{});
    const json cluster = clusterToJson(ClusterReport{});
    CHECK(report.value("producer", json()) == producerJson());
    CHECK(cluster.value("producer", json()) == producerJson());

    const json older = {{"name", "contend"}, {"version", "0.6.0"}, {"commit", "0123456789ab-dirty"}};
    const json bad[] = {json("contend 0.6.0"), json{{"name", "contend"}, {"version", "0.6.0"}},
                        json{{"name", "contend"}, {"version", 6}, {"commit", "x"}},
                        json{{"name", ""}, {"version", "1"}, {"commit", "x"}}};

    json withoutReport = report;
    withoutReport.erase("producer");
    const Result<Report> r = reportFromJson(withoutReport);
    REQUIRE(r);
    CHECK_FALSE(r->producer.known());
    CHECK(r->producer.text().empty());
    // Written again, it records the build writing it, and reads the same as before.
    CHECK(reportToJson(*r) == report);

    json olderReport = report;
    olderReport["producer"] = older;
    const Result<Report> o = reportFromJson(olderReport);
    REQUIRE(o);
    CHECK(o->producer.text() == "contend 0.6.0 (commit 0123456789ab-dirty)");
    CHECK(reportToJson(*o)["producer"] == producerJson());
    for (const json& b : bad) {
        INFO(b.dump());
        json x = report;
        x["producer"] = b;
        const Result<Report> rb = reportFromJson(x);
        REQUIRE(rb);
        CHECK_FALSE(rb->producer.known());
    }

    json withoutCluster = cluster;
    withoutCluster.erase("producer");
    const Result<ClusterReport> c = clusterFromJson(withoutCluster);
    REQUIRE(c);
    CHECK_FALSE(c->producer.known());
    CHECK(clusterToJson(*c) == cluster);
    json olderCluster = cluster;
    olderCluster["producer"] = older;
    const Result<ClusterReport> oc = clusterFromJson(olderCluster);
    REQUIRE(oc);
    CHECK(oc->producer.version == "0.6.0");
    CHECK(clusterToJson(*oc)["producer"] == producerJson());
    for (const json& b : bad) {
        json x = cluster;
        x["producer"] = b;
        const Result<ClusterReport> cb = clusterFromJson(x);
        REQUIRE(cb);
        CHECK_FALSE(cb->producer.known());
    }

    // Files an older Contend wrote: the fuzzers' seed reports have no producer.
    const fs::path corpus = repoDir() / "tests" / "fuzz" / "corpus";
    for (const char* name : {"small.json", "trimmed.json"}) {
        INFO(name);
        const Result<Report> seed = reportFromJson(readJson(corpus / "report_json" / name));
        REQUIRE(seed);
        CHECK_FALSE(seed->producer.known());
    }
    for (const char* name : {"small.json", "older.json"}) {
        INFO(name);
        const Result<ClusterReport> seed = readClusterReport((corpus / "cluster_json" / name).string());
        REQUIRE(seed);
        CHECK_FALSE(seed->producer.known());
    }
}

TEST_CASE("a streamed report carries the producer where the whole document has it, byte for byte",
          "[version][report][stream]") {
    Report r;
    r.notes.push_back({"few-steps", "only 2 steps"});
    std::ostringstream streamed;
    writeReportJson(streamed, r, nullptr);
    const std::string text = streamed.str();
    CHECK(json::parse(text) == reportToJson(r));
    CHECK(json::parse(text)["producer"] == producerJson());
    // report/4: right after the schema, at the top of the file.
    const auto at = text.find("\n  \"producer\": {\n");
    REQUIRE(at != std::string::npos);
    CHECK(text.find("{\n  \"schema\": \"contend.report/4\",\n") == 0);
    CHECK(at < text.find("\n  \"trace\": "));
    // report/2 on request: in nlohmann's (alphabetical) key order, after "operators", before "schema".
    std::ostringstream two;
    writeReportJson(two, r, nullptr, ReportSchemaVersion::V2);
    const std::string text2 = two.str();
    CHECK(text2 == jsonText(reportToJson(r, ReportSchemaVersion::V2)));
    const auto at2 = text2.find("\n  \"producer\": {\n");
    REQUIRE(at2 != std::string::npos);
    CHECK(text2.find("\n  \"operators\": ") < at2);
    CHECK(at2 < text2.find("\n  \"schema\": "));
}

TEST_CASE("cmake/build_info.cmake: the commit from git, unknown outside a checkout, rewritten only on a change",
          "[version][build]") {
    if (!haveProgram("cmake")) {
        std::cerr << "cmake not on PATH: build_info.cmake test skipped" << std::endl;
        test::skipTest();
    }
    TempDir dir("build-info");
    const fs::path out = dir / "gen" / "build_info.cpp";

    // Outside any checkout (the temp folder; a tarball, or a copy without .git).
    const fs::path tarball = dir / "src";
    fs::create_directories(tarball);
    REQUIRE(runBuildInfo(tarball, out));
    const std::string text = test::slurp(out);
    CHECK(text.find("std::string_view version() { return \"9.8.7\"; }") != std::string::npos);
    CHECK(generatedCommit(out) == "unknown");
    CHECK_FALSE(fs::exists(out.string() + ".tmp"));

    // Run again with nothing changed: the file is left as it is (an old time stays old), so the
    // build recompiles nothing.
    fs::last_write_time(out, fs::last_write_time(out) - std::chrono::hours(24));
    const fs::file_time_type old = fs::last_write_time(out);
    REQUIRE(runBuildInfo(tarball, out));
    CHECK(fs::last_write_time(out) == old);
    CHECK(test::slurp(out) == text);

    // A changed text is written: CONTEND_COMMIT names the commit where git cannot.
    REQUIRE(runBuildInfo(tarball, out, "-DCOMMIT=0123456789ab"));
    CHECK(generatedCommit(out) == "0123456789ab");
    CHECK(fs::last_write_time(out) != old);
    // A commit that would break the C++ string literal is refused.
    CHECK_FALSE(runBuildInfo(tarball, dir / "bad.cpp", "'-DCOMMIT=a\"b'"));

    if (!haveProgram("git")) {
        std::cerr << "git not on PATH: the checkout half of the build_info.cmake test skipped" << std::endl;
        return;
    }
    // Sources unpacked inside some other repository are not at that repository's commit.
    const fs::path outer = dir / "outer";
    fs::create_directories(outer / "contend");
    REQUIRE(std::system(("git init -q " + q(outer)).c_str()) == 0);
    REQUIRE(runBuildInfo(outer / "contend", dir / "outer.cpp"));
    CHECK(generatedCommit(dir / "outer.cpp") == "unknown");

    // This checkout: git's HEAD, with -dirty when tracked files differ from it.
    if (!fs::exists(repoDir() / ".git")) return;  // a copy of the sources without git
    const test::CliRun head = [] {
        test::CliRun r;
        const std::string cmd =
            "git -c safe.directory=" + q(repoDir()) + " -C " + q(repoDir()) + " rev-parse --short=12 HEAD 2>/dev/null";
        FILE* pipe = ::popen(cmd.c_str(), "r");
        if (!pipe) return r;
        char buf[128];
        while (std::fgets(buf, sizeof buf, pipe)) r.out += buf;
        r.code = ::pclose(pipe) == 0 ? 0 : 1;
        return r;
    }();
    if (head.code != 0) return;  // not a checkout git can read
    REQUIRE(runBuildInfo(repoDir(), dir / "here.cpp"));
    const std::string here = generatedCommit(dir / "here.cpp");
    const std::string hash = head.out.substr(0, head.out.find('\n'));
    CHECK((here == hash || here == hash + "-dirty"));
}
