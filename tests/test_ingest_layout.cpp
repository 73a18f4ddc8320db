// The fast paths of a large load: chunks framed in the reader's own buffer (no copy of the text)
// and slices moved into track order from per-track counts, on two threads for a large trace.
// Each test compares against what the slow way gives, so a wrong offset or a misplaced slice fails.
#include <catch2/catch.hpp>
#include <string>

#include "core/io/load.h"
#include "core/trace/trace_builder.h"
#include "test_support.h"

using namespace contend;
using contend::test::loadString;

namespace {

const ImportWarning* findWarning(const Trace& t, ImportProblem id) {
    for (const auto& w : t.stats().warnings)
        if (w.id == id) return &w;
    return nullptr;
}

}  // namespace

TEST_CASE("a chunk with invalid UTF-8 and NaN keeps both warnings whatever the chunk size", "[reader][chunks]") {
    // The UTF-8 repair must not change the chunk's text: the NaN retry reads it again and has to
    // find (and count) the same bad bytes.
    std::string json = "{\"traceEvents\": [\n";
    for (int i = 0; i < 300; ++i) {
        if (i) json += ",\n";
        std::string name = "op" + std::to_string(i % 5);
        if (i % 50 == 7) name += "\xE9t\xE9";  // Latin-1 "ete"
        const std::string ts = std::to_string(i * 10);
        if (i % 60 == 11)  // Python's json.dump of a float inf: not JSON
            json += "{\"ph\": \"C\", \"pid\": 1, \"name\": \"mem\", \"ts\": " + ts +
                    ", \"args\": {\"used\": Infinity, \"free\": 5}}";
        else
            json += "{\"ph\": \"X\", \"name\": \"" + name + "\", \"pid\": 1, \"tid\": " + std::to_string(i % 2) +
                    ", \"ts\": " + ts + ", \"dur\": 5}";
    }
    json += "\n]}";
    auto big = loadString(json, "a.json", 8u << 20);
    REQUIRE(big);
    const ImportWarning* utf8 = findWarning(*big.value(), ImportProblem::InvalidUtf8);
    const ImportWarning* nan = findWarning(*big.value(), ImportProblem::NonFiniteNumber);
    REQUIRE(utf8);
    REQUIRE(nan);
    CHECK(utf8->count == 12);  // 6 names with 2 bad bytes each
    CHECK(nan->count == 5);
    CHECK(big.value()->slices().size() == 295);
    for (std::size_t chunk : {4096u, 6000u}) {
        auto small = loadString(json, "b.json", chunk);
        REQUIRE(small);
        const ImportWarning* u = findWarning(*small.value(), ImportProblem::InvalidUtf8);
        const ImportWarning* n = findWarning(*small.value(), ImportProblem::NonFiniteNumber);
        REQUIRE(u);
        REQUIRE(n);
        CHECK(u->count == utf8->count);
        CHECK(n->count == nan->count);
        REQUIRE(small.value()->slices().size() == big.value()->slices().size());
        for (std::size_t k = 0; k < big.value()->slices().size(); ++k) {
            CHECK(small.value()->infos()[k].srcOffset == big.value()->infos()[k].srcOffset);
            CHECK(small.value()->strings().view(small.value()->slices()[k].name) ==
                  big.value()->strings().view(big.value()->slices()[k].name));
        }
    }
}

TEST_CASE("a file cut short names the same byte whatever the chunk size", "[reader][chunks]") {
    std::string json = "[";
    for (int i = 0; i < 400; ++i) {
        if (i) json += ",\n";
        json += "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(i) +
                ", \"dur\": 1, \"args\": {\"pad\": \"" + std::string(static_cast<std::size_t>(i % 37), 'x') + "\"}}";
    }
    json += ",\n{\"ph\": \"X\", \"name\": \"cut";  // the last event is cut off
    const std::string lastEnd = std::to_string(json.rfind("}},") + 2);
    for (std::size_t chunk : {4096u, 7777u, 8u << 20}) {
        auto r = loadString(json, "cut.json", chunk);
        REQUIRE(r);
        CHECK(r.value()->slices().size() == 400);
        const ImportWarning* w = findWarning(*r.value(), ImportProblem::FileTruncated);
        REQUIRE(w);
        INFO("chunk " << chunk << ": " << w->example);
        CHECK(w->example == "the events array is cut off after byte " + lastEnd);
    }
}

TEST_CASE("slices move into track order with their infos and metrics, in order or not", "[trace][finalize]") {
    // Large enough for the two-thread move; three tracks interleaved, optionally with late slices.
    for (bool shuffled : {false, true}) {
        TraceBuilder b;
        const std::uint32_t tracks[3] = {b.track("1", "a"), b.track("1", "b"), b.track("2", "c")};
        const StringId key = b.intern("m");
        const std::uint32_t n = 90'000;
        for (std::uint32_t i = 0; i < n; ++i) {
            Slice s;
            const std::uint32_t t = i % 3;
            // Within a track the start grows with i, except every 1000th slice, written late.
            s.start =
                (shuffled && i % 1000 == 999) ? static_cast<TimeNs>(i) * 10 - 50'000 : static_cast<TimeNs>(i) * 10;
            s.dur = 1;
            s.track = tracks[t];
            s.name = b.intern("op");
            SliceInfo info;
            info.srcOffset = i;  // who it was, to check after the move
            info.correlation = static_cast<std::int64_t>(i) * 7;
            const std::uint32_t at = b.addSlice(s, info);
            b.addMetric(at, key, static_cast<float>(i % 1024));
        }
        TracePtr t = b.finalize();
        INFO("shuffled " << shuffled);
        REQUIRE(t->slices().size() == n);
        std::uint32_t seen = 0;
        for (const Track& tr : t->tracks()) {
            for (std::uint32_t k = tr.sliceBegin; k < tr.sliceEnd; ++k) {
                const Slice& s = t->slices()[k];
                const SliceInfo& info = t->infos()[k];
                const auto i = static_cast<std::uint32_t>(info.srcOffset);
                REQUIRE(s.track == static_cast<std::uint32_t>(&tr - t->tracks().data()));
                REQUIRE(s.track == tracks[i % 3]);
                REQUIRE(info.correlation == static_cast<std::int64_t>(i) * 7);
                REQUIRE(info.metricsCount == 1);
                REQUIRE(t->metrics()[info.metricsBegin].value == static_cast<float>(i % 1024));
                if (k > tr.sliceBegin) REQUIRE(t->slices()[k - 1].start <= s.start);
                ++seen;
            }
        }
        CHECK(seen == n);
    }
}
