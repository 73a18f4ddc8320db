#pragma once
// Parses one chunk of whole trace events (the text between '[' and ']' of the events array, cut at
// element boundaries) into a TraceBuilder of its own. Chunks are independent, so several parsers
// run on worker threads and their builders are merged in file order (TraceBuilder::absorb).
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/io/load.h"
#include "core/trace/trace_builder.h"

namespace contend::detail {

enum class ParseStatus { Ok, Restart, Error };

// What the chunk saw, beyond the model: event counts as written, format hints.
struct ChunkCounts {
    std::uint64_t events = 0;
    std::array<std::uint64_t, 128> phases{};
    std::map<std::string, std::uint64_t> otherPhases;  // through countOtherPhase only
    bool kinetoHints = false;
    bool ascendHints = false;
};

// Counts n events of a phase written as `ph` (not one ASCII letter). A crafted file must not
// grow the table without bound: at most 64 names of up to 16 bytes, the rest as "(other)".
void countOtherPhase(std::map<std::string, std::uint64_t>& table, std::string_view ph, std::uint64_t n);

class ChunkParser {
  public:
    ChunkParser();
    ~ChunkParser();
    ChunkParser(const ChunkParser&) = delete;
    ChunkParser& operator=(const ChunkParser&) = delete;

    // text[0, len) holds array elements; textOffset is the stream offset of text[0]. In exact
    // mode a JSON error is an Error with error.offset/reason set; otherwise it is Restart (the
    // optimistic cut may have been wrong). With findArrayEnd, *arrayEnd receives the index in
    // text of a ']' that closes the array inside the chunk (or stays unchanged).
    ParseStatus parse(const char* text, std::size_t len, std::uint64_t textOffset, bool exact, bool findArrayEnd,
                      TraceBuilder& out, ChunkCounts& counts, std::size_t* arrayEnd, LoadError& error);

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace contend::detail
