// The byte-level JSON helpers the chunked reader relies on (core/io/json/json_scan.h), tested
// directly: element boundaries, event boundaries found backwards, one value's extent, and
// Python's NaN/Infinity quoted in place.
#include <catch2/catch.hpp>
#include <string>

#include "core/io/json/json_scan.h"

using namespace contend;

TEST_CASE("scanElements finds the last complete element and the closing bracket", "[json_scan]") {
    const std::string text = R"({"a": "x,}"}, {"b": [1, 2]}, {"c": )";
    const json::ElementScan s = json::scanElements(text.data(), text.size());
    CHECK(s.elements == 2);
    CHECK(text.substr(0, s.lastElementEnd) == R"({"a": "x,}"}, {"b": [1, 2]})");
    CHECK_FALSE(s.arrayClosed);
    CHECK_FALSE(s.badStructure);

    const std::string closed = R"({"a": 1}, {"b": "]"}] trailing)";
    const json::ElementScan c = json::scanElements(closed.data(), closed.size());
    CHECK(c.elements == 2);
    REQUIRE(c.arrayClosed);
    CHECK(closed[c.closePos] == ']');
    CHECK(c.closePos == closed.find("] trailing"));

    const std::string bad = R"({"a": 1]})";
    CHECK(json::scanElements(bad.data(), bad.size()).badStructure);
}

TEST_CASE("findEventBoundaryBackward finds the end of the last event before a new one", "[json_scan]") {
    const std::string text = R"({"name": "a"}, {"name": "b"} , {"name": "c)";
    std::size_t next = 0;
    const std::size_t at = json::findEventBoundaryBackward(text.data(), text.size(), &next);
    REQUIRE(at != SIZE_MAX);
    CHECK(text[at] == '}');
    CHECK(text.substr(0, at + 1) == R"({"name": "a"}, {"name": "b"})");
    CHECK(text.substr(next, 2) == "{\"");
    const std::string none = R"({"name": "a", "args": {"x": 1})";
    CHECK(json::findEventBoundaryBackward(none.data(), none.size(), &next) == SIZE_MAX);
}

TEST_CASE("scanValue measures one value, and 0 when it is cut", "[json_scan]") {
    const std::string obj = R"(  {"a": [1, {"b": "}"}]}, next)";
    CHECK(json::scanValue(obj.data(), obj.size()) == obj.find(", next"));
    const std::string str = R"("esc\"aped" rest)";
    CHECK(json::scanValue(str.data(), str.size()) == str.find(" rest"));
    const std::string cut = R"({"a": [1, 2)";
    CHECK(json::scanValue(cut.data(), cut.size()) == 0);
}

TEST_CASE("quoteNonFinite quotes NaN and Infinity outside strings, in place", "[json_scan]") {
    std::string s = R"({"ts": NaN, "dur": Infinity, "v": -Infinity, "name": "NaN Infinity", "x": 1})";
    const std::size_t size = s.size();
    CHECK(json::quoteNonFinite(s) == 3);
    CHECK(s.size() == size);  // offsets stay true to the file
    CHECK(s == R"({"ts": "a", "dur": "nfinit", "v": "Infinit", "name": "NaN Infinity", "x": 1})");
    std::string escaped = R"({"name": "a\"NaN"})";
    CHECK(json::quoteNonFinite(escaped) == 0);
}
