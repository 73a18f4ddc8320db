#include "core/io/json/chunk_parser.h"

#include <cstring>
#include <string>

#include "core/io/json/chunk_parser_impl.h"
#include "core/io/json/json_scan.h"
#include "core/io/text/utf8.h"

// This file and chunk_event.cpp are compiled for AVX2 (see core/CMakeLists.txt): simdjson
// On-Demand chooses its kernel from the compile-time target, and the portable fallback is about
// three times slower.

namespace contend::detail {

// Parses the chunk's elements as an array. With findArrayEnd the range may run past the end of
// the events array (optimistic cut); result.arrayEnd then receives the index, from `text`, of
// the closing ']' if it lies inside.
ParseStatus ChunkParser::Impl::parse(char* text, std::size_t len, std::uint64_t textOffset, bool exact,
                                     bool findArrayEnd, ChunkResult& result) {
    static_assert(kChunkHead >= 1 && kChunkTail >= 1 + simdjson::SIMDJSON_PADDING, "room for the framing");
    m_b = &result.builder;
    m_counts = &result.counts;
    m_error = &result.error;
    m_exact = exact;
    std::size_t* arrayEnd = &result.arrayEnd;
    // Frame the elements in place: '[' before, ']' and zero padding after (no copy of the text).
    char* framed = text - 1;
    framed[0] = '[';
    framed[len + 1] = ']';
    std::memset(framed + len + 2, 0, simdjson::SIMDJSON_PADDING);
    // Stream offset of framed[j] for j >= 1 is chunkBase + j.
    const std::uint64_t chunkBase = textOffset - 1;
    auto onError = [&](simdjson::error_code ec, const char* where) -> ParseStatus {
        if (!m_exact) return ParseStatus::Restart;
        std::uint64_t off = textOffset;
        if (where && where >= framed && where < framed + len + 2)
            off = chunkBase + static_cast<std::uint64_t>(where - framed);
        std::string msg = simdjson::error_message(ec);
        if (ec == simdjson::UNCLOSED_STRING)
            msg = "a string is not closed";
        else if (ec == simdjson::TAPE_ERROR || ec == simdjson::INCOMPLETE_ARRAY_OR_OBJECT)
            msg = "malformed JSON: expected ',' or '}' / ']'";
        else if (ec == simdjson::UTF8_ERROR)
            msg = "invalid UTF-8";
        else if (ec == simdjson::NUMBER_ERROR)
            msg = "malformed number";
        else if (ec == simdjson::T_ATOM_ERROR || ec == simdjson::F_ATOM_ERROR || ec == simdjson::N_ATOM_ERROR)
            msg = "malformed literal (expected true, false or null)";
        return fail(off, msg);
    };
    od::document doc;
    const std::size_t framedCapacity = len + 2 + simdjson::SIMDJSON_PADDING;
    auto ec = m_parser.iterate(framed, len + 2, framedCapacity).get(doc);
    if (ec == simdjson::UTF8_ERROR) {
        // Names copied from elsewhere (Latin-1, a cut multi-byte sequence): replace the bad bytes
        // one for one with '?' and parse again; offsets stay true to the file. The repair is made
        // in a copy, so the chunk's text stays as the file has it (ChunkParser::parse may read it
        // again).
        m_repaired.assign(framed, framed + framedCapacity);
        framed = m_repaired.data();
        std::size_t first = 0;
        const std::size_t n = repairUtf8(framed + 1, len, &first);
        if (n) m_b->warn(ImportProblem::InvalidUtf8, "byte " + std::to_string(textOffset + first), n);
        ec = m_parser.iterate(framed, len + 2, framedCapacity).get(doc);
    }
    if (ec) return onError(ec, nullptr);
    od::array arr;
    if ((ec = doc.get_array().get(arr))) return onError(ec, nullptr);
    const char* lastLoc = framed;
    for (auto el : arr) {
        od::value v;
        if ((ec = el.get(v))) return onError(ec, lastLoc);
        const char* loc = nullptr;
        if (v.current_location().get(loc)) loc = lastLoc;
        lastLoc = loc;
        std::uint64_t off = chunkBase + static_cast<std::uint64_t>(loc - framed);
        ++m_counts->events;
        od::object obj;
        ec = v.get_object().get(obj);
        if (ec == simdjson::INCORRECT_TYPE) {
            warn(ImportProblem::EventNotObject, off);
            continue;
        }
        if (ec) return onError(ec, loc);
        ParseStatus st = handleEvent(obj, off);
        if (st != ParseStatus::Ok) return st;
    }
    if (findArrayEnd) {
        // Did the root array end before our appended ']'? Then the events array ended inside.
        const char* at = nullptr;
        if (!doc.current_location().get(at) && at < framed + len + 1) {
            // `at` points past the ']' that closed the array; find it.
            const char* p = at;
            while (p > framed && *(p - 1) != ']') --p;
            std::size_t chunkIndex = static_cast<std::size_t>(p - 1 - framed);
            *arrayEnd = chunkIndex - 1;
        }
    }
    return ParseStatus::Ok;
}

void countOtherPhase(std::map<std::string, std::uint64_t>& table, std::string_view ph, std::uint64_t n) {
    auto it = ph.size() <= 16 ? table.find(std::string(ph)) : table.end();
    if (it != table.end())
        it->second += n;
    else if (ph.size() <= 16 && table.size() < 64)
        table.emplace(std::string(ph), n);
    else
        table["(other)"] += n;
}

ChunkParser::ChunkParser() : m_impl(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;

ChunkResult ChunkParser::parse(Chunk& chunk) {
    ChunkResult r;
    char* text = chunk.text.data() + chunk.begin;
    r.status = m_impl->parse(text, chunk.length, chunk.offset, chunk.exact, chunk.findArrayEnd, r);
    if (r.status != ParseStatus::Error) return r;
    // A JSON error: if the chunk holds NaN/Infinity (not JSON, but what Python writes), read it
    // again with those quoted, into a fresh result.
    std::string fixed(text, chunk.length);
    const std::size_t n = json::quoteNonFinite(fixed);
    if (!n) return r;
    std::vector<char> framed(kChunkHead + fixed.size() + kChunkTail);
    std::memcpy(framed.data() + kChunkHead, fixed.data(), fixed.size());
    ChunkResult again;
    again.status =
        m_impl->parse(framed.data() + kChunkHead, fixed.size(), chunk.offset, chunk.exact, chunk.findArrayEnd, again);
    if (again.status == ParseStatus::Error) {
        again.error = r.error;  // the first problem is the one to show
        return again;
    }
    again.builder.warn(ImportProblem::NonFiniteNumber, "byte " + std::to_string(r.error.offset), n);
    return again;
}

}  // namespace contend::detail
