// JsonWriter writes the very text nlohmann::json dumps (indent 2, UTF-8 kept, bad bytes
// replaced), for the values the report's findings hold.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

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

TEST_CASE("JsonWriter writes an array of numbers as it writes each number", "[report][json-writer]") {
    // numbers() formats a compact array in blocks: its text must be value()'s for every type a
    // report's column holds, in a compact array and an indented one, with and without a sink.
    const std::size_t n = 3000;  // more than one block
    auto each = [](std::size_t i) -> std::optional<std::int64_t> {
        if (i % 7 == 3) return std::nullopt;
        return static_cast<std::int64_t>(i * 2654435761u) - (std::int64_t{1} << 31);
    };
    const float floats[] = {0.0f, -0.0f, 1.0f, 0.1f, 3.5e-7f, 1e30f, -123.456f, std::nanf(""), 16777216.0f};
    const double doubles[] = {0.0, 2.5, 1.0 / 3.0, -1e300, std::nan(""), std::numeric_limits<double>::infinity()};
    // One column, through numbers() (block) or value() by value (plain).
    auto column = [](JsonWriter& w, const char* key, std::size_t count, auto get, bool block) {
        w.key(key);
        if (block) return w.numbers(count, get);
        w.beginArray();
        for (std::size_t i = 0; i < count; ++i) {
            const auto v = get(i);
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::optional<std::int64_t>>)
                v ? w.value(*v) : w.null();
            else
                w.value(v);
        }
        w.endArray();
    };
    auto writeAll = [&](std::string& out, std::ostream* sink, int compactFrom, bool block) {
        JsonWriter w(out, 0, sink, compactFrom);
        w.beginObject();
        column(w, "ints", n, each, block);
        column(
            w, "unsigned", n, [](std::size_t i) { return std::uint64_t{i} * std::uint64_t{0x9E3779B97F4A7C15}; },
            block);
        column(
            w, "small", n, [](std::size_t i) { return static_cast<std::uint32_t>(i); }, block);
        column(
            w, "floats", std::size(floats), [&](std::size_t i) { return floats[i]; }, block);
        column(
            w, "doubles", std::size(doubles), [&](std::size_t i) { return doubles[i]; }, block);
        column(
            w, "empty", 0, [](std::size_t) { return 0; }, block);
        w.endObject();
    };
    for (const int compactFrom : {1, 1 << 30}) {
        for (const bool withSink : {false, true}) {
            INFO("compact from " << compactFrom << ", sink " << withSink);
            std::string plain, blocks;
            std::ostringstream plainSink, blockSink;
            writeAll(plain, withSink ? &plainSink : nullptr, compactFrom, false);
            writeAll(blocks, withSink ? &blockSink : nullptr, compactFrom, true);
            CHECK(blockSink.str() + blocks == plainSink.str() + plain);
            if (withSink) CHECK(blocks.size() < JsonWriter::kFlushBytes + 64 * 256);  // it flushed on the way
        }
    }
    std::string compact;
    writeAll(compact, nullptr, 1, true);
    CHECK(compact.find("\"floats\": [0.0,-0.0,1.0,0.1,3.5e-07,1e+30,-123.456,null,16777216.0]") != std::string::npos);
    CHECK(compact.find("\"empty\": []") != std::string::npos);
}
