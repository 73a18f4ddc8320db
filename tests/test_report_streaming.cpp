// Streaming reports: writeReportJson writes a report/2's very bytes of the whole-document path
// (jsonText(reportToJson(...))) without building the document, a report/3 reads back as the same
// report, files are written atomically through a stream, and the Markdown shows the top rows with
// a count of the rest.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "core/analysis/engine.h"
#include "core/common/atomic_write.h"
#include "core/report/single/report_json.h"
#include "core/trace/time_format.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

std::string streamed(const Report& r, const Trace* t) {
    std::ostringstream o;
    writeReportJson(o, r, t, ReportSchemaVersion::V2);
    return o.str();
}

// The report/2 document (the streamed report/2 must be its text).
nlohmann::json v2(const Report& r, const Trace* t = nullptr) {
    return t ? reportToJson(r, *t, ReportSchemaVersion::V2) : reportToJson(r, ReportSchemaVersion::V2);
}

// A report/3 written and read back, as report/2 text: what it says, whatever the layout.
std::string v3AsV2(const Report& r, const Trace* t) {
    const Result<Report> back = reportFromJson(nlohmann::json::parse(reportJsonText(r, t)));
    REQUIRE(back);
    return jsonText(v2(*back));
}

TracePtr loadSample(const char* name) {
    LoadResult lr =
        loadTrace((fs::path(contend::test::sourceDir()) / "resources" / "samples" / name).string(), LoadOptions{});
    REQUIRE(lr);
    return lr.value();
}

}  // namespace

TEST_CASE("a streamed JSON report is byte for byte the whole-document text on the samples", "[report][stream]") {
    for (const char* sample : {"projectx-before.json.gz", "projectx-after.json.gz"}) {
        const TracePtr trace = loadSample(sample);
        auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
        REQUIRE(p);
        // Coefficient 0 and ratio 0.1 give many anomalies and windows; 3 / 0.7 the defaults.
        for (auto [k, ratio] : {std::pair{3.0, 0.7}, {0.0, 0.1}, {0.5, 0.3}, {50.0, 0.99}}) {
            const Report r = buildReport(*p, k, ratio);
            INFO(sample << " at coefficient " << k << ", ratio " << ratio);
            const std::string whole = jsonText(v2(r, trace.get()));
            const std::string text = streamed(r, trace.get());
            CHECK(text.size() == whole.size());
            CHECK(text == whole);
            CHECK(v3AsV2(r, trace.get()) == whole);
            if (k == 0.0) CHECK(r.anomalies.size() > 20);
        }
    }
}

TEST_CASE("a streamed JSON report matches for hand-built reports: empty lists, names from the trace, bad UTF-8",
          "[report][stream]") {
    Report empty;
    CHECK(streamed(empty, nullptr) == jsonText(v2(empty)));
    CHECK(v3AsV2(empty, nullptr) == jsonText(v2(empty)));

    const TracePtr trace = loadSample("projectx-before.json.gz");
    Report r;
    r.settings.configPath = "counters.json";
    Anomaly a;
    a.slice = 3;  // no name: the writer takes it from the trace
    a.windows = {0, 7};
    r.anomalies.push_back(a);
    Anomaly b;
    b.name = std::string("bad \xff\xfe utf-8 \"quoted\"\nnewline");
    b.pid = "GPU 0";
    b.tid = "7";
    r.anomalies.push_back(b);
    ContentionWindow w;
    w.ops.resize(2);
    w.ops[1].slice = 5;
    r.windows.push_back(w);
    r.windows.push_back(ContentionWindow{});  // a window with no operators: "ops": []
    r.notes.push_back({"kind", "text with \t tab"});
    ContentionPattern pat;  // with runs and a lost share; and one with neither
    pat.victim = "gemm<\"q\">";
    pat.partner = "memory-bound";
    pat.factor = "character";
    pat.slowdown = 0.25;
    pat.slowdownLow = 0.125;
    pat.slowdownHigh = 1.0 / 3.0;
    pat.lostShare = 0.5;
    pat.runs.push_back({.slice = 3, .startNs = 1000, .durNs = 20, .excessNs = 5, .counted = true});
    pat.runs.push_back({.slice = 9, .startNs = 2000, .durNs = 30, .excessNs = 0, .counted = false});
    r.patterns.push_back(pat);
    r.patterns.push_back(ContentionPattern{});
    r.summary.extraWaitByResource[2] = 5;
    CHECK(streamed(r, trace.get()) == jsonText(v2(r, trace.get())));
    CHECK(streamed(r, nullptr) == jsonText(v2(r)));
    // report/3 says the same: names from the trace, U+FFFD for the bad bytes, the lists as they are.
    CHECK(v3AsV2(r, trace.get()) == jsonText(v2(r, trace.get())));
    CHECK(v3AsV2(r, nullptr) == jsonText(v2(r)));
}

TEST_CASE("a streamed report written atomically reads back equal to the report", "[report][stream]") {
    const TracePtr trace = loadSample("projectx-before.json.gz");
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report r = buildReport(*p, 1.0, 0.5);
    test::TempFile file("streamed.report.json");
    REQUIRE_FALSE(writeFileAtomically(file.path(), [&](std::ostream& o) { writeReportJson(o, r, trace.get()); }));
    const std::string text = test::slurp(file.path());
    CHECK(text == reportJsonText(r, trace.get()));
    auto back = reportFromJson(nlohmann::json::parse(text));
    REQUIRE(back);
    CHECK(reportToJson(*back) == reportToJson(r));

    // A folder that does not exist: an Unreadable failure naming the file, nothing left behind.
    const std::string nowhere = (fs::path(file.path()).parent_path() / "no-such-dir-contend" / "r.json").string();
    const auto failed = writeFileAtomically(nowhere, [&](std::ostream& o) { writeReportJson(o, r, trace.get()); });
    REQUIRE(failed);
    CHECK(failed->kind == Failure::Kind::Unreadable);
    CHECK(failed->file == nowhere);
    CHECK(failed->message().find(nowhere) != std::string::npos);
    CHECK_FALSE(fs::exists(nowhere));
}

TEST_CASE("a file written atomically holds every byte in order, across many buffers and flushes", "[report][stream]") {
    // 13 MiB in pieces of every size, with flushes between: the buffers are 4 MiB and written on
    // a second thread while the next fills (atomic_write.cpp), so order and completeness are what
    // can break.
    std::string expected;
    test::TempFile file("big.out");
    REQUIRE_FALSE(writeFileAtomically(file.path(), [&](std::ostream& o) {
        std::uint32_t x = 12345;
        for (int i = 0; expected.size() < (13u << 20); ++i) {
            x = x * 1664525u + 1013904223u;
            const std::string piece(1 + x % 70000, static_cast<char>('a' + (x >> 8) % 26));
            o << piece << i;
            expected += piece + std::to_string(i);
            if (i % 97 == 0) o.flush();
            o.put('\n');
            expected += '\n';
        }
    }));
    const std::string text = test::slurp(file.path());
    CHECK(text.size() == expected.size());
    CHECK(text == expected);
}

TEST_CASE("counts are grouped in threes", "[report][stream]") {
    CHECK(formatCount(0) == "0");
    CHECK(formatCount(999) == "999");
    CHECK(formatCount(1000) == "1,000");
    CHECK(formatCount(12345) == "12,345");
    CHECK(formatCount(1000000) == "1,000,000");
}

TEST_CASE("times since the trace start read as the app shows them, to the nanosecond", "[report][stream]") {
    CHECK(formatTimeSince(812) == "812 ns");
    CHECK(formatTimeSince(12345) == "12.345 us");
    CHECK(formatTimeSince(75109082) == "75.109082 ms");
    CHECK(formatTimeSince(2000000001) == "2.000000001 s");
    CHECK(formatTimeSince(-1500) == "-1.500 us");
}

TEST_CASE("the Markdown report shows the top rows and counts the rest", "[report][stream]") {
    const TracePtr trace = loadSample("projectx-before.json.gz");
    Report r;
    for (std::uint32_t i = 0; i < 1234; ++i) {
        Anomaly a;
        a.id = i;
        a.name = "op" + std::to_string(i);
        r.anomalies.push_back(a);
    }
    for (std::uint32_t i = 0; i < 25; ++i) {
        ContentionWindow w;
        w.id = i;
        WindowOp o;
        o.name = "w" + std::to_string(i);
        o.extraWaitNs = i;  // the costliest (24) is shown first
        w.ops.push_back(o);
        r.windows.push_back(w);
    }
    const std::string md = reportToMarkdown(r, *trace);
    CHECK(md.find("... and 1,214 more: see the JSON report (`contend-cli analyze --json FILE` lists every one).") !=
          std::string::npos);
    CHECK(md.find("... and 5 more: see the JSON report (") != std::string::npos);
    // Beside the JSON it was written with, it names that file.
    const std::string beside = reportToMarkdown(r, *trace, FindingRank::Gain, "out/report.json");
    CHECK(beside.find("... and 1,214 more: see the JSON report (`out/report.json`).") != std::string::npos);
    CHECK(beside.find("... and 5 more: see the JSON report (`out/report.json`).") != std::string::npos);
    CHECK(md.find("| op19 |") != std::string::npos);
    CHECK(md.find("| op20 |") == std::string::npos);
    CHECK(md.find("| w24 |") != std::string::npos);
    CHECK(md.find("| w4 |") == std::string::npos);  // the five cheapest are left out
    CHECK(md.find("| w5 |") != std::string::npos);
    std::ostringstream streamedMd;
    writeReportMarkdown(streamedMd, r, *trace);
    CHECK(streamedMd.str() == md);
}

TEST_CASE("analyze --markdown beside --json names the JSON file for the rows it leaves out", "[report][cli]") {
    const std::string sample =
        (fs::path(contend::test::sourceDir()) / "resources" / "samples" / "projectx-before.json.gz").string();
    test::TempFile json("md-beside.report.json"), md("md-beside.report.md");
    REQUIRE(test::runCli("analyze '" + sample + "' --json '" + json.path() + "' --markdown '" + md.path() + "'") == 0);
    const std::string text = test::slurp(md.path());
    const auto report = reportFromJson(nlohmann::json::parse(test::slurp(json.path())));
    REQUIRE(report);
    REQUIRE(report->anomalies.size() > kMarkdownTop);
    CHECK(text.find("... and " + std::to_string(report->anomalies.size() - kMarkdownTop) +
                    " more: see the JSON report (`" + json.path() + "`).") != std::string::npos);
}
