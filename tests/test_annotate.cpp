// contend-cli annotate (core/report/single/annotate.h): the user's events unchanged, the findings added
// in a form Perfetto's JSON importer accepts, for plain and gzip, object and array files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <zlib.h>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/single/annotate.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
using contend::test::TempFile;
namespace fs = std::filesystem;

namespace {

std::string gunzipFile(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    REQUIRE(f);
    std::string out;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    gzclose(f);
    return out;
}

// The rules of Perfetto's JSON trace importer (and chrome://tracing) that the added events must
// keep: known phases; pid, tid and a finite ts on every event but metadata; X with dur >= 0;
// instants with a scope; flows paired by (cat, name, id); on the findings' threads no two
// complete slices overlap.
void checkChromeTraceRules(const nlohmann::json& events, long long findingsPid) {
    static const std::set<std::string> phases = {"X", "B", "E", "i", "I", "C", "M", "s", "t",
                                                 "f", "b", "e", "n", "R", "O", "N", "D"};
    std::map<std::tuple<std::string, std::string, long long>, int> flows;  // (cat, name, id) -> s - f
    std::map<long long, std::vector<std::pair<double, double>>> slicesByTid;
    for (const auto& e : events) {
        REQUIRE(e.is_object());
        REQUIRE(e.contains("ph"));
        const std::string ph = e["ph"].get<std::string>();
        INFO(e.dump().substr(0, 300));
        REQUIRE(phases.count(ph));
        REQUIRE(e.contains("pid"));
        if (ph == "M") continue;
        REQUIRE(e.contains("tid"));
        REQUIRE(e.contains("ts"));
        REQUIRE(e["ts"].is_number());
        REQUIRE(std::isfinite(e["ts"].get<double>()));
        if (ph == "X") {
            REQUIRE(e["dur"].is_number());
            REQUIRE(e["dur"].get<double>() >= 0);
        }
        if (!e["pid"].is_number() || e["pid"].get<long long>() != findingsPid) {
            if (ph != "s" && ph != "f") continue;  // flows into the user's tracks are ours too
        }
        if (ph == "i") REQUIRE((e["s"] == "t" || e["s"] == "p" || e["s"] == "g"));
        if (ph == "X")
            slicesByTid[e["tid"].get<long long>()].push_back({e["ts"].get<double>(), e["dur"].get<double>()});
        if (ph == "s" || ph == "f") {
            if (!e.contains("cat") || e["cat"] != "contend.window") continue;
            REQUIRE(e.contains("id"));
            auto key =
                std::make_tuple(e["cat"].get<std::string>(), e["name"].get<std::string>(), e["id"].get<long long>());
            flows[key] += ph == "s" ? 1 : -1;
            if (ph == "f") REQUIRE(e["bp"] == "e");
        }
    }
    for (const auto& [key, balance] : flows) CHECK(balance == 0);
    for (auto& [tid, v] : slicesByTid) {
        std::sort(v.begin(), v.end());
        for (std::size_t i = 1; i < v.size(); ++i) CHECK(v[i].first >= v[i - 1].first + v[i - 1].second - 1e-3);
    }
}

long long findingsPidOf(const Trace& t) {
    for (const Track& tr : t.tracks())
        if (tr.processName == "Contend findings") return std::stoll(tr.pid);
    FAIL("no Contend findings process");
    return -1;
}

// The slices of every track of `a` are those of `b` on the track of the same (pid, tid).
void checkSameSlices(const Trace& a, const Trace& b) {
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<TimeNs, TimeNs>>> sa, sb;
    for (const Slice& s : a.slices())
        sa[{a.tracks()[s.track].pid, a.tracks()[s.track].tid}].push_back({s.start, s.dur});
    for (const Slice& s : b.slices())
        sb[{b.tracks()[s.track].pid, b.tracks()[s.track].tid}].push_back({s.start, s.dur});
    for (auto& [k, v] : sa) {
        INFO(k.first << "/" << k.second);
        CHECK(sb[k] == v);
    }
}

struct AnnotatedAndBack {
    contend::Annotated res;
    LoadResult back;
};

// Annotates `lr`'s trace with `r` into `out`, reads it back, and checks it holds the user's
// events unchanged plus exactly the added ones.
AnnotatedAndBack annotateAndReload(const LoadResult& lr, const Report& r, const TempFile& out) {
    const Result<contend::Annotated> res = writeAnnotatedTrace(*lr.value(), r, out.path());
    INFO((res ? std::string() : res.failure().message()));
    REQUIRE(res.ok());
    LoadResult back = loadTrace(out.path());
    REQUIRE(back);
    CHECK(back.value()->stats().events == lr.value()->stats().events + res->addedEvents);
    checkSameSlices(*lr.value(), *back.value());
    return AnnotatedAndBack{res.value(), std::move(back)};
}

}  // namespace

TEST_CASE("annotate: the bundled sample keeps every event and gains the findings, as gzip", "[annotate]") {
    const std::string sample = contend::test::sourceDir() + "/resources/samples/projectx-before.json.gz";
    LoadResult lr = loadTrace(sample);
    REQUIRE(lr);
    const Report r = contend::test::analyzeOk(lr.value(), AnalysisSettings{});
    REQUIRE_FALSE(r.windows.empty());
    TempFile out("annotated.json.gz");
    // Contend reads it back without a warning, with exactly the added events more.
    const AnnotatedAndBack a = annotateAndReload(lr, r, out);
    const LoadResult& back = a.back;
    CHECK(back.value()->stats().warnings.size() == lr.value()->stats().warnings.size());
    const long long pid = findingsPidOf(*back.value());
    std::size_t windows = 0, instants = 0, patternRuns = 0;
    for (const Slice& s : back.value()->slices()) {
        const Track& tr = back.value()->tracks()[s.track];
        if (tr.pid != std::to_string(pid)) continue;
        if (tr.threadName.rfind("contention windows", 0) == 0) ++windows;
        if (tr.threadName == "anomalies") ++instants;
        if (tr.threadName.rfind("contention patterns", 0) == 0) ++patternRuns;
    }
    CHECK(windows == r.windows.size());
    CHECK(instants == r.anomalies.size());
    // Every run counted in a pattern, once.
    std::size_t counted = 0;
    for (const ContentionPattern& p : r.patterns)
        for (const PatternRun& run : p.runs) counted += run.counted ? 1 : 0;
    REQUIRE_FALSE(r.patterns.empty());
    CHECK(counted > 0);
    CHECK(patternRuns == counted);
    // Analysed again, the user's operators give the same findings (the added process holds no
    // device operator).
    const Report again = contend::test::analyzeOk(back.value(), AnalysisSettings{});
    CHECK(again.anomalies.size() == r.anomalies.size());
    CHECK(again.windows.size() == r.windows.size());
    checkChromeTraceRules(nlohmann::json::parse(gunzipFile(out.path()))["traceEvents"], pid);
}

TEST_CASE("annotate: an array-form trace (Ascend, Chrome) and an empty array", "[annotate]") {
    std::string events = "[";
    for (int i = 0; i < 12; ++i) {
        char e[256];
        std::snprintf(
            e, sizeof e,
            R"(%s{"ph": "X", "cat": "kernel", "name": "relu_fwd", "pid": 0, "tid": 7, "ts": %d, "dur": %d, "args": {"stream": 7, "device": 0}})",
            i ? ",\n" : "", i * 200, i == 11 ? 160 : 100 + i % 2);
        events += e;
    }
    events += "]\n";
    TempFile in("array.json", events);
    LoadResult lr = loadTrace(in.path());
    REQUIRE(lr);
    const Report r = contend::test::analyzeOk(lr.value(), AnalysisSettings{});
    REQUIRE(r.anomalies.size() == 1);
    TempFile out("array-annotated.json");
    const Result<contend::Annotated> res = writeAnnotatedTrace(*lr.value(), r, out.path());
    INFO((res ? std::string() : res.failure().message()));
    REQUIRE(res.ok());
    const auto j = nlohmann::json::parse(contend::test::slurp(out.path()));
    REQUIRE(j.is_array());
    CHECK(j.size() == 12 + res->addedEvents);
    CHECK(j[0]["name"] == "relu_fwd");  // the user's events first, unchanged
    checkChromeTraceRules(j, findingsPidOf(*loadTrace(out.path()).value()));

    TempFile empty("empty-array.json", "{\"traceEvents\": [ ], \"displayTimeUnit\": \"ms\"}");
    // An empty trace loads (with no tracks): its annotation must be written too, never skipped.
    LoadResult le = loadTrace(empty.path());
    INFO((le.ok() ? std::string() : le.failure().message()));
    REQUIRE(le);
    TempFile out2("empty-annotated.json");
    const Result<contend::Annotated> r2 =
        writeAnnotatedTrace(*le.value(), contend::test::analyzeOk(le.value(), AnalysisSettings{}), out2.path());
    REQUIRE(r2.ok());
    CHECK_NOTHROW(nlohmann::json::parse(contend::test::slurp(out2.path())));
}

TEST_CASE("annotate: a trace cut short is an error naming the file, and nothing is written", "[annotate]") {
    std::string text = "{\"traceEvents\": [\n";
    for (int i = 0; i < 10; ++i)
        text += R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )" + std::to_string(i * 100) +
                R"(, "dur": 50, "args": {"stream": 7}},)" + "\n";
    TempFile in("cut.json", text);  // no closing bracket
    LoadResult lr = loadTrace(in.path());
    REQUIRE(lr);
    TempFile out("cut-annotated.json");
    const Result<contend::Annotated> res =
        writeAnnotatedTrace(*lr.value(), contend::test::analyzeOk(lr.value(), AnalysisSettings{}), out.path());
    REQUIRE_FALSE(res.ok());
    CHECK(res.failure().kind == Failure::Kind::Malformed);
    CHECK(res.failure().file == in.path());
    CHECK(res.failure().offset >= 0);
    const std::string message = res.failure().message();
    CHECK(message.find(in.path() + ": byte ") == 0);
    CHECK(message.find("cut short") != std::string::npos);
    CHECK_FALSE(fs::exists(out.path()));
}

TEST_CASE("annotate: a real Kineto trace with NCCL keeps its events and passes the rules", "[annotate][real]") {
    if (!contend::test::haveSharedTraces()) {
        std::fprintf(stderr, "../shared/traces not found: skipped\n");
        contend::test::skipTest();
    }
    const std::string path = contend::test::sharedTraces() + "/kineto-hta/tests/data/trace_diff/test/test.json.gz";
    LoadResult lr = loadTrace(path);
    REQUIRE(lr);
    const Report r = contend::test::analyzeOk(lr.value(), AnalysisSettings{});
    TempFile out("real-annotated.json");
    const AnnotatedAndBack a = annotateAndReload(lr, r, out);
    const LoadResult& back = a.back;
    checkChromeTraceRules(nlohmann::json::parse(contend::test::slurp(out.path()))["traceEvents"],
                          findingsPidOf(*back.value()));
}
