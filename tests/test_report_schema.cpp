// docs/schema/*.schema.json describe what contend-cli writes: every report and comparison it
// writes on the bundled samples, on every simulated scenario (counters full, none, one mean per
// 1000 us) and on every real trace in ../shared/traces validates, and a typo'd, missing or
// misnamed field does not. The validator is tests/json_schema_check.h.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "json_schema_check.h"
#include "test_paths.h"
#include "test_support.h"

namespace fs = std::filesystem;
using contend::test::JsonSchemaCheck;
using nlohmann::json;

namespace {

json readJson(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return json::parse(ss.str(), nullptr, false);
}

JsonSchemaCheck schema(const char* name) { return contend::test::schemaCheck(name); }
using contend::test::TempDir;

int cli(const std::string& args) { return contend::test::runCli(args); }

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

void requireValid(const JsonSchemaCheck& s, const fs::path& file, const std::string& what) {
    const json doc = readJson(file);
    INFO(what << ": " << file.string());
    REQUIRE(!doc.is_discarded());
    const auto errors = s.errors(doc);
    std::string text;
    for (const auto& e : errors) text += e + "\n";
    INFO(text);
    CHECK(errors.empty());
}

// analyze TRACE --json, and the report validates.
void analyzeValidates(const JsonSchemaCheck& s, const fs::path& trace, const fs::path& out) {
    INFO(trace.string());
    REQUIRE(cli("analyze " + quoted(trace) + " --json " + quoted(out)) == 0);
    requireValid(s, out, "report");
}

bool endsWith(const std::string& s, const std::string& suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

}  // namespace

TEST_CASE("report schemas: strict about typos, missing fields and resource or provenance names", "[schema]") {
    const JsonSchemaCheck report = schema("contend.report.schema.json");
    TempDir dir("schema-strict");
    REQUIRE(cli("simulate mixed --seed 3 --iterations 6 --out " + quoted(dir / "t.json")) == 0);
    REQUIRE(cli("analyze " + quoted(dir / "t.json") + " --json " + quoted(dir / "r.json")) == 0);
    const json good = readJson(dir / "r.json");
    REQUIRE(report.errors(good).empty());
    REQUIRE(good["anomalies"]["rows"] > 0);
    REQUIRE(good["windows"]["rows"] > 0);
    REQUIRE(good["anomalies"].contains("evidence"));

    json typo = good;
    typo["anomalies"]["caus"] = typo["anomalies"]["cause"];
    typo["anomalies"].erase("cause");
    const auto e1 = report.errors(typo);
    CHECK(std::find(e1.begin(), e1.end(), "/anomalies: missing \"cause\"") != e1.end());
    CHECK(std::find(e1.begin(), e1.end(), "/anomalies: unexpected field \"caus\"") != e1.end());
    json noSlices = good;  // report/4: the slices' times are required
    noSlices.erase("slices");
    CHECK(report.errors(noSlices).size() == 1);

    json missing = good;
    missing["summary"].erase("operator_time_ns");
    CHECK(report.errors(missing) == std::vector<std::string>{"/summary: missing \"operator_time_ns\""});

    json badResource = good;
    badResource["windows"]["resource"][0] = "bandwidth";  // text is an index into strings
    CHECK(report.errors(badResource).size() == 1);
    json badProvenance = good;
    badProvenance["anomalies"]["provenance"][0] = -1;
    CHECK(report.errors(badProvenance).size() == 1);
    json badFlag = good;
    badFlag["windows"]["from_counters"] = json::array();
    for (std::size_t i = 0; i < good["windows"]["rows"].get<std::size_t>(); ++i)
        badFlag["windows"]["from_counters"].push_back(i == 0);  // 0 or 1, not false or true
    CHECK(report.errors(badFlag).size() == good["windows"]["rows"].get<std::size_t>());
    json badEvidence = good;
    badEvidence["anomalies"]["evidence"][0] = "measured: ...";
    CHECK(report.errors(badEvidence).size() == 1);
    json badType = good;
    badType["summary"]["anomalies"] = "3";
    CHECK(report.errors(badType).size() == 1);
    json badGain = good;
    badGain["what_if"]["total_ns"] = -5;  // the what-if is checked too
    CHECK(report.errors(badGain).size() == 1);
    json badSchema = good;
    badSchema["schema"] = "contend.report/1";
    CHECK(report.errors(badSchema).size() == 1);
    json negative = good;
    negative["operators"][0]["count"] = -1;
    CHECK(report.errors(negative).size() == 1);

    // A keyword the validator does not know is an error, not a silent pass.
    const JsonSchemaCheck unknown(json{{"type", "object"}, {"patternProperties", json::object()}});
    CHECK(unknown.errors(json::object()).size() == 1);
}

TEST_CASE("every report and comparison contend-cli writes on the samples and simulated traces validates",
          "[schema][cli][sim]") {
    const JsonSchemaCheck report = schema("contend.report.schema.json");
    const JsonSchemaCheck compare = schema("contend.compare.schema.json");
    TempDir dir("schema-cli");
    const fs::path samples = fs::path(contend::test::sourceDir()) / "resources" / "samples";
    analyzeValidates(report, samples / "projectx-before.json.gz", dir / "before.report.json");
    analyzeValidates(report, samples / "projectx-after.json.gz", dir / "after.report.json");
    // report/2 on request, against its own schema; compare reads it as it reads /3.
    const JsonSchemaCheck report2 = schema("contend.report-2.schema.json");
    REQUIRE(cli("analyze " + quoted(samples / "projectx-before.json.gz") + " --json-schema 2 --json " +
                quoted(dir / "before.report2.json")) == 0);
    requireValid(report2, dir / "before.report2.json", "report/2");
    CHECK(readJson(dir / "before.report2.json")["schema"] == "contend.report/2");
    CHECK_FALSE(report.errors(readJson(dir / "before.report2.json")).empty());
    REQUIRE(cli("compare " + quoted(dir / "before.report2.json") + " " + quoted(dir / "before.report.json") +
                " --json " + quoted(dir / "v2-v3.compare.json")) == 0);
    const json same = readJson(dir / "v2-v3.compare.json");
    CHECK(same["summary"]["counts"]["anomalies"]["resolved"] == 0);
    CHECK(same["summary"]["counts"]["anomalies"]["new"] == 0);
    // report/3 on request, against its own schema (and not /4's); compare reads it as it reads /4.
    const JsonSchemaCheck report3 = schema("contend.report-3.schema.json");
    REQUIRE(cli("analyze " + quoted(samples / "projectx-before.json.gz") + " --json-schema 3 --json " +
                quoted(dir / "before.report3.json")) == 0);
    requireValid(report3, dir / "before.report3.json", "report/3");
    CHECK_FALSE(report.errors(readJson(dir / "before.report3.json")).empty());
    CHECK_FALSE(report3.errors(readJson(dir / "before.report.json")).empty());
    REQUIRE(cli("compare " + quoted(dir / "before.report3.json") + " " + quoted(dir / "before.report.json") +
                " --json " + quoted(dir / "v3-v4.compare.json")) == 0);
    const json same3 = readJson(dir / "v3-v4.compare.json");
    CHECK(same3["summary"]["counts"]["anomalies"]["resolved"] == 0);
    CHECK(same3["summary"]["counts"]["anomalies"]["new"] == 0);
    REQUIRE(cli("compare " + quoted(samples / "projectx-before.json.gz") + " " +
                quoted(samples / "projectx-after.json.gz") + " --json " + quoted(dir / "samples.compare.json")) == 0);
    requireValid(compare, dir / "samples.compare.json", "compare of the samples");
    // Saved reports as BASE/NEW write the same contract.
    REQUIRE(cli("compare " + quoted(dir / "before.report.json") + " " + quoted(dir / "after.report.json") + " --json " +
                quoted(dir / "reports.compare.json")) == 0);
    requireValid(compare, dir / "reports.compare.json", "compare of saved reports");

    for (const std::string scenario : {"bandwidth", "sync-cluster", "cache", "lock", "mixed", "null"}) {
        for (const std::string counters : {"", "none", "1000"}) {
            const std::string opt = counters.empty() ? "" : " --counters " + counters;
            const std::string tag = scenario + (counters.empty() ? "" : "-" + counters);
            INFO(tag);
            const fs::path base = dir / (tag + ".json"), fixed = dir / (tag + ".fixed.json");
            REQUIRE(cli("simulate " + scenario + " --seed 3" + opt + " --out " + quoted(base)) == 0);
            REQUIRE(cli("simulate " + scenario + " --seed 3 --fixed" + opt + " --out " + quoted(fixed)) == 0);
            analyzeValidates(report, base, dir / (tag + ".report.json"));
            analyzeValidates(report, fixed, dir / (tag + ".fixed.report.json"));
            const fs::path cmp = dir / (tag + ".compare.json");
            REQUIRE(cli("compare " + quoted(base) + " " + quoted(fixed) + " --json " + quoted(cmp)) == 0);
            requireValid(compare, cmp, "compare");
            fs::remove(base);
            fs::remove(fixed);
        }
    }
}

TEST_CASE("every report contend-cli writes on the real traces validates", "[schema][cli][real]") {
    if (!contend::test::haveSharedTraces()) {
        WARN("../shared/traces not found: real-trace schema test skipped");
        std::cerr << contend::test::sharedTraces() << " not found: real-trace tests skipped" << std::endl;
        contend::test::skipTest();
    }
    const JsonSchemaCheck report = schema("contend.report.schema.json");
    const JsonSchemaCheck compare = schema("contend.compare.schema.json");
    TempDir dir("schema-real");
    // The trace files and Ascend rank folders test_analysis_real.cpp analyses.
    std::vector<fs::path> traces;
    for (const auto& e : fs::recursive_directory_iterator(contend::test::sharedTraces())) {
        const std::string name = e.path().filename().string();
        if (e.is_directory() && fs::exists(e.path() / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"))
            traces.push_back(e.path());
        if (!e.is_regular_file() || !(endsWith(name, ".json") || endsWith(name, ".json.gz"))) continue;
        if (name.rfind("profiler_info", 0) == 0 || name == "profiler_metadata.json" || name == "communication.json" ||
            name == "communication_matrix.json")
            continue;
        traces.push_back(e.path());
    }
    std::sort(traces.begin(), traces.end());
    REQUIRE(traces.size() >= 30);
    std::vector<fs::path> reports;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        reports.push_back(dir / ("real-" + std::to_string(i) + ".report.json"));
        analyzeValidates(report, traces[i], reports.back());
    }
    // A comparison between real runs: each saved report against the next one.
    for (std::size_t i = 0; i + 1 < reports.size(); i += 7) {
        const fs::path cmp = dir / ("real-" + std::to_string(i) + ".compare.json");
        REQUIRE(cli("compare " + quoted(reports[i]) + " " + quoted(reports[i + 1]) + " --json " + quoted(cmp)) == 0);
        requireValid(compare, cmp, "compare of real reports");
    }
}
