// TraceBuilder::absorb merges the JSON reader's parsed chunks into one trace. Past the room the
// reader reserves up front (a guess from the file's size) the slices grow by doubling: room for
// exactly one more chunk each time copied every slice so far on every chunk, quadratic in the
// file (4M events of 62 bytes: 2.8 s to load instead of 1.0). The merged trace keeps every
// chunk's slices, names and tracks.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "core/trace/trace_builder.h"

using namespace contend;

TEST_CASE("absorbing chunks grows the slices by doubling and keeps every chunk's slices", "[trace][builder]") {
    TraceBuilder all;
    all.reserve(100);
    std::size_t capacity = all.sliceCapacity(), grew = 0;
    constexpr int kChunks = 200, kPer = 50;
    for (int c = 0; c < kChunks; ++c) {
        TraceBuilder part;
        const std::uint32_t track = part.track("1", std::to_string(c % 3));
        for (int i = 0; i < kPer; ++i) {
            Slice s;
            s.start = 10 * (c * kPer + i);
            s.dur = 5;
            s.track = track;
            s.name = part.intern("k" + std::to_string((c + i) % 7));
            part.addSlice(s);
        }
        all.absorb(std::move(part));
        if (all.sliceCapacity() != capacity) {
            ++grew;
            capacity = all.sliceCapacity();
        }
    }
    CHECK(capacity >= std::size_t{kChunks} * kPer);
    CHECK(grew <= 8);  // 100 to 10,000 slices: 7 doublings (199 growths when each chunk got room for itself)
    const TracePtr t = all.finalize();
    REQUIRE(t->slices().size() == std::size_t{kChunks} * kPer);
    REQUIRE(t->tracks().size() == 3);
    // Each slice kept its name and its chunk's track: tid c % 3 for the slice started at
    // 10 (c kPer + i), named k((c + i) % 7).
    std::map<TimeNs, const Slice*> byStart;
    for (const Slice& s : t->slices()) byStart[s.start] = &s;
    REQUIRE(byStart.size() == t->slices().size());
    for (int c = 0; c < kChunks; ++c)
        for (int i = 0; i < kPer; ++i) {
            const Slice& s = *byStart.at(10 * (c * kPer + i));
            CHECK(t->str(s.name) == "k" + std::to_string((c + i) % 7));
            CHECK(t->tracks()[s.track].tid == std::to_string(c % 3));
        }
}
