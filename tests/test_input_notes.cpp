// Partial and damaged inputs are part of the verdict (issue 28): finalize's check of one operator
// at a time per stream, the baselines that leave overlapping operators out, the truncated-input,
// damaged-input and stream-overlap notes, analyze's first lines and --strict, compare's partial
// side and cluster's partial rank.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "analyze_support.h"
#include "core/io/load.h"
#include "core/trace/time_format.h"
#include "core/trace/trace_builder.h"
#include "json_schema_check.h"
#include "test_support.h"

using namespace contend;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::uint64_t count(const Trace& t, ImportProblem p) {
    std::uint64_t n = 0;
    for (const auto& w : t.stats().warnings)
        if (w.id == p) n += w.count;
    return n;
}

const ReportNote* note(const Report& r, const char* kind) {
    for (const ReportNote& n : r.notes)
        if (n.kind == kind) return &n;
    return nullptr;
}

std::string kernel(double tsUs, double durUs, const char* name = "k", int stream = 7) {
    return std::string(R"({"ph":"X","cat":"kernel","name":")") + name + R"(","pid":0,"tid":)" + std::to_string(stream) +
           R"(,"ts":)" + std::to_string(tsUs) + R"(,"dur":)" + std::to_string(durUs) + "}";
}

// A Kineto-shaped trace of `steps` ProfilerStep#N, each with `perStep` kernels of 10 us on one
// stream, its events one per line (so a cut keeps whole events).
std::string steppedTrace(int steps, int perStep) {
    std::string s = "{\"traceEvents\":[\n";
    bool first = true;
    auto add = [&](const std::string& e) {
        s += (first ? "" : ",\n") + e;
        first = false;
    };
    for (int st = 0; st < steps; ++st) {
        const double t0 = 1000.0 * st;
        add(R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(st) +
            R"(","pid":1,"tid":1,"ts":)" + std::to_string(t0) + R"(,"dur":900})");
        for (int k = 0; k < perStep; ++k) add(kernel(t0 + 20.0 * k, 10, k % 2 ? "a" : "b"));
    }
    return s + "\n]}\n";
}

}  // namespace

TEST_CASE("finalize counts operators at once on one stream, in any format", "[input-notes][problems]") {
    TraceBuilder b;
    const std::uint32_t dev = b.track("0", "7"), host = b.track("1", "1");
    auto add = [&](std::uint32_t track, TimeNs start, TimeNs dur, const char* name, std::uint8_t flags) {
        Slice s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.track = track;
        s.flags = flags;
        b.addSlice(s);
    };
    add(dev, 0, 100, "a", kSliceDevice);
    add(dev, 0, 100, "a", kSliceDevice);                   // a duplicate
    add(dev, 50, 100, "b", kSliceDevice);                  // an overlap
    add(dev, 300, 100, "c", kSliceDevice);                 // clean
    add(dev, 320, 10, "wait", kSliceDevice | kSliceWait);  // a wait task: not an operator
    add(dev, 500, 100, "copy", kSliceDevice | kSliceMemory);
    add(dev, 520, 100, "copy2", kSliceDevice | kSliceMemory);  // copies at once: no overlap
    add(dev, 700, 100, "d", kSliceDevice);
    add(host, 0, 100, "outer", 0);
    add(host, 10, 10, "inner", 0);  // nesting on a host thread is not an overlap
    TracePtr t = b.finalize();
    CHECK(count(*t, ImportProblem::DuplicateEvent) == 1);
    CHECK(count(*t, ImportProblem::StreamOverlap) == 1);
    std::size_t flagged = 0;
    for (const Slice& s : t->slices()) {
        flagged += s.is(kSliceOverlap);
        if (t->str(s.name) == "c" || t->str(s.name) == "d" || t->str(s.name) == "copy2")
            CHECK_FALSE(s.is(kSliceOverlap));
    }
    CHECK(flagged == 3);  // both copies of a, and b
}

TEST_CASE("operators that overlap on their stream are kept out of the baselines, with a note",
          "[input-notes][baseline]") {
    // Six runs of 100 us, and four pairs of duplicates of 500 us: with the pairs in, the median
    // would be 500 us.
    std::string s = "[";
    for (int i = 0; i < 6; ++i) s += kernel(1000.0 * i, 100) + ",";
    for (int i = 0; i < 4; ++i) s += kernel(10000.0 + 1000.0 * i, 500) + "," + kernel(10000.0 + 1000.0 * i, 500) + ",";
    s += kernel(20000, 100) + "]";
    LoadResult r = test::loadString(s);
    REQUIRE(r);
    CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == 4);
    const Report rep = test::analyzeOk(r.value());
    REQUIRE(rep.operators.size() == 1);
    CHECK(rep.operators[0].baselineNs == 100000);
    const ReportNote* n = note(rep, kStreamOverlapNote);
    REQUIRE(n);
    CHECK(n->text.find("8 device operators overlap another on their own stream") == 0);
    CHECK(rep.notes.front().kind == kStreamOverlapNote);  // the input's notes come first
}

TEST_CASE("a cut trace says what was kept and what is likely missing", "[input-notes]") {
    const std::string whole = steppedTrace(6, 40);
    LoadResult full = test::loadString(whole);
    REQUIRE(full);
    CHECK_FALSE(note(test::analyzeOk(full.value()), kTruncatedInputNote));
    // Cut in the middle of the fifth step: four whole steps and part of one are kept.
    const std::string cut = whole.substr(0, whole.find("ProfilerStep#4") + 2000);
    LoadResult r = test::loadString(cut);
    REQUIRE(r);
    REQUIRE(r.value()->stats().truncated);
    const Report rep = test::analyzeOk(r.value());
    REQUIRE_FALSE(rep.notes.empty());
    CHECK(rep.notes.front().kind == kTruncatedInputNote);
    const std::string& text = rep.notes.front().text;
    CHECK(text.find("file truncated: the events array is cut off after byte") != std::string::npos);
    CHECK(text.find(formatCount(r.value()->stats().events) + " events") != std::string::npos);
    CHECK(text.find("5 steps") != std::string::npos);
    CHECK(text.find("the last step kept (#4) holds fewer operators") != std::string::npos);
    CHECK(isPartialInputNote(rep.notes.front().kind));
    CHECK(partialInputNote(rep.notes) == &rep.notes.front());
}

TEST_CASE("events the reader dropped make a damaged-input note from 1% of those read", "[input-notes]") {
    auto withNegative = [](int bad) {
        std::string s = "[";
        for (int i = 0; i < 200; ++i) s += kernel(100.0 * i, 10) + ",";
        for (int i = 0; i < bad; ++i) s += kernel(50000.0 + 100 * i, -5) + ",";
        return s + kernel(90000, 10) + "]";
    };
    LoadResult few = test::loadString(withNegative(1));
    REQUIRE(few);
    CHECK(count(*few.value(), ImportProblem::NegativeDur) == 1);
    CHECK_FALSE(note(test::analyzeOk(few.value()), kDamagedInputNote));
    LoadResult many = test::loadString(withNegative(20));
    REQUIRE(many);
    const Report rep = test::analyzeOk(many.value());
    const ReportNote* n = note(rep, kDamagedInputNote);
    REQUIRE(n);
    CHECK(n->text.find("dropped 20 events of 221: negative dur 20 (first at byte") != std::string::npos);
}

TEST_CASE("analyze and compare say a partial input first, and --strict fails on it", "[input-notes][cli]") {
    test::TempDir dir("input-notes-cli");
    const std::string whole = steppedTrace(6, 40);
    const fs::path full = dir / "full.json", cut = dir / "cut.json";
    std::ofstream(full, std::ios::binary) << whole;
    std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.find("ProfilerStep#4") + 2000);
    const auto q = [](const fs::path& p) { return "'" + p.string() + "'"; };

    const test::CliRun plain = test::runCliCapture("analyze " + q(cut));
    CHECK(plain.code == 0);
    const std::string second = plain.out.substr(plain.out.find('\n') + 1);
    CHECK(second.rfind("PARTIAL:    The trace file was cut before its end", 0) == 0);
    CHECK(test::runCli("analyze " + q(cut) + " --strict --json " + q(dir / "cut.report.json")) == 4);
    CHECK(fs::exists(dir / "cut.report.json"));  // written before the exit code is decided
    CHECK(test::runCli("analyze " + q(full) + " --strict") == 0);

    CHECK(test::runCli("compare " + q(full) + " " + q(cut) + " --json " + q(dir / "cmp.json")) == 0);
    const json cmp = json::parse(test::slurp(dir / "cmp.json"));
    CHECK_FALSE(cmp.contains("base_partial"));
    REQUIRE(cmp.contains("new_partial"));
    CHECK(cmp["new_partial"].get<std::string>().rfind("truncated-input: ", 0) == 0);
    CHECK(cmp["summary"]["verdict"].get<std::string>().rfind("NEW rests on a partial input (truncated-input)", 0) == 0);
    CHECK(test::schemaCheck("contend.compare.schema.json").errors(cmp).empty());
    CHECK(test::runCli("compare " + q(full) + " " + q(cut) + " --strict") == 4);
    CHECK(test::runCli("compare " + q(full) + " " + q(full) + " --strict") == 0);
}

TEST_CASE("cluster marks a partial rank and says the verdict rests on it", "[input-notes][cluster]") {
    test::TempDir dir("input-notes-cluster");
    const auto q = [](const fs::path& p) { return "'" + p.string() + "'"; };
    REQUIRE(test::runCli("simulate bandwidth --ranks 3 --slow-rank 1 --seed 9 --iterations 8 --quiet --out " +
                         q(dir / "ranks")) == 0);
    fs::remove(dir / "ranks" / "cluster-truth.json");
    const std::string two = test::slurp(dir / "ranks" / "rank-02.json");
    std::ofstream(dir / "ranks" / "rank-02.json", std::ios::binary) << two.substr(0, two.size() / 2);
    REQUIRE(test::runCli("cluster " + q(dir / "ranks") + " --out " + q(dir / "c.json") + " --markdown " +
                         q(dir / "c.md")) == 0);
    const json c = json::parse(test::slurp(dir / "c.json"));
    CHECK(test::schemaCheck("contend.cluster.schema.json").errors(c).empty());
    for (const json& r : c["ranks"]) CHECK(r.contains("partial") == (r["rank"] == 2));
    REQUIRE_FALSE(c["notes"].empty());
    CHECK(c["notes"][0]["kind"] == "partial-rank");
    const std::string text = c["notes"][0]["text"];
    CHECK(text.rfind("rank 2 rests on a partial trace (truncated-input)", 0) == 0);
    CHECK(text.find("the job's verdict rests on a partial rank") != std::string::npos);
    CHECK(test::slurp(dir / "c.md").find("> **Warning (partial rank):** rank 2") != std::string::npos);
}
