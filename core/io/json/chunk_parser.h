#pragma once
// Parses one chunk of whole trace events (the text between '[' and ']' of the events array, cut at
// element boundaries) into a TraceBuilder of its own. Chunks are independent, so several parsers
// run on worker threads (parse_pool.h) and their builders are merged in file order
// (TraceBuilder::absorb).
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/load_options.h"
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

inline constexpr std::size_t kNoArrayEnd = std::numeric_limits<std::size_t>::max();

// A chunk of array elements, as cut from the stream. The reader hands its buffer over instead of
// copying the text out of it: the elements are text[begin, begin + length), with at least
// kChunkHead bytes before them and kChunkTail after, so that the parser frames them as a JSON
// array ('[' before, ']' and simdjson's zero padding after) in place. The bytes around the
// elements are the parser's to overwrite.
inline constexpr std::size_t kChunkHead = 1;
inline constexpr std::size_t kChunkTail = 1 + 64;  // ']' and simdjson::SIMDJSON_PADDING
struct Chunk {
    std::vector<char> text;
    std::size_t begin = kChunkHead;
    std::size_t length = 0;
    std::uint64_t offset = 0;   // stream offset of text[begin]
    bool exact = false;         // cut at exact element boundaries (a JSON error is the file's)
    bool findArrayEnd = false;  // the cut was optimistic and may run past the events array
};

struct ChunkResult {
    // Error (exact chunks): error.offset and error.reason say where and what. Restart (optimistic
    // chunks): the cut may have been wrong; read again with exact boundaries.
    ParseStatus status = ParseStatus::Ok;
    TraceBuilder builder;  // the chunk's events, strings and warnings
    ChunkCounts counts;
    // With findArrayEnd: the index, from the chunk's begin, of a ']' that closes the array inside
    // the chunk.
    std::size_t arrayEnd = kNoArrayEnd;
    Failure error;
};

class ChunkParser {
  public:
    ChunkParser();
    ~ChunkParser();
    ChunkParser(const ChunkParser&) = delete;
    ChunkParser& operator=(const ChunkParser&) = delete;

    // Python's NaN/Infinity (not JSON) are read as missing values, with a warning. Writes the
    // framing around the chunk's elements (Chunk); the elements themselves are left as they are.
    ChunkResult parse(Chunk& chunk);

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace contend::detail
