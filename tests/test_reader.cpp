// Readers on small inline traces: every phase type, ts as number/string/float, base time,
// B/E nesting and mismatches, counters with several keys and ids, flows.
#include <catch2/catch.hpp>

#include "core/io/load.h"
#include "core/io/text/decimal.h"
#include "core/trace/conventions.h"
#include "test_support.h"

using namespace contend;
using contend::test::loadString;

namespace {
const Track* findTrack(const Trace& t, const std::string& pid, const std::string& tid) {
    for (const auto& tr : t.tracks())
        if (tr.pid == pid && tr.tid == tid) return &tr;
    return nullptr;
}
}  // namespace

TEST_CASE("microsecond text converts to exact nanoseconds", "[reader][decimal]") {
    CHECK(parseMicrosToNs("12") == 12000);
    CHECK(parseMicrosToNs("1699.123") == 1699123);
    CHECK(parseMicrosToNs("1736412474730135.222") == 1736412474730135222LL);
    CHECK(parseMicrosToNs("4458676522690.655") == 4458676522690655LL);
    CHECK(parseMicrosToNs("1.0005") == 1001);                                   // rounds half up at the 4th digit
    CHECK(parseMicrosToNs("1736405443881410.320\t") == 1736405443881410320LL);  // Ascend CSV tab
    CHECK(parseMicrosToNs("-3.5") == -3500);
    CHECK(parseMicrosToNs("1.69512E+15") == 1695120000000000000LL);
    CHECK_FALSE(parseMicrosToNs(""));
    CHECK_FALSE(parseMicrosToNs("abc"));
    CHECK_FALSE(parseMicrosToNs("N/A"));
    CHECK_FALSE(parseMicrosToNs("NaN"));
    CHECK_FALSE(parseMicrosToNs("1e300"));
    CHECK_FALSE(parseMicrosToNs("99999999999999999999"));
}

TEST_CASE("a Kineto object trace loads with tracks, kernels, launches and flows", "[reader][kineto]") {
    const std::string json = R"J({
  "schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "X"}],
  "traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
  {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"ph": "M", "name": "process_name", "pid": 42, "tid": 0, "args": {"name": "python3"}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 42, "tid": 42, "ts": 100, "dur": 50, "args": {"Input Dims": [[1, 3], [8]]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 42, "tid": 42, "ts": 110.5, "dur": 5, "args": {"correlation": 9, "External id": 3}},
  {"ph": "X", "cat": "kernel", "name": "conv_fwd", "pid": 0, "tid": 7, "ts": 120.25, "dur": 30.125,
   "args": {"External id": 3, "device": 0, "stream": 7, "correlation": 9, "grid": [64, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 50}},
  {"ph": "s", "id": 9, "pid": 42, "tid": 42, "ts": 110.5, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 9, "pid": 0, "tid": 7, "ts": 120.25, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 42, "tid": 42, "ts": 111, "s": "t"}
  ],
  "traceName": "x.json"
})J";
    auto r = loadString(json);
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "kineto");
    CHECK(t.stats().events == 9);
    CHECK(t.stats().phases.at("X") == 3);
    CHECK(t.stats().phases.at("M") == 3);
    CHECK(t.stats().phases.at("s") == 1);
    CHECK(t.stats().phases.at("f") == 1);
    CHECK(t.stats().phases.at("i") == 1);
    CHECK(t.stats().warnings.empty());
    REQUIRE(t.slices().size() == 4);
    const Track* gpu = findTrack(t, "0", "7");
    REQUIRE(gpu);
    CHECK(gpu->kind == TrackKind::DeviceStream);
    CHECK(gpu->label() == "GPU 0 / stream 7");
    REQUIRE(gpu->size() == 1);
    const std::uint32_t k = gpu->sliceBegin;
    const Slice& kernel = t.slices()[k];
    CHECK(t.str(kernel.name) == "conv_fwd");
    CHECK(kernel.start == 120250);
    CHECK(kernel.dur == 30125);
    CHECK(kernel.is(kSliceDevice));
    const SliceInfo& info = t.infos()[k];
    CHECK(info.stream == 7);
    CHECK(info.device == 0);
    CHECK(info.correlation == 9);
    CHECK(info.externalId == 3);
    CHECK(t.str(info.shape) == "grid=[64, 1, 1] block=[256, 1, 1]");
    CHECK(t.metric(k, "est. achieved occupancy %") == Approx(50));
    REQUIRE(info.launch != kNone);
    CHECK(t.str(t.slices()[info.launch].name) == "cudaLaunchKernel");
    REQUIRE(t.flows().size() == 1);
    CHECK(t.flows()[0].to == k);
    CHECK(t.flows()[0].from == info.launch);
    const Track* host = findTrack(t, "42", "42");
    REQUIRE(host);
    CHECK(host->kind == TrackKind::HostThread);
    CHECK(t.trackOrder().front() == static_cast<std::uint32_t>(gpu - t.tracks().data()));
    // The original args stay in the file, reachable on demand.
    CHECK(t.infos()[k].srcOffset > 0);
}

TEST_CASE("baseTimeNanoseconds is added and displayTimeUnit does not change the unit", "[reader][kineto]") {
    const std::string json = R"J({"displayTimeUnit": "ms", "traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 4458676522690.655, "dur": 1.5}
    ], "baseTimeNanoseconds": 1700000000000000000})J";
    auto r = loadString(json);
    REQUIRE(r);
    REQUIRE(r.value()->slices().size() == 1);
    CHECK(r.value()->slices()[0].start == 1700000000000000000LL + 4458676522690655LL);
    CHECK(r.value()->slices()[0].dur == 1500);
    CHECK(r.value()->displayTimeUnit() == "ms");
}

TEST_CASE("Ascend string timestamps and NPU task args", "[reader][ascend]") {
    const std::string json = R"J([
      {"name": "process_name", "pid": 1000, "tid": 0, "ph": "M", "args": {"name": "Ascend Hardware"}},
      {"name": "thread_name", "pid": 1000, "tid": 2, "ph": "M", "args": {"name": "Stream 2"}},
      {"name": "MatMul", "pid": 1000, "tid": 2, "ts": "1736412474730135.222", "dur": 12.5, "ph": "X",
       "args": {"Model Id": 4294967295, "Task Type": "AI_CORE", "Physic Stream Id": 2, "Task Id": 17, "connection_id": 88}},
      {"name": "EVENT_WAIT", "pid": 1000, "tid": 2, "ts": "1736412474730150.000", "dur": 100, "ph": "X",
       "args": {"Task Type": "EVENT_WAIT_SQE", "Physic Stream Id": 2, "Task Id": 18}},
      {"name": "HBM 0/Read", "pid": 2000, "tid": 0, "ts": "1736412474730100.000", "ph": "C", "args": {"Read(MB/s)": 1024.5}},
      {"name": "read_bandwidth", "pid": 2000, "tid": 0, "ts": "1736412474730100.000", "ph": "C", "args": {"value": 3, "acc_id": 1}},
      {"name": "read_bandwidth", "pid": 2000, "tid": 0, "ts": "1736412474730101.000", "ph": "C", "args": {"value": 4, "acc_id": 2}}
    ])J";
    auto r = loadString(json, "trace_view.json");
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "ascend");
    const Track* s2 = findTrack(t, "1000", "2");
    REQUIRE(s2);
    CHECK(s2->kind == TrackKind::DeviceStream);
    CHECK(s2->label() == "Ascend Hardware / Stream 2");
    REQUIRE(s2->size() == 2);
    const Slice& mm = t.slices()[s2->sliceBegin];
    CHECK(mm.start == 1736412474730135222LL);
    CHECK(mm.dur == 12500);
    CHECK(mm.is(kSliceDevice));
    CHECK_FALSE(mm.is(kSliceWait));
    CHECK(t.infos()[s2->sliceBegin].taskId == 17);
    CHECK(t.infos()[s2->sliceBegin].stream == 2);
    CHECK(t.infos()[s2->sliceBegin].correlation == 88);
    CHECK(t.str(t.infos()[s2->sliceBegin].taskType) == "AI_CORE");
    CHECK(t.slices()[s2->sliceBegin + 1].is(kSliceWait));
    // Counters: one series per (name, key, id); acc_id is an instance id, not a series.
    REQUIRE(t.counters().size() == 3);
    const CounterSeries* hbm = nullptr;
    int rb = 0;
    for (const auto& c : t.counters()) {
        if (c.name == "HBM 0/Read") hbm = &c;
        if (c.name == "read_bandwidth") {
            ++rb;
            CHECK(c.key == "value");
            CHECK((c.id == "1" || c.id == "2"));
        }
    }
    REQUIRE(hbm);
    CHECK(hbm->unit == "MB/s");
    CHECK(hbm->values.at(0) == Approx(1024.5));
    CHECK(rb == 2);
}

TEST_CASE("B/E pairs nest, and mismatches are counted as warnings", "[reader][chrome]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 10},
      {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 12},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 15},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 20},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 25},
      {"ph": "B", "name": "never closed", "pid": 1, "tid": 2, "ts": 30}
    ]})J";
    auto r = loadString(json);
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "chrome");
    const Track* tr = findTrack(t, "1", "1");
    REQUIRE(tr);
    REQUIRE(tr->size() == 2);
    const Slice& outer = t.slices()[tr->sliceBegin];
    const Slice& inner = t.slices()[tr->sliceBegin + 1];
    CHECK(t.str(outer.name) == "outer");
    CHECK(outer.dur == 10000);
    CHECK(outer.depth == 0);
    CHECK(t.str(inner.name) == "inner");
    CHECK(inner.dur == 3000);
    CHECK(inner.depth == 1);
    CHECK(tr->maxDepth == 1);
    int unmatchedE = 0, unmatchedB = 0;
    for (const auto& w : t.stats().warnings) {
        if (w.kind.find("unmatched E") != std::string::npos) unmatchedE = static_cast<int>(w.count);
        if (w.kind.find("unmatched B") != std::string::npos) unmatchedB = static_cast<int>(w.count);
    }
    CHECK(unmatchedE == 1);
    CHECK(unmatchedB == 1);
}

TEST_CASE("counters with several keys and ids become separate sorted series", "[reader][chrome]") {
    const std::string json = R"J([
      {"ph": "C", "name": "SurfacePool", "pid": 1, "ts": 20, "args": {"a": 1, "b": 2}},
      {"ph": "C", "name": "SurfacePool", "pid": 1, "ts": 10, "args": {"a": 3, "b": 4}},
      {"ph": "C", "name": "mem", "id": "0x1", "pid": 1, "ts": 10, "args": {"bytes": 5}},
      {"ph": "C", "name": "mem", "id": "0x2", "pid": 1, "ts": 10, "args": {"bytes": 6}}
    ])J";
    auto r = loadString(json);
    REQUIRE(r);
    const Trace& t = *r.value();
    REQUIRE(t.counters().size() == 4);
    for (const auto& c : t.counters()) {
        if (c.name == "SurfacePool" && c.key == "a") {
            REQUIRE(c.times.size() == 2);
            CHECK(c.times[0] == 10000);
            CHECK(c.values[0] == 3);
            CHECK(c.valueAt(15000) == 3);
            CHECK(c.valueAt(25000) == 1);
        }
        if (c.name == "mem") CHECK(c.unit == "bytes");
    }
}

TEST_CASE("malformed events are skipped and counted by kind", "[reader][warnings]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "name": "no ts", "pid": 1, "tid": 1, "dur": 5},
      {"ph": "X", "name": "bad ts", "pid": 1, "tid": 1, "ts": [1], "dur": 5},
      {"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": 1, "dur": -5},
      {"ph": "X", "name": "huge", "pid": 1, "tid": 1, "ts": 1, "dur": 1e18},
      {"ph": "X", "name": "no dur", "pid": 1, "tid": 1, "ts": 1},
      {"name": "no ph", "pid": 1, "tid": 1, "ts": 1},
      42,
      {"ph": "X", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 2}
    ]})J";
    auto r = loadString(json);
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(t.stats().events == 8);
    REQUIRE(t.slices().size() == 1);
    CHECK(t.str(t.slices()[0].name) == "ok");
    std::map<std::string, std::uint64_t> w;
    for (const auto& x : t.stats().warnings) w[x.kind] = x.count;
    CHECK(w["missing ts"] == 1);
    CHECK(w.count("ts is not a number") == 1);
    CHECK(w["negative dur"] == 1);
    CHECK(w["dur out of range"] == 1);
    CHECK(w["X event without dur"] == 1);
    CHECK(w["event without \"ph\""] == 1);
    CHECK(w["event is not an object"] == 1);
}

TEST_CASE("chunk boundaries do not change what is read", "[reader][chunks]") {
    // Many events, names with tricky text (braces, commas, quotes), read with tiny chunks.
    std::string json = "{\"traceEvents\": [\n";
    for (int i = 0; i < 500; ++i) {
        if (i) json += ",\n";
        json += "  {\"ph\": \"X\", \"name\": \"op}, {\\\"x\\\" " + std::to_string(i % 7) +
                "\", \"pid\": 1, \"tid\": " + std::to_string(i % 3) + ", \"ts\": " + std::to_string(i * 10) +
                ", \"dur\": 5, \"args\": {\"k\": [{\"a\": 1}, {\"b\": \"}, {\\\"\"}]}}";
    }
    json += "\n], \"systemTraceEvents\": {\"events\": [{\"x\": 1}, {\"y\": \"}, {\\\"\"}]}, \"traceName\": \"t\"}";
    auto big = loadString(json, "a.json", 8u << 20);
    REQUIRE(big);
    for (std::size_t chunk : {4096u, 5000u, 9999u}) {
        auto small = loadString(json, "b.json", chunk);
        REQUIRE(small);
        CHECK(small.value()->stats().events == 500);
        CHECK(small.value()->slices().size() == big.value()->slices().size());
        CHECK(small.value()->strings().size() == big.value()->strings().size());
        CHECK(small.value()->stats().warnings.size() == 0);
        for (std::size_t k = 0; k < big.value()->slices().size(); ++k) {
            CHECK(small.value()->slices()[k].start == big.value()->slices()[k].start);
            CHECK(small.value()->infos()[k].srcOffset == big.value()->infos()[k].srcOffset);
        }
    }
}

TEST_CASE("visible-range lookups on the edges", "[trace][range]") {
    SECTION("empty trace") {
        auto r = loadString("[]");
        REQUIRE(r);
        CHECK(r.value()->tracks().empty());
        CHECK(r.value()->visibleRange(0, 0, 100).first == r.value()->visibleRange(0, 0, 100).second);
    }
    const std::string json = R"J([
      {"ph": "X", "name": "long", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
      {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
      {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 50, "dur": 5},
      {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 200, "dur": 5}
    ])J";
    auto r = loadString(json);
    REQUIRE(r);
    const Trace& t = *r.value();
    auto count = [&](TimeNs a, TimeNs b) {
        auto [lo, hi] = t.visibleRange(0, a, b);
        int n = 0;
        for (auto k = lo; k < hi; ++k)
            if (t.slices()[k].end() > a) ++n;
        return n;
    };
    CHECK(count(60'000, 70'000) == 1);  // only the long one, which started before the range
    CHECK(count(0, 1'000'000) == 4);
    CHECK(count(300'000, 400'000) == 0);  // after the data
    CHECK(count(-100'000, -1) == 0);      // before the data
    CHECK(count(10'000, 10'001) == 2);    // a starts exactly at t0
    CHECK(count(15'000, 50'000) == 1);    // a ends at t0 (excluded), b starts at t1 (excluded)
    SECTION("one event") {
        auto one = loadString(R"J([{"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 5, "dur": 1}])J");
        REQUIRE(one);
        auto [lo, hi] = one.value()->visibleRange(0, 0, 10'000);
        CHECK(hi - lo == 1);
        auto [lo2, hi2] = one.value()->visibleRange(0, 7'000, 10'000);
        CHECK(((hi2 - lo2 == 0) || one.value()->slices()[lo2].end() <= 7'000));
    }
}
