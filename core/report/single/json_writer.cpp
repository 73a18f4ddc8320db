#include "core/report/single/json_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

namespace contend {

void JsonWriter::newline(int depth) {
    m_out += '\n';
    m_out.append(2 * static_cast<std::size_t>(depth), ' ');
}

void JsonWriter::flush() {
    m_sink->write(m_out.data(), static_cast<std::streamsize>(m_out.size()));
    m_out.clear();
}

void JsonWriter::separate() {
    Level& level = m_levels.back();
    if (level.any) m_out += ',';
    level.any = true;
    if (level.compact) {
        flushIfFull();  // a column of a million numbers is one array
        return;
    }
    newline(m_depth);
}

void JsonWriter::beginObject() {
    element();
    m_out += '{';
    m_levels.push_back({false, false, m_depth >= m_compactFrom});
    ++m_depth;
}

void JsonWriter::beginArray() {
    element();
    m_out += '[';
    m_levels.push_back({true, false, m_depth >= m_compactFrom});
    ++m_depth;
}

void JsonWriter::endObject() {
    const Level level = m_levels.back();
    m_levels.pop_back();
    --m_depth;
    if (level.any && !level.compact) newline(m_depth);
    m_out += '}';
    flushIfFull();
}

void JsonWriter::endArray() {
    const Level level = m_levels.back();
    m_levels.pop_back();
    --m_depth;
    if (level.any && !level.compact) newline(m_depth);
    m_out += ']';
}

void JsonWriter::key(std::string_view k) {
    Level& level = m_levels.back();
    if (level.any) m_out += ',';
    level.any = true;
    if (!level.compact) newline(m_depth);
    value(k);  // in an object: element() adds nothing
    m_out += level.compact ? ":" : ": ";
}

void JsonWriter::value(bool v) {
    element();
    m_out += v ? "true" : "false";
}

void JsonWriter::null() {
    element();
    m_out += "null";
}

void JsonWriter::value(double v) {
    // nlohmann's own float text (its serializer's: Grisu2, "null" for NaN and infinities),
    // written into a buffer here: a json made and dumped into a fresh string per number was most
    // of a report's number writing.
    if (!std::isfinite(v)) return null();
    element();
    char buf[kNumberRoom];
    m_out.append(buf, static_cast<std::size_t>(format(buf, v) - buf));
}

void JsonWriter::value(float v) {
    if (!std::isfinite(v)) return null();
    element();
    char buf[kNumberRoom];
    m_out.append(buf, static_cast<std::size_t>(format(buf, v) - buf));
}

namespace {

char* nullText(char* p) {
    static constexpr std::string_view kNull = "null";
    return std::copy(kNull.begin(), kNull.end(), p);
}

}  // namespace

char* JsonWriter::format(char* p, float v) {
    if (!std::isfinite(v)) return nullText(p);
    char* const end = std::to_chars(p, p + 48, v).ptr;
    if (std::find_if(p, end, [](char c) { return c == '.' || c == 'e'; }) != end) return end;
    end[0] = '.';
    end[1] = '0';
    return end + 2;
}

char* JsonWriter::format(char* p, double v) {
    if (!std::isfinite(v)) return nullText(p);
    return nlohmann::detail::to_chars(p, p + kNumberRoom - 1, v);
}

char* JsonWriter::format(char* p, std::optional<std::int64_t> v) { return v ? format(p, *v) : nullText(p); }

void JsonWriter::value(std::string_view s) {
    element();
    bool plain = true;
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u > 0x7E || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        m_out += '"';
        m_out.append(s.data(), s.size());
        m_out += '"';
        return;
    }
    m_out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonWriter::value(const nlohmann::json& v) {
    switch (v.type()) {
    case nlohmann::json::value_t::object:
        beginObject();
        for (auto it = v.begin(); it != v.end(); ++it) {
            key(it.key());
            value(*it);
        }
        endObject();
        break;
    case nlohmann::json::value_t::array:
        beginArray();
        for (const nlohmann::json& x : v) value(x);
        endArray();
        break;
    case nlohmann::json::value_t::string: value(std::string_view(v.get_ref<const std::string&>())); break;
    case nlohmann::json::value_t::boolean: value(v.get<bool>()); break;
    case nlohmann::json::value_t::number_integer: value(v.get<std::int64_t>()); break;
    case nlohmann::json::value_t::number_unsigned: value(v.get<std::uint64_t>()); break;
    case nlohmann::json::value_t::number_float: value(v.get<double>()); break;
    default: null(); break;
    }
}

void JsonWriter::id(const std::string& text) {
    // idJson's rule: an integer of at most 18 characters without a leading zero is a number.
    std::size_t k = !text.empty() && text[0] == '-' ? 1 : 0;
    bool number = !text.empty() && text.size() <= 18 && k < text.size() && !(text.size() > k + 1 && text[k] == '0');
    for (std::size_t i = k; number && i < text.size(); ++i) number = text[i] >= '0' && text[i] <= '9';
    if (!number) return value(std::string_view(text));
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    value(v);  // "-0" is 0, as idJson's number is
}

}  // namespace contend
