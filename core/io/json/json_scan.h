#pragma once
// Byte-level JSON structure scanning that the chunked reader needs around simdjson: finding
// element boundaries in the events array exactly (fallback and final segment), finding them
// optimistically near the end of a window (the fast path), and the extent of one value. (Lines and
// columns for error messages are counted by the reader as it streams: chrome_json_reader.cpp.)
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace contend::json {

// Exact scan of [begin, end) that starts *inside* an array, between elements, outside any string.
// Reports the position just after the last complete element (the index of the ',' that follows
// it, or of the closing ']'), and whether the array's closing ']' was reached.
struct ElementScan {
    std::size_t lastElementEnd = 0;  // offset (relative to begin) after the last complete element
    std::size_t elements = 0;        // complete elements seen
    bool arrayClosed = false;        // the enclosing array's ']' was found...
    std::size_t closePos = 0;        // ...at this offset
    bool badStructure = false;       // a closing bracket that does not match
};
ElementScan scanElements(const char* begin, std::size_t size);

// Fast path: the offset of the '}' that ends an event such that the text after it is
// ws* ',' ws* '{' ws* '"' (the start of the next event object), searching backwards from the end
// of [begin, size). Returns SIZE_MAX when there is none. Such a place can also occur inside a
// string; the reader verifies by parsing (quote parity makes a wrong cut fail) and falls back to
// the exact scan.
std::size_t findEventBoundaryBackward(const char* begin, std::size_t size, std::size_t* nextStart);

// Scans one JSON value starting at begin[0] (after whitespace). Returns the offset just past it,
// 0 if the value is incomplete within size.
std::size_t scanValue(const char* begin, std::size_t size);

// Python's json.dump writes float nan and inf as the bare words NaN, Infinity and -Infinity,
// which are not JSON. Outside strings, each becomes a string of the same length (its first and
// last characters turned into quotes: "a", "nfinit", "Infinit"), so offsets stay true to the file
// and the value reads as missing: a ts or dur that is not a number (the event is dropped with a
// warning), an arg or counter value that is skipped. Returns how many were replaced.
std::size_t quoteNonFinite(std::string& s);

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace contend::json
