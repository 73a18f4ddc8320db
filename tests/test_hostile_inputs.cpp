// Hostile shapes (issue 7): inputs someone crafted or another tool mangled. Each either loads
// what is sane - with a warning that says what was dropped or cut - or fails with a message
// naming the file; none crashes, hangs or holds memory out of proportion to what it keeps.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/inputs/overlap.h"
#include "core/io/load.h"
#include "core/io/memory_budget.h"
#include "core/io/text/csv.h"
#include "core/io/text/utf8.h"
#include "core/report/single/report_json.h"
#include "core/trace/trace_builder.h"
#include "test_support.h"

using namespace contend;
using contend::test::loadString;
using contend::test::TempFile;

namespace {

const ImportWarning* warningOf(const Trace& t, const std::string& kind) {
    for (const auto& w : t.stats().warnings)
        if (w.kind.find(kind) != std::string::npos) return &w;
    return nullptr;
}

std::string x(const std::string& name, const std::string& ts, const std::string& dur, const std::string& tid = "1") {
    return R"({"ph": "X", "pid": 1, "tid": )" + tid + R"(, "name": ")" + name + R"(", "ts": )" + ts + R"(, "dur": )" +
           dur + "}";
}

std::string trace(const std::vector<std::string>& events) {
    std::string j = "{\"traceEvents\": [";
    for (std::size_t i = 0; i < events.size(); ++i) j += (i ? ",\n" : "\n") + events[i];
    return j + "\n]}";
}

bool allNamesAreUtf8(const Trace& t) {
    for (const Slice& s : t.slices()) {
        const std::string_view v = t.str(s.name);
        if (!isValidUtf8(v.data(), v.size())) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("UTF-8 repair replaces exactly the bytes that are not UTF-8", "[hostile][utf8]") {
    struct Row {
        std::string in, out;
        std::size_t replaced;
    };
    const std::vector<Row> rows = {
        {"plain ascii", "plain ascii", 0},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
         0},  // 2-, 3-, 4-byte
        {"latin1 caf\xe9", "latin1 caf?", 1},
        {"stray \x80\xbf continuation", "stray ?? continuation", 2},
        {"cut \xe2\x82", "cut ??", 2},                    // a 3-byte sequence cut after 2
        {"overlong \xc0\xaf", "overlong ??", 2},          // '/' written in two bytes
        {"surrogate \xed\xa0\x80", "surrogate ???", 3},   // U+D800
        {"too big \xf4\x90\x80\x80", "too big ????", 4},  // above U+10FFFF
        {"\xff\xfe", "??", 2},
    };
    for (const Row& r : rows) {
        std::string s = r.in;
        std::size_t first = 12345;
        const std::size_t n = repairUtf8(s.data(), s.size(), &first);
        INFO(r.in);
        CHECK(n == r.replaced);
        CHECK(s == r.out);
        CHECK(isValidUtf8(s.data(), s.size()));
        CHECK(isValidUtf8(r.in.data(), r.in.size()) == (r.replaced == 0));
        if (n)
            CHECK(r.in[first] != s[first]);
        else
            CHECK(first == 12345);
    }
}

TEST_CASE("invalid UTF-8 in names costs those bytes, not the trace", "[hostile][utf8]") {
    const std::string json = trace({x("latin1 caf\xe9", "1", "2"), x("ok", "5", "2"), x("cut \xe2\x82", "9", "1")});
    auto r = loadString(json, "latin1.json");
    REQUIRE(r);
    REQUIRE(r.value()->slices().size() == 3);
    CHECK(allNamesAreUtf8(*r.value()));
    CHECK(r.value()->str(r.value()->slices()[0].name) == "latin1 caf?");
    const ImportWarning* w = warningOf(*r.value(), "invalid UTF-8");
    REQUIRE(w);
    CHECK(w->count == 3);
    CHECK(w->example == "byte " + std::to_string(json.find('\xe9')));
    // And what Contend writes from it is valid JSON again.
    Report report = contend::test::analyzeOk(r.value(), AnalysisSettings{});
    CHECK_NOTHROW(nlohmann::json::parse(jsonText(reportToJson(report, *r.value()))));
}

TEST_CASE("invalid UTF-8 in a CSV side file is replaced and counted", "[hostile][utf8][csv]") {
    CsvTable t;
    REQUIRE_FALSE(parseCsv("Name,Value\nconv\xe9,1\nok,2\n", "kernel_details.csv", t));
    REQUIRE(t.rows() == 2);
    CHECK(t.cell(0, 0) == "conv?");
    CHECK(t.invalidUtf8Bytes() == 1);
    CHECK(t.firstInvalidUtf8() == 15);
}

TEST_CASE("a 100 MB name is cut to 64 KiB with a warning, a 100 MB arg is skipped", "[hostile][big]") {
    const std::string big(100u << 20, 'n');
    const std::string json =
        trace({x(big, "1", "2"),
               R"({"ph": "X", "pid": 1, "tid": 1, "name": "ok", "ts": 5, "dur": 2, "args": {"s": ")" + big + "\"}}"});
    auto r = loadString(json, "bigname.json");
    REQUIRE(r);
    REQUIRE(r.value()->slices().size() == 2);
    const std::string_view name = r.value()->str(r.value()->slices()[0].name);
    CHECK(name.size() == TraceBuilder::kMaxStringBytes + 3);
    CHECK(name.substr(name.size() - 3) == "...");
    CHECK(r.value()->str(r.value()->slices()[1].name) == "ok");
    const ImportWarning* w = warningOf(*r.value(), "longer than 64 KiB");
    REQUIRE(w);
    CHECK_THAT(w->example, Catch::Contains(std::to_string(big.size()) + " bytes"));
    // The model holds the cut name, not the text it came from.
    CHECK(r.value()->stats().modelBytes < (4u << 20));
}

TEST_CASE("a long name is cut on a UTF-8 boundary", "[hostile][big][utf8]") {
    std::string name(TraceBuilder::kMaxStringBytes - 1, 'a');
    name += "\xe2\x82\xac\xe2\x82\xac";  // a 3-byte character straddles the limit
    TraceBuilder b;
    const StringId id = b.intern(name);
    const std::string_view kept = b.str(id);
    CHECK(kept.size() == TraceBuilder::kMaxStringBytes - 1 + 3);
    CHECK(isValidUtf8(kept.data(), kept.size()));
}

TEST_CASE("times that would overflow are dropped with a warning, what is left has a sane span", "[hostile][time]") {
    const std::string json = trace({
        x("far future", "1e30", "1"),
        x("year 2255", "9e15", "5"),
        x("int64 edge", "9223372036854775", "1"),
        x("before 1933", "-2e15", "1"),
        x("dur 1e18", "10", "1e18"),
        x("dur 1e13 us", "10", "1e13"),
        x("ts NaN", "NaN", "1"),
        x("dur Infinity", "20", "Infinity"),
        x("ok", "100", "5"),
        x("year 2024", "1736412474730135.222", "3", "2"),
    });
    auto r = loadString(json, "far.json");
    REQUIRE(r);
    const Trace& t = *r.value();
    std::vector<std::string> names;
    for (const Slice& s : t.slices()) names.emplace_back(t.str(s.name));
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"ok", "year 2024"});
    const ImportWarning* ts = warningOf(t, "ts out of range");
    REQUIRE(ts);
    CHECK(ts->count == 4);
    const ImportWarning* dur = warningOf(t, "dur out of range");
    REQUIRE(dur);
    CHECK(dur->count == 2);
    CHECK(warningOf(t, "ts is not a number"));
    CHECK(warningOf(t, "dur is not a number"));
    CHECK(t.end() >= t.begin());
    CHECK(t.end() - t.begin() == 1736412474730138222 - 100000);
}

TEST_CASE("a base time that would overflow is ignored with a warning", "[hostile][time]") {
    auto r = loadString(R"({"baseTimeNanoseconds": 9000000000000000000, "traceEvents": [
        {"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1, "dur": 1}]})",
                        "base.json");
    REQUIRE(r);
    CHECK(warningOf(*r.value(), "baseTimeNanoseconds out of range"));
    REQUIRE(r.value()->slices().size() == 1);
    CHECK(r.value()->slices()[0].start == 1000);
}

TEST_CASE("NaN and Infinity: the event they break is dropped, the rest loads", "[hostile][nan]") {
    // Python's json.dump writes NaN for a float nan; it is not JSON, so simdjson rejects it.
    // In ts or dur it costs the event (with a warning); inside args the event still loads.
    const std::string json =
        trace({x("a", "1", "2"),
               R"({"ph": "X", "pid": 1, "tid": 1, "name": "nan arg", "ts": 7, "dur": 1, "args": {"v": NaN}})",
               R"({"ph": "C", "pid": 1, "name": "mem", "ts": 9, "args": {"used": Infinity, "free": 5}})",
               x("ts nan", "NaN", "1")});
    auto r = loadString(json, "nan.json");
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    CHECK(r.value()->slices().size() == 2);
    CHECK(warningOf(*r.value(), "ts is not a number"));
    const ImportWarning* w = warningOf(*r.value(), "NaN or Infinity");
    REQUIRE(w);
    CHECK(w->count == 3);
    for (const auto& c : r.value()->counters())
        for (double v : c.values) CHECK(std::isfinite(v));
}

TEST_CASE("duplicate keys: the last one wins, as in JSON.parse and Python", "[hostile][duplicate]") {
    auto r = loadString(R"({"traceEvents": [
        {"ph": "X", "pid": 1, "tid": 1, "name": "first", "name": "last", "ts": 1, "ts": 3, "dur": 9, "dur": 2}]})",
                        "dup.json");
    REQUIRE(r);
    REQUIRE(r.value()->slices().size() == 1);
    const Slice& s = r.value()->slices()[0];
    CHECK(r.value()->str(s.name) == "last");
    CHECK(s.start == 3000);
    CHECK(s.dur == 2000);
}

TEST_CASE("millions of tiny events on one track load in bounded memory", "[hostile][many]") {
    const int n = 2'000'000;
    std::string json = "{\"traceEvents\": [";
    json.reserve(static_cast<std::size_t>(n) * 60);
    for (int i = 0; i < n; ++i) {
        if (i) json += ',';
        json += R"({"ph":"X","pid":1,"tid":1,"name":"a","ts":1,"dur":0})";
    }
    json += "]}";
    auto r = loadString(json, "tiny.json");
    REQUIRE(r);
    CHECK(r.value()->slices().size() == static_cast<std::size_t>(n));
    CHECK(r.value()->tracks().size() == 1);
    // The model: a 32-byte slice and its cold info per event, nothing per event beyond that.
    const double perEvent = static_cast<double>(r.value()->stats().modelBytes) / n;
    INFO("model bytes per event: " << perEvent);
    CHECK(perEvent < 160);
    CHECK(r.value()->stats().memoryBudget > 0);
}

TEST_CASE("200k calls nested inside each other stay near-linear in reader and analysis", "[hostile][nesting]") {
    // One call stack as deep as the trace: the overlap sweep once walked the whole stack per
    // operator (78 s here); the timeline and the analysis must not.
    const int n = 200'000;
    std::string json = "{\"traceEvents\": [";
    for (int i = 0; i < n; ++i) {
        if (i) json += ',';
        json += x("n" + std::to_string(i % 7), std::to_string(i), std::to_string(2 * n - 2 * i));
    }
    // Another thread's call when all 200k are open: 200k partners, paired with the cap.
    json += "," + x("other thread", std::to_string(n - 10), "5", "2") + "]}";
    auto r = loadString(json, "chain.json");
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    REQUIRE(r.value()->slices().size() == static_cast<std::size_t>(n) + 1);
    const OperatorSet ops = selectOperators(*r.value());
    const OverlapResult ov = findOverlaps(*r.value(), ops);
    CHECK(ov.capped);
    CHECK(ov.pairCount() <= kMaxPartners + 10);
    CHECK(ov.pairCount() > 0);
    Report report = contend::test::analyzeOk(r.value(), AnalysisSettings{});
    CHECK(report.trace.operators == static_cast<std::size_t>(n) + 1);
}

TEST_CASE("zero-length, unreadable and non-regular paths are errors naming them", "[hostile][files]") {
    TempFile empty("zero.json.empty");
    auto e = loadTrace(empty.path());
    REQUIRE_FALSE(e);
    CHECK_THAT(e.failure().message(), Catch::Contains("zero.json.empty") && Catch::Contains("empty"));

    // A file that opens but cannot be read (EIO): /proc/self/mem at offset 0.
    auto io = loadTrace("/proc/self/mem");
    REQUIRE_FALSE(io);
    CHECK_THAT(io.failure().message(), Catch::Contains("/proc/self/mem"));

    auto dir = loadTrace("/proc/self");
    REQUIRE_FALSE(dir);
    CHECK_THAT(dir.failure().message(), Catch::Contains("/proc/self"));

    auto dev = loadTrace("/dev/zero");  // endless NUL bytes: refused at the first byte
    REQUIRE_FALSE(dev);
    CHECK_THAT(dev.failure().message(), Catch::Contains("/dev/zero"));
}

TEST_CASE("a trace bigger than the memory budget stops with a message, early", "[hostile][memory]") {
    std::string json = "{\"traceEvents\": [";
    for (int i = 0; i < 200'000; ++i) {
        if (i) json += ',';
        json += x("op" + std::to_string(i % 50), std::to_string(i * 10), "5", std::to_string(i % 4));
    }
    json += "]}";
    TempFile file("budget.json", json);
    LoadOptions o;
    o.chunkBytes = 256u << 10;
    o.memoryLimitBytes = 4u << 20;  // far less than 200k slices need
    auto r = loadTrace(file.path(), o);
    REQUIRE_FALSE(r);
    REQUIRE(!r.ok());
    const std::string m = r.failure().message();
    INFO(m);
    CHECK_THAT(
        m, Catch::Contains("budget.json") && Catch::Contains("not enough memory") && Catch::Contains("--max-memory"));
    CHECK(r.failure().kind == Failure::Kind::OutOfMemory);  // what callers decide by, not the text
    // Said so from the density of the first part, not at the end.
    const auto at = m.find("stopped at byte ");
    REQUIRE(at != std::string::npos);
    const std::uint64_t stoppedAt = std::stoull(m.substr(at + 16));
    INFO("file " << json.size() << " bytes, stopped at " << stoppedAt);
    CHECK(stoppedAt < json.size() / 2);

    o.memoryLimitBytes = kNoMemoryLimit;
    auto ok = loadTrace(file.path(), o);
    REQUIRE(ok);
    CHECK(ok.value()->slices().size() == 200'000);
    CHECK(ok.value()->stats().memoryBudget == 0);
}

TEST_CASE("memory sizes parse as users type them", "[hostile][memory]") {
    CHECK(parseMemorySize("512M") == std::uint64_t{512} << 20);
    CHECK(parseMemorySize("4G") == std::uint64_t{4} << 30);
    CHECK(parseMemorySize("1.5gib") == std::uint64_t{3} << 29);
    CHECK(parseMemorySize("2048") == std::uint64_t{2} << 30);
    CHECK(parseMemorySize("0") == kNoMemoryLimit);
    CHECK(parseMemorySize("none") == kNoMemoryLimit);
    CHECK_FALSE(parseMemorySize("lots"));
    CHECK_FALSE(parseMemorySize("-1G"));
    CHECK_FALSE(parseMemorySize("4X"));
    CHECK(availableMemoryBytes().value_or(1) > 0);
}

TEST_CASE("cancel is asked once per chunk and stops the load", "[hostile][cancel]") {
    std::string json = "{\"traceEvents\": [";
    for (int i = 0; i < 100'000; ++i) {
        if (i) json += ',';
        json += x("op", std::to_string(i * 10), "5");
    }
    json += "]}";
    LoadOptions o;
    o.chunkBytes = 256u << 10;
    int calls = 0;
    o.progress = [&](double) {
        ++calls;
        return true;
    };
    REQUIRE(loadTraceFromMemory(json, "cancel.json", o));
    // Asked at least once per chunk: a cancel waits for at most the chunks in flight.
    CHECK(calls >= static_cast<int>(json.size() / o.chunkBytes));

    int asked = 0;
    o.progress = [&](double) { return ++asked < 3; };
    auto r = loadTraceFromMemory(json, "cancel.json", o);
    CHECK_FALSE(r);
    CHECK(r.cancelled());
    REQUIRE(!r.ok());
    CHECK(r.failure().kind == Failure::Kind::Cancelled);
    CHECK(asked == 3);

    // From another thread, as the app's Cancel button does.
    std::atomic<bool> cancel{false};
    o.progress = [&](double) { return !cancel.load(); };
    std::thread t([&] { cancel = true; });
    auto r2 = loadTraceFromMemory(json, "cancel.json", o);
    t.join();
    CHECK((r2.cancelled() || r2.ok()));  // either way: no crash, no half-built trace
    CHECK(r2.cancelled() == !r2.ok());
    if (r2.ok()) CHECK(r2.ok());
}

TEST_CASE("cancel stops the analysis between and inside its stages", "[hostile][cancel]") {
    std::string json = "{\"traceEvents\": [";
    for (int i = 0; i < 150'000; ++i) {
        if (i) json += ',';
        json += R"({"ph":"X","cat":"kernel","pid":0,"tid":)" + std::to_string(7 + i % 3) + R"(,"name":"k)" +
                std::to_string(i % 5) + R"(","ts":)" + std::to_string(i * 3) + R"(,"dur":)" +
                std::to_string(4 + i % 5) + "}";
    }
    json += "]}";
    auto r = loadString(json, "kernels.json");
    REQUIRE(r);
    int checks = 0;
    auto counting = [&] { return ++checks > 0; };
    REQUIRE(prepareAnalysis(r.value(), AnalysisSettings{}, counting));
    // Between every stage, and every 64k operators inside the long ones.
    CHECK(checks >= 15);
    for (int stopAt : {1, 3, 8, checks}) {
        int n = 0;
        auto p = prepareAnalysis(r.value(), AnalysisSettings{}, [&] { return ++n < stopAt; });
        INFO("stop at check " << stopAt);
        REQUIRE_FALSE(p);
        CHECK(p.cancelled());
        CHECK(p.failure().kind == Failure::Kind::Cancelled);
        CHECK(p.failure().message() == "cancelled");
        CHECK(n >= stopAt);
        CHECK(n <= stopAt + 1);  // a stage that stopped inside is asked once more after it
    }
}

TEST_CASE("one event larger than the memory budget allows is refused before it is buffered", "[hostile][memory][big]") {
    const std::string json = trace({x(std::string(40u << 20, 'n'), "1", "2"), x("ok", "5", "2")});
    TempFile file("hugeevent.json", json);
    LoadOptions o;
    o.memoryLimitBytes = 64u << 20;
    auto r = loadTrace(file.path(), o);
    REQUIRE_FALSE(r);
    INFO(r.failure().message());
    CHECK_THAT(r.failure().message(), Catch::Contains("hugeevent.json") && Catch::Contains("the event at byte") &&
                                          Catch::Contains("not enough memory"));
    o.memoryLimitBytes = 1u << 30;
    CHECK(loadTrace(file.path(), o));
}

TEST_CASE("made-up phase names are counted in a bounded table", "[hostile][many]") {
    std::string json = "{\"traceEvents\": [";
    for (int i = 0; i < 5000; ++i) {
        if (i) json += ',';
        json += R"({"ph": "p)" + std::to_string(i) + std::string(i % 3 ? 0 : 40, 'z') + R"(", "pid": 1, "ts": 1})";
    }
    json += "," + x("ok", "1", "2") + "]}";
    auto r = loadString(json, "phases.json", 64u << 10);
    REQUIRE(r);
    const auto& phases = r.value()->stats().phases;
    CHECK(phases.size() <= 66);
    std::uint64_t total = 0;
    for (const auto& [ph, n] : phases) total += n;
    CHECK(total == 5001);
    CHECK(phases.count("(other)"));
}

TEST_CASE("CONTEND_MAX_MEMORY sets the default budget, an explicit limit wins", "[hostile][memory]") {
    ::setenv("CONTEND_MAX_MEMORY", "3G", 1);
    CHECK(effectiveMemoryBudget(LoadOptions{}) == std::uint64_t{3} << 30);
    LoadOptions explicitLimit;
    explicitLimit.memoryLimitBytes = 5u << 20;
    CHECK(effectiveMemoryBudget(explicitLimit) == 5u << 20);
    ::setenv("CONTEND_MAX_MEMORY", "0", 1);
    CHECK(effectiveMemoryBudget(LoadOptions{}) == kNoMemoryLimit);
    ::setenv("CONTEND_MAX_MEMORY", "plenty", 1);  // not a size: ignored
    CHECK_FALSE(memoryLimitFromEnvironment());
    ::unsetenv("CONTEND_MAX_MEMORY");
    CHECK_FALSE(memoryLimitFromEnvironment());
    const auto avail = availableMemoryBytes();
    if (avail) CHECK(effectiveMemoryBudget(LoadOptions{}) <= *avail);
}
