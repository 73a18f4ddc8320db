#pragma once
// The text nlohmann::json writes for a value (dump(2, ' ', false, replace): two spaces per level,
// UTF-8 kept, invalid bytes replaced by U+FFFD), written straight into a string instead of built
// as a document first. The report's findings are written this way (report_json.cpp): a million
// anomalies as json objects (a map node per field, then dumped and re-indented) were most of
// `analyze --json` at a low coefficient.
//
// The caller gives an object's keys in the order nlohmann keeps them (sorted, std::less on the
// bytes); the writer adds the commas, newlines and indentation. Numbers: integers as decimal,
// doubles as nlohmann writes them (shortest round trip, "null" when not finite). Strings of
// printable ASCII without '"' or '\' are copied; any other string is escaped by nlohmann itself,
// so the bytes are the same whatever it holds.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace contend {

class JsonWriter {
  public:
    // Appends to `out`; the first value is at nesting depth `depth` (its members indented by
    // 2 * (depth + 1) spaces), as an element of an array at depth - 1 is. With a `sink`, `out`
    // is written to it and emptied whenever an object ends with kFlushBytes or more in it (the
    // caller writes what is left at the end), so a list of a million objects never sits whole in
    // memory.
    // A container that begins at depth `compactFrom` or deeper is written on one line, without
    // spaces ("[1,2,3]", "{"a":1}"), as nlohmann's dump() writes it: contend.report/3 keeps its
    // sections' members one per line and everything inside them on that line.
    static constexpr std::size_t kFlushBytes = std::size_t{1} << 16;
    JsonWriter(std::string& out, int depth, std::ostream* sink = nullptr, int compactFrom = 1 << 30)
        : m_out(out), m_depth(depth), m_sink(sink), m_compactFrom(compactFrom) {}

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    // The next member's key (inside an object).
    void key(std::string_view k);

    // Integers, the bulk of a report's columns: inline, as is the separator before them.
    void value(std::int64_t v) { integer(v); }
    void value(std::uint64_t v) { integer(v); }
    void value(std::uint32_t v) { value(static_cast<std::uint64_t>(v)); }
    void value(int v) { value(static_cast<std::int64_t>(v)); }
    void value(bool v);
    void value(double v);
    // A 32-bit float as the shortest decimal that reads back as it (std::to_chars), ".0" added to
    // a whole number as nlohmann does for doubles; "null" when not finite.
    void value(float v);
    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void null();
    // A whole value built as a document (its object keys in the document's order).
    void value(const nlohmann::json& v);
    // A pid or tid as idJson (report_json.h) writes it: an integer when the text is one, else text.
    void id(const std::string& text);

    // key(k) then value(v).
    template <typename T>
    void member(std::string_view k, const T& v) {
        key(k);
        value(v);
    }

    // An array of n numbers, get(i) the i-th: what value() writes for each (an integer, a float,
    // a double; an empty std::optional<std::int64_t> as null), the same text. A compact array
    // (a report's column: hundreds of thousands of numbers) is formatted in blocks straight into
    // the text, without the per-value separator and growth checks (they were most of writing a
    // report at coefficient 0.5). get is called once per element, in order.
    template <typename Get>
    void numbers(std::size_t n, Get get) {
        beginArray();
        if (!m_levels.back().compact) {
            for (std::size_t i = 0; i < n; ++i) put(get(i));
            return endArray();
        }
        char block[kBlockNumbers * kNumberRoom];
        for (std::size_t i = 0; i < n;) {
            char* p = block;
            for (const std::size_t end = std::min(n, i + kBlockNumbers); i < end; ++i) {
                if (i != 0) *p++ = ',';
                p = format(p, get(i));
            }
            m_out.append(block, static_cast<std::size_t>(p - block));
            flushIfFull();
        }
        m_levels.back().any = n > 0;
        endArray();
    }

  private:
    static constexpr std::size_t kBlockNumbers = 256;
    static constexpr std::size_t kNumberRoom = 64;  // a number's text and its comma, at most
    void put(std::optional<std::int64_t> v) { v ? value(*v) : null(); }
    template <typename T>
    void put(T v) {
        value(v);
    }
    template <typename Int, typename = std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>>>
    static char* format(char* p, Int v) {
        return std::to_chars(p, p + kNumberRoom - 1, v).ptr;
    }
    static char* format(char* p, float v);
    static char* format(char* p, double v);
    static char* format(char* p, std::optional<std::int64_t> v);
    // Before a value: the separator and indent when it is an array's element.
    void element() {
        if (!m_levels.empty() && m_levels.back().array) separate();
    }
    void separate();
    void newline(int depth);
    void flushIfFull() {
        if (m_sink && m_out.size() >= kFlushBytes) flush();
    }
    void flush();
    template <typename Int>
    void integer(Int v) {
        element();
        char buf[24];
        const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
        m_out.append(buf, static_cast<std::size_t>(end - buf));
    }

    std::string& m_out;
    int m_depth;
    std::ostream* m_sink;
    int m_compactFrom;
    // Per open container: is it an array, has it a member yet, is it written on one line.
    struct Level {
        bool array;
        bool any;
        bool compact;
    };
    std::vector<Level> m_levels;
};

}  // namespace contend
