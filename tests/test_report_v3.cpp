// contend.report/3 and /4: the evidence code is exact, a report/4, /3 and /2 of the same analysis
// read back into the same report finding by finding, /4 is the smallest and /3 the next, and a
// malformed /3 or /4 is refused with its place, never a crash.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "analysis_sim.h"
#include "analyze_support.h"
#include "core/analysis/model/pattern_excess.h"
#include "core/io/load.h"
#include "core/report/single/evidence_code.h"
#include "core/report/single/report_json.h"
#include "core/report/single/report_json_v3_detail.h"
#include "test_support.h"

using namespace contend;
using nlohmann::json;

namespace {

std::string roundTrip(const std::string& s) {
    const EvidenceParts p = splitEvidence(s);
    std::string back, error;
    REQUIRE(joinEvidence(p.templ, p.args.data(), p.args.size(), back, error));
    return back;
}

// What a read-back report says, finding by finding, in report/2's words.
void checkSame(const Report& a, const Report& b) {
    const json x = reportToJson(a, ReportSchemaVersion::V2), y = reportToJson(b, ReportSchemaVersion::V2);
    for (const char* section : {"anomalies", "windows", "clusters", "patterns"}) {
        INFO(section);
        REQUIRE(x[section].size() == y[section].size());
        for (std::size_t i = 0; i < x[section].size(); ++i) {
            INFO(i);
            CHECK(x[section][i] == y[section][i]);
        }
    }
    CHECK(x == y);
}

// A hand-built report of t.json with one operator, "k".
Report oneOperatorReport() {
    Report r;
    r.trace.path = "t.json";
    r.trace.format = "chrome";
    r.operators.push_back({});
    r.operators[0].name = "k";
    return r;
}

// Adds thread `track` (pid, tid, label) to a hand-built report's threads.
void addThread(Report& r, std::uint32_t track, const char* pid, const char* tid, const char* label) {
    r.threads.push_back({});
    r.threads.back().track = track;
    r.threads.back().pid = pid;
    r.threads.back().tid = tid;
    r.threads.back().label = label;
}

Report readText(const std::string& text) {
    Result<Report> r = reportFromJson(json::parse(text));
    if (!r) FAIL(r.failure().reason);
    return std::move(r).value();
}

}  // namespace

TEST_CASE("evidence splits into a template and numbers that join back to the same text", "[report][v3]") {
    for (const std::string s :
         {std::string(), std::string("measured: bandwidth saturated for 85% of its run (mean 70%, its own use 12%)"),
          std::string("overlapped 87% by other tracks; 1.42x its baseline"), std::string("p = 1.3e-05 over 007 tests"),
          std::string("sgemm_128x64_nn on sm_80 v1.2.3 beside {braces} and }{ and {}"),
          std::string("0.50 0.5 10.000 123456789012345678 1234567890123456789 3.14159265358979323846"),
          std::string("-5 runs, .5 of them, 5. at the end 9"), std::string("naïve ünïcode 42")}) {
        INFO(s);
        CHECK(roundTrip(s) == s);
    }
    const EvidenceParts p = splitEvidence("overlapped 87% by other tracks; 1.42x its baseline");
    CHECK(p.templ == "overlapped {}% by other tracks; {.2}x its baseline");
    REQUIRE(p.args.size() == 2);
    CHECK(p.args[0] == 87);
    CHECK(p.args[1] == 1.42);
    CHECK(splitEvidence("sm_80 and sgemm_128x64").args.empty());  // glued to a name: kept as text
}

TEST_CASE("a template that does not fit its numbers says why", "[report][v3]") {
    const json args = json::array({1, 2.5, "x"});
    const std::vector<std::pair<std::string, std::size_t>> bad = {
        {"{} and {}", 1}, {"{}", 2}, {"{} {}", 2}, {"a } b", 0}, {"{.x}", 1}, {"{", 1}, {"{} {.1} {}", 3}};
    for (const auto& [templ, count] : bad) {
        INFO(templ);
        std::string out, error;
        CHECK_FALSE(joinEvidence(templ, &args[0], count, out, error));
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("a report/4, /3 and /2 of one analysis read back the same, finding by finding", "[report][v3]") {
    std::vector<TracePtr> traces = {contend::test::simulated(sim::Scenario::Mixed, false, 3).trace,
                                    contend::test::simulated(sim::Scenario::Lock, false, 1).trace,
                                    contend::test::simulated(sim::Scenario::SyncCluster, false, 2).trace};
    LoadResult sample = loadTrace(contend::test::sourceDir() + "/resources/samples/projectx-before.json.gz");
    REQUIRE(sample);
    traces.push_back(sample.value());
    for (const TracePtr& t : traces) {
        for (double k : {3.0, 0.5}) {
            INFO(t->source().path << " at coefficient " << k);
            AnalysisSettings s;
            s.coefficient = k;
            const Report r = contend::test::analyzeOk(t, s);
            const std::string v4 = reportJsonText(r, t.get()), v3 = reportJsonText(r, t.get(), ReportSchemaVersion::V3),
                              v2 = reportJsonText(r, t.get(), ReportSchemaVersion::V2);
            CHECK(json::parse(v4)["schema"] == "contend.report/4");
            CHECK(json::parse(v3)["schema"] == "contend.report/3");
            CHECK(json::parse(v2)["schema"] == "contend.report/2");
            const Report a = readText(v3), b = readText(v2), c = readText(v4);
            checkSame(a, b);
            checkSame(c, b);
            // And what was written: the report itself in report/2's words.
            CHECK(reportToJson(a, ReportSchemaVersion::V2) == reportToJson(r, *t, ReportSchemaVersion::V2));
            CHECK(reportToJson(c, ReportSchemaVersion::V2) == reportToJson(r, *t, ReportSchemaVersion::V2));
            // Writing what was read gives the same text again, in either version.
            CHECK(reportJsonText(a, nullptr, ReportSchemaVersion::V3) == v3);
            CHECK(reportJsonText(c, nullptr) == v4);
            CHECK(reportJsonText(c, nullptr, ReportSchemaVersion::V3) == v3);
            // The same information in fewer bytes: every name once, findings as columns; /4 every
            // slice's times once.
            CHECK(v3.size() < v2.size());
            CHECK(v4.size() <= v3.size() + 40);  // with nothing to share, /4 adds an empty `slices`
            if (r.anomalies.size() > 10) CHECK(v4.size() < v3.size());
            const json d4 = json::parse(v4);
            if (r.anomalies.size() > 0) {
                CHECK_FALSE(d4["anomalies"].contains("start_ns"));
                CHECK(d4["anomalies"].contains("score_f32"));
            }
            for (const json& p : d4["patterns"]) CHECK_FALSE(p["runs"].contains("dur_ns"));
            // The document form is the text parsed.
            CHECK(reportToJson(r, *t) == d4);
            CHECK(reportToJson(r, *t, ReportSchemaVersion::V3) == json::parse(v3));
        }
    }
}

TEST_CASE("a hand-built report/3 keeps what the operators and threads do not say", "[report][v3]") {
    Report r;
    r.trace.path = "t.json";
    r.trace.format = "chrome";
    r.operators.push_back({});
    r.operators[0].name = "gemm";
    r.operators[0].baselineNs = 100;
    addThread(r, 4, "1", "7", "GPU 1 / stream 7");
    Anomaly a;
    a.id = 5;  // not its position
    a.name = "gemm_v2";
    a.pid = "1";
    a.tid = "7";
    a.trackLabel = "GPU 1 / stream 7";
    a.track = 4;
    a.startNs = 1000;
    a.durNs = 300;
    a.baselineNs = 120;  // not its signature's
    a.excessNs = 150;    // not dur - baseline
    a.evidence = "estimated: {odd} 12% and 1.50x";
    a.windows = {3};
    a.breakdown.waitBeforeNs = 0;
    Anomaly b = a;
    b.id = 6;
    b.name = "gemm";
    b.tid = "8";  // not the thread's
    b.evidence.clear();
    b.breakdown.waitBeforeNs = -1;
    r.anomalies = AnomalyList(std::vector<Anomaly>{a, b});
    ContentionPattern p;
    p.signature = 0;
    p.victim = "gemm";
    PatternRun first, second;
    first = {.slice = 9, .startNs = 2000, .durNs = 400, .excessNs = 300, .counted = true};
    second = {.slice = 3,
              .startNs = 1500,
              .durNs = 50,
              .excessNs = 7,
              .counted = false};  // its excess is not its duration less the baseline
    p.runs = {first, second};
    r.patterns.push_back(p);
    // report/4: the anomalies' own times disagree on slice 9 with the pattern run's, so the runs
    // keep their columns; a score that is not a 32-bit float keeps the doubles; a compute_ns that
    // is not the duration less the other parts is written.
    r.anomalies.edit(0).slice = 9;
    r.anomalies.edit(1).score = 0.1;
    r.anomalies.edit(0).breakdown.computeNs = 250;
    const json j4 = reportToJson(r);
    CHECK(j4["schema"] == "contend.report/4");
    CHECK_FALSE(j4["anomalies"].contains("start_ns"));
    CHECK(j4["patterns"][0]["runs"].contains("start_ns"));
    CHECK(j4["anomalies"].contains("score"));
    CHECK(j4["anomalies"]["breakdown"].contains("compute_ns"));
    CHECK(reportToJson(readText(j4.dump()), ReportSchemaVersion::V2) == reportToJson(r, ReportSchemaVersion::V2));
    const std::string text = reportJsonText(r, nullptr, ReportSchemaVersion::V3);
    const json j = json::parse(text);
    CHECK(j["anomalies"].contains("name"));
    CHECK(j["anomalies"].contains("tid"));
    CHECK(j["anomalies"].contains("excess_ns"));
    CHECK(j["patterns"][0]["runs"].contains("excess_ns"));
    const Report back = readText(text);
    CHECK(reportToJson(back, ReportSchemaVersion::V2) == reportToJson(r, ReportSchemaVersion::V2));
    // Derived when they agree: the columns go.
    r.anomalies.edit(0).name = "gemm";
    r.anomalies.edit(1).tid = "7";
    for (std::size_t k = 0; k < 2; ++k) {
        r.anomalies.edit(k).baselineNs = 100;
        r.anomalies.edit(k).excessNs = 200;
    }
    r.patterns[0].runs[1].excessNs = 0;
    const json lean = reportToJson(r, ReportSchemaVersion::V3);
    for (const char* key : {"name", "pid", "tid", "track", "baseline_ns", "excess_ns"})
        CHECK_FALSE(lean["anomalies"].contains(key));
    CHECK_FALSE(lean["patterns"][0]["runs"].contains("excess_ns"));
    CHECK(reportToJson(readText(lean.dump()), ReportSchemaVersion::V2) == reportToJson(r, ReportSchemaVersion::V2));
    // report/4 of the same: the runs' times agree with the anomalies' now, so all come from slices;
    // a compute_ns that is the duration less the other parts goes.
    r.patterns[0].runs[0] = {.slice = 9, .startNs = 1000, .durNs = 300, .excessNs = 200, .counted = true};
    r.patterns[0].runs[1] = {.slice = 3, .startNs = 1000, .durNs = 300, .excessNs = 200, .counted = false};
    r.anomalies.edit(0).slice = 9;
    r.anomalies.edit(1).slice = 3;
    r.anomalies.edit(1).score = 1.5;
    for (std::size_t k = 0; k < 2; ++k) r.anomalies.edit(k).breakdown.computeNs = 300;
    const json lean4 = reportToJson(r);
    CHECK(lean4["slices"]["rows"] == 2);
    CHECK(lean4["slices"]["slice"] == json::array({3, 6}));
    CHECK_FALSE(lean4["patterns"][0]["runs"].contains("start_ns"));
    CHECK_FALSE(lean4["anomalies"].contains("dur_ns"));
    CHECK(lean4["anomalies"]["score_f32"] == json::array({0.0, 1.5}));
    REQUIRE(lean4["anomalies"].contains("breakdown"));  // wait_before_ns: 0 and not known
    CHECK_FALSE(lean4["anomalies"]["breakdown"].contains("compute_ns"));
    CHECK(reportToJson(readText(lean4.dump()), ReportSchemaVersion::V2) == reportToJson(r, ReportSchemaVersion::V2));
}

TEST_CASE("an anomaly's windows are left to the reader only when its slice's operators give them, in order",
          "[report][v3]") {
    // Windows 1 and 2 both hold slice 9 (window 1 twice); window 2 holds slice 4 too. Slices
    // from 0 (dense: counted by slice) and from 50M (sparse: sorted).
    for (const std::uint32_t base : {0u, 50'000'000u}) {
        INFO("slices from " << base);
        Report r = oneOperatorReport();
        // A window operator or an anomaly of slice `slice` on thread 1/2, 10 ns from `start`.
        const auto on = [&](auto item, std::uint32_t slice, TimeNs start) {
            item.slice = base + slice;
            item.name = "k";
            item.pid = "1";
            item.tid = "2";
            item.startNs = start;
            item.durNs = 10;
            return item;
        };
        const auto op = [&](std::uint32_t slice, TimeNs start) { return on(WindowOp{}, slice, start); };
        ContentionWindow w1, w2;
        w1.id = 1;
        w1.ops = {op(9, 100), op(9, 100)};
        w2.id = 2;
        w2.ops = {op(4, 50), op(9, 100)};
        r.windows = WindowList(std::vector<ContentionWindow>{w1, w2});
        const auto anomaly = [&](std::uint32_t id, std::uint32_t slice, TimeNs start,
                                 std::vector<std::uint32_t> windows) {
            Anomaly a = on(Anomaly{}, slice, start);
            a.id = id;
            a.windows = std::move(windows);
            return a;
        };
        const auto written = [&](std::vector<Anomaly> as) {
            r.anomalies = AnomalyList(std::move(as));
            const json j = reportToJson(r);
            CHECK(reportToJson(readText(j.dump()), ReportSchemaVersion::V2) ==
                  reportToJson(r, ReportSchemaVersion::V2));
            return j["anomalies"].contains("windows");
        };
        // The engine's shape: slice 9 in 1 then 2, slice 4 in 2, slice 7 in none.
        CHECK_FALSE(written(
            {anomaly(0, 9, 100, {1, 2}), anomaly(1, 4, 50, {2}), anomaly(2, 7, 70, {}), anomaly(3, 70, 70, {})}));
        // Anything else keeps the column: another order, one missing, one too many, one on a slice no
        // operator holds.
        CHECK(written({anomaly(0, 9, 100, {2, 1}), anomaly(1, 4, 50, {2})}));
        CHECK(written({anomaly(0, 9, 100, {1}), anomaly(1, 4, 50, {2})}));
        CHECK(written({anomaly(0, 9, 100, {1, 2}), anomaly(1, 4, 50, {})}));
        CHECK(written({anomaly(0, 9, 100, {1, 2, 2}), anomaly(1, 4, 50, {2})}));
        CHECK(written({anomaly(0, 9, 100, {1, 2}), anomaly(1, 7, 70, {1})}));
        CHECK(written({anomaly(0, 9, 100, {1, 2}), anomaly(1, 70, 70, {2})}));  // beyond every operator's slice
    }
}

TEST_CASE("the texts' table numbers a text by its bytes, whether looked up by them or by its address", "[report][v3]") {
    // Texts 4096 bytes apart share a slot of the address cache: same size, other bytes.
    std::string buf(3 * 4096 + 16, 'x');
    buf.replace(0, 6, "alpha1");
    buf.replace(4096, 6, "alpha2");
    buf.replace(8192, 6, "alpha1");  // the first one's bytes at another address
    const std::string_view a(buf.data(), 6), b(buf.data() + 4096, 6), a2(buf.data() + 8192, 6);
    v3detail::TextTable t;
    CHECK(t.indexStable(a) == 0);
    CHECK(t.indexStable(b) == 1);   // the slot held a: not taken for it
    CHECK(t.indexStable(a) == 0);   // nor b for a
    CHECK(t.indexStable(a2) == 0);  // the same bytes elsewhere: the same text
    CHECK(t.index("beta") == 2);    // both ways share one numbering, in the order of first use
    CHECK(t.indexStable(std::string_view(buf.data(), 5)) == 3);  // a prefix at a's address is another text
    CHECK(t.indexStable(std::string_view(buf.data() + 8192, 6)) == 0);
    CHECK(t.indexStable(std::string_view()) == 4);
    CHECK(t.index("") == 4);
    CHECK(t.all() == std::vector<std::string>{"alpha1", "alpha2", "beta", "alpha", ""});
}

namespace {
// Each case's mutation of `good` is refused as malformed, the reason naming the place `expect`.
void expectRefusals(const json& good, const std::vector<std::pair<std::string, std::function<void(json&)>>>& cases) {
    for (const auto& [expect, mutate] : cases) {
        INFO(expect);
        json j = good;
        mutate(j);
        const Result<Report> read = reportFromJson(j);
        REQUIRE_FALSE(read);
        CHECK(read.failure().kind == Failure::Kind::Malformed);
        INFO(read.failure().reason);
        CHECK(read.failure().reason.find(expect) != std::string::npos);
    }
}
}  // namespace

TEST_CASE("a malformed report/3 is refused with the place that is wrong", "[report][v3]") {
    const Report r =
        contend::test::analyzeOk(contend::test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{});
    REQUIRE(r.anomalies.size() > 1);
    REQUIRE_FALSE(r.windows.empty());
    REQUIRE_FALSE(r.patterns.empty());
    const json good = reportToJson(r, ReportSchemaVersion::V3);
    REQUIRE(reportFromJson(good));
    REQUIRE(good["anomalies"].contains("evidence"));
    const std::size_t strings = good["strings"].size();
    const std::vector<std::pair<std::string, std::function<void(json&)>>> cases = {
        {"anomalies.score: 1 values", [](json& j) { j["anomalies"]["score"] = json::array({1.0}); }},
        {"anomalies.score[1]: not a number", [](json& j) { j["anomalies"]["score"][1] = "x"; }},
        {"anomalies.slice[0]: not an integer", [](json& j) { j["anomalies"]["slice"][0] = -1; }},
        {"anomalies: missing column \"start_ns\"", [](json& j) { j["anomalies"].erase("start_ns"); }},
        {"anomalies.cause[0]: not an index into strings", [strings](json& j) { j["anomalies"]["cause"][0] = strings; }},
        {"anomalies.cause[0]: unknown resource",
         [](json& j) {
             j["strings"].push_back("warp drive");
             j["anomalies"]["cause"][0] = j["strings"].size() - 1;
         }},
        {"anomalies.evidence[0]: evidence", [](json& j) { j["anomalies"]["evidence"][0].push_back(1); }},
        {"anomalies.evidence[0]: evidence is neither", [](json& j) { j["anomalies"]["evidence"][0] = "text"; }},
        {"anomalies: pid, tid and track come together",
         [](json& j) { j["anomalies"]["pid"] = j["anomalies"]["slice"]; }},
        {"anomalies.signature[0]: no operator", [](json& j) { j["anomalies"]["signature"][0] = 100000; }},
        {"anomalies.track_index[0]: no thread", [](json& j) { j["anomalies"]["track_index"][0] = 100000; }},
        {"anomalies: \"rows\" has the wrong type", [](json& j) { j["anomalies"]["rows"] = "many"; }},
        {"windows.op_count", [](json& j) { j["windows"]["op_count"][0] = j["windows"]["op_count"][0].get<int>() + 1; }},
        {"windows.ops.name[0]: not an index", [](json& j) { j["windows"]["ops"]["name"][0] = -3; }},
        {"windows.ops: missing column", [](json& j) { j["windows"]["ops"].erase("dur_ns"); }},
        {"patterns[0].runs.counted[0]: not 0 or 1", [](json& j) { j["patterns"][0]["runs"]["counted"][0] = 2; }},
        {"patterns[0].runs.slice[0]: not a slice", [](json& j) { j["patterns"][0]["runs"]["slice"][0] = -5; }},
        {"patterns[0]: missing \"signature\"", [](json& j) { j["patterns"][0].erase("signature"); }},
        {"strings[0]: not a string", [](json& j) { j["strings"][0] = 5; }},
        {"report: missing \"strings\"", [](json& j) { j.erase("strings"); }},
        {"_ns[0]: out of range",
         [](json& j) {  // a window time or an anomaly start, whichever is read first
             j["time_origin_ns"] = std::numeric_limits<std::int64_t>::max();
             j["anomalies"]["start_ns"][0] = 5;
         }},
    };
    expectRefusals(good, cases);
}

TEST_CASE("a malformed report/4 is refused with the place that is wrong", "[report][v3]") {
    const Report r =
        contend::test::analyzeOk(contend::test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{});
    const json good = reportToJson(r);
    REQUIRE(reportFromJson(good));
    REQUIRE(good["slices"]["rows"].get<std::size_t>() > 1);
    REQUIRE(good["anomalies"].contains("score_f32"));
    const std::vector<std::pair<std::string, std::function<void(json&)>>> cases = {
        {"report: missing \"slices\"", [](json& j) { j.erase("slices"); }},
        {"slices.slice[1]: not an integer", [](json& j) { j["slices"]["slice"][1] = 0; }},
        {"slices.dur_ns: 1 values", [](json& j) { j["slices"]["dur_ns"] = json::array({1}); }},
        {"anomalies.slice[0]: slice 4000000000 is not in slices",
         [](json& j) { j["anomalies"]["slice"][0] = 4000000000u; }},
        {"anomalies: start_ns and dur_ns come together",
         [](json& j) { j["anomalies"]["start_ns"] = j["anomalies"]["slice"]; }},
        {"anomalies: score and score_f32 both given",
         [](json& j) { j["anomalies"]["score"] = j["anomalies"]["score_f32"]; }},
        {"anomalies.score_f32[0]: not a number", [](json& j) { j["anomalies"]["score_f32"][0] = "x"; }},
        {"patterns[0].runs.slice[0]: slice", [](json& j) { j["patterns"][0]["runs"]["slice"][0] = 4000000000u; }},
        {"patterns[0].run_excess: expected \"share\"", [](json& j) { j["patterns"][0]["run_excess"] = "clip"; }},
    };
    REQUIRE(good["patterns"][0].contains("run_excess"));  // the engine's runs carry their share
    expectRefusals(good, cases);
}

TEST_CASE("a pattern's runs' excess is left to the reader in report/4 when it is each run's share of the slowdown",
          "[report][v3]") {
    Report r = oneOperatorReport();
    r.operators[0].baselineNs = 400;
    ContentionPattern p;
    p.victim = "k";
    p.slowdown = 0.237;
    std::uint32_t slice = 1;
    for (const TimeNs dur : {1000, 333, 12345, 401, 7}) {
        p.runs.push_back({.slice = slice,
                          .startNs = 100 * slice,
                          .durNs = dur,
                          .excessNs = patternRunExcessNs(dur, p.slowdown),
                          .counted = slice % 2 == 1});
        slice += 2;
    }
    r.patterns.push_back(p);
    const Report* expect = &r;
    const auto readsBack = [&](const json& j) {
        CHECK(reportToJson(readText(j.dump()), ReportSchemaVersion::V2) ==
              reportToJson(*expect, ReportSchemaVersion::V2));
    };
    // report/4: the rule named, the column left out, the same numbers read back.
    const json j4 = reportToJson(r);
    CHECK(j4["patterns"][0]["run_excess"] == "share");
    CHECK_FALSE(j4["patterns"][0]["runs"].contains("excess_ns"));
    readsBack(j4);
    // report/3 has no such rule: the column is written.
    const json j3 = reportToJson(r, ReportSchemaVersion::V3);
    CHECK_FALSE(j3["patterns"][0].contains("run_excess"));
    CHECK(j3["patterns"][0]["runs"]["excess_ns"] == json::array({192, 64, 2365, 77, 1}));
    readsBack(j3);
    // One run off the rule: the column again, and no rule named.
    Report off = r;
    off.patterns[0].runs[2].excessNs += 1;
    expect = &off;
    const json j4off = reportToJson(off);
    CHECK_FALSE(j4off["patterns"][0].contains("run_excess"));
    CHECK(j4off["patterns"][0]["runs"].contains("excess_ns"));
    readsBack(j4off);
    // The older rule, duration - baseline clipped at 0, still leaves the column out, unnamed.
    Report older = r;
    for (PatternRun& run : older.patterns[0].runs) run.excessNs = std::max<TimeNs>(0, run.durNs - 400);
    expect = &older;
    const json j4old = reportToJson(older);
    CHECK_FALSE(j4old["patterns"][0].contains("run_excess"));
    CHECK_FALSE(j4old["patterns"][0]["runs"].contains("excess_ns"));
    readsBack(j4old);
}

TEST_CASE("compare names the file and the place of a malformed report/3", "[report][v3][cli]") {
    const contend::test::TempFile baseFile("v3-base.json"), badFile("v3-bad.json");
    const std::string &base = baseFile.path(), &bad = badFile.path();
    const Report r =
        contend::test::analyzeOk(contend::test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{});
    json j = reportToJson(r, ReportSchemaVersion::V3);
    baseFile.write(j.dump());
    j["anomalies"]["dur_ns"][0] = "long";
    badFile.write(j.dump());
    const auto run = contend::test::runCliCapture("compare " + base + " " + bad, true);
    CHECK(run.code != 0);
    CHECK(run.out.find("v3-bad.json") != std::string::npos);
    CHECK(run.out.find("anomalies.dur_ns[0]") != std::string::npos);
}

TEST_CASE("the fuzzers' report/3 seed reads and writes back the same document", "[report][v3]") {
    const std::string seed = contend::test::sourceDir() + "/tests/fuzz/corpus/report_json/v3-lock.json";
    const json doc = json::parse(contend::test::slurp(seed));
    REQUIRE(doc["schema"] == "contend.report/3");
    const Report r = readText(doc.dump());
    CHECK(r.anomalies.size() == doc["anomalies"]["rows"].get<std::size_t>());
    json again = reportToJson(r, ReportSchemaVersion::V3);
    again.erase("producer");  // the seed has none: it names no build
    CHECK(again == doc);
}

TEST_CASE("the fuzzers' report/4 seed reads and writes back the same document", "[report][v3]") {
    const std::string dir = contend::test::sourceDir() + "/tests/fuzz/corpus/report_json/";
    const json doc = json::parse(contend::test::slurp(dir + "v4-lock.json"));
    REQUIRE(doc["schema"] == "contend.report/4");
    const Report r = readText(doc.dump());
    json again = reportToJson(r);
    again.erase("producer");  // the seed has none: it names no build
    CHECK(again == doc);
    // The report/3 seed of the same analysis says the same.
    checkSame(r, readText(contend::test::slurp(dir + "v3-lock.json")));
}

TEST_CASE("a report large enough to be prepared on two cores reads back the same as its report/2", "[report][v3]") {
    // 40k anomalies and 20k window operators: the writer's passes before writing (origin, slice
    // table, which columns to leave out) run on two cores from 32k findings. Anomalies alternate
    // between the engine's shape (the thread's texts, the signature's baseline, windows from the
    // operators) and a hand-built one, so every check has rows that pass and rows that fail it
    // in one half or the other.
    for (const bool engineShape : {true, false}) {
        INFO("engine shape only: " << engineShape);
        Report r = oneOperatorReport();
        r.operators[0].baselineNs = 50;
        addThread(r, 0, "1", "2", "GPU 1 / stream 2");
        constexpr std::uint32_t kAnomalies = 40000, kWindows = 5000;
        std::vector<ContentionWindow> windows(kWindows);
        for (std::uint32_t w = 0; w < kWindows; ++w) {
            windows[w].id = w;
            windows[w].start = 1000 + 10 * w;
            windows[w].end = windows[w].start + 25;
            windows[w].resource = w % 2 ? Resource::Bandwidth : Resource::Compute;
            for (std::uint32_t k = 0; k < 4; ++k) {
                WindowOp o;
                o.slice = 8 * w + k;  // anomaly 2 (4w + k)'s slice (below)
                o.name = "k";
                o.pid = "1";
                o.tid = "2";
                o.startNs = 1000 + 5 * (o.slice / 2);  // an anomaly's times where it shares the slice
                o.durNs = 100 + (o.slice / 2) % 13;
                o.extraWaitNs = k;
                windows[w].ops.push_back(o);
            }
        }
        r.windows = WindowList(std::move(windows));
        std::vector<Anomaly> as(kAnomalies);
        for (std::uint32_t i = 0; i < kAnomalies; ++i) {
            Anomaly& a = as[i];
            const bool odd = !engineShape && i % 2 == 1;
            a.id = i;
            a.slice = 2 * i;
            a.signature = 0;
            a.name = "k";
            a.pid = "1";
            a.tid = odd ? "3" : "2";
            a.trackLabel = "GPU 1 / stream 2";
            a.track = 0;
            a.startNs = 1000 + 5 * i;
            a.durNs = 100 + i % 13;
            a.baselineNs = odd ? 40 : 50;
            a.excessNs = a.durNs - a.baselineNs;
            a.score = 1.0 + static_cast<double>(i % 97) / 8.0;
            a.cause = i % 3 ? Resource::Bandwidth : Resource::Compute;
            if (a.slice % 8 < 4 && a.slice / 8 < kWindows) a.windows = {a.slice / 8};
            if (odd && i % 10 == 1) a.windows.push_back(kWindows - 1);
        }
        r.anomalies = AnomalyList(std::move(as));
        const std::string v4 = reportJsonText(r, nullptr), v2 = reportJsonText(r, nullptr, ReportSchemaVersion::V2);
        checkSame(readText(v4), readText(v2));
        CHECK(reportJsonText(readText(v4), nullptr) == v4);
        const json d4 = json::parse(v4);
        CHECK(d4["anomalies"]["rows"] == kAnomalies);
        CHECK(d4["anomalies"].contains("windows") == !engineShape);
        CHECK(d4["anomalies"].contains("tid") == !engineShape);
        CHECK(d4["slices"]["rows"] == kAnomalies + 2 * kWindows);  // the operators' slices are every second anomaly's
    }
}
