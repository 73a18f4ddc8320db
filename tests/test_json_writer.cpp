// JsonWriter writes the very text nlohmann::json dumps (indent 2, UTF-8 kept, bad bytes
// replaced), for the values the report's findings hold.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/report/single/json_writer.h"
#include "core/report/single/report_json.h"

using namespace contend;
using nlohmann::json;

namespace {

std::string dumped(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

}  // namespace

TEST_CASE("JsonWriter writes nlohmann's text for scalars", "[report][json-writer]") {
    auto one = [](auto v) {
        std::string out;
        JsonWriter w(out, 0);
        w.value(v);
        return out;
    };
    CHECK(one(std::int64_t{0}) == "0");
    CHECK(one(std::numeric_limits<std::int64_t>::min()) == dumped(json(std::numeric_limits<std::int64_t>::min())));
    CHECK(one(std::numeric_limits<std::uint64_t>::max()) == dumped(json(std::numeric_limits<std::uint64_t>::max())));
    CHECK(one(true) == "true");
    CHECK(one(false) == "false");
    for (double d : {0.0, -0.0, 0.1, 3.0, 2.5e-7, 1e300, -123.456, 1.0 / 3.0}) CHECK(one(d) == dumped(json(d)));
    CHECK(one(std::nan("")) == "null");
    for (const std::string s :
         {std::string(), std::string("plain text [x] <y>"), std::string("quote \" and \\ backslash"),
          std::string("tab\tnewline\ncontrol\x01"), std::string("caf\xc3\xa9 \xe2\x86\x92"),
          std::string("bad \xff\xfe bytes"), std::string("del \x7f")}) {
        INFO(s);
        CHECK(one(s) == dumped(json(s)));
    }
    std::string out;
    JsonWriter w(out, 0);
    w.null();
    CHECK(out == "null");
}

TEST_CASE("JsonWriter writes ids as idJson does", "[report][json-writer]") {
    for (const char* text :
         {"7", "-1", "0", "-0", "007", "-", "", "GPU 0", "123456789012345678", "1234567890123456789", "12a", "-007"}) {
        INFO(text);
        std::string out;
        JsonWriter w(out, 0);
        w.id(text);
        CHECK(out == dumped(idJson(text)));
    }
}

TEST_CASE("JsonWriter nests objects and arrays as nlohmann indents them", "[report][json-writer]") {
    const json expected = {{"a", 1},
                           {"b", json::array()},
                           {"c", json::object()},
                           {"d", {{"x", json::array({1, 2})}, {"y", nullptr}}},
                           {"e", json::array({json::object({{"k", "v"}}), json::array(), 3})}};
    std::string out;
    JsonWriter w(out, 0);
    w.beginObject();
    w.member("a", 1);
    w.key("b");
    w.beginArray();
    w.endArray();
    w.key("c");
    w.beginObject();
    w.endObject();
    w.key("d");
    w.beginObject();
    w.key("x");
    w.beginArray();
    w.value(1);
    w.value(2);
    w.endArray();
    w.key("y");
    w.null();
    w.endObject();
    w.key("e");
    w.beginArray();
    w.beginObject();
    w.member("k", "v");
    w.endObject();
    w.beginArray();
    w.endArray();
    w.value(3);
    w.endArray();
    w.endObject();
    CHECK(out == dumped(expected));

    // At depth 2 (an element of a member array of the document): members indented 6 spaces,
    // the closing brace 4, as the streamed report re-indents an element dumped alone.
    std::string nested;
    JsonWriter n(nested, 2);
    n.beginObject();
    n.member("k", std::int64_t{-5});
    n.endObject();
    CHECK(nested == "{\n      \"k\": -5\n    }");
}

TEST_CASE("JsonWriter with a sink writes the same text in blocks", "[report][json-writer]") {
    auto write = [](std::string& out, std::ostream* sink) {
        JsonWriter w(out, 1, sink);
        w.beginArray();
        for (std::int64_t i = 0; i < 20000; ++i) {
            w.beginObject();
            w.member("i", i);
            w.member("name", "kernel name long enough to fill blocks");
            w.endObject();
        }
        w.endArray();
    };
    std::string whole;
    write(whole, nullptr);
    std::ostringstream sink;
    std::string rest;
    write(rest, &sink);
    CHECK(sink.str().size() > JsonWriter::kFlushBytes);  // it flushed on the way
    CHECK(rest.size() < JsonWriter::kFlushBytes + 100);  // and kept only the tail
    CHECK(sink.str() + rest == whole);
}
