#include "core/report/single/evidence_code.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace contend {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
// A character a number glued to it belongs to a name ("sm_80", "v1.2", "128x64").
bool isWordChar(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}

std::string fixed(double v, int decimals) {
    const int n = std::snprintf(nullptr, 0, "%.*f", decimals, v);
    std::string s(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
    if (n > 0) std::snprintf(s.data(), s.size() + 1, "%.*f", decimals, v);
    return s;
}

// The number token text[i, end) as a placeholder and argument, or false to keep it as text.
bool takeNumber(std::string_view token, std::size_t intDigits, EvidenceParts& out) {
    if (intDigits > 1 && token[0] == '0') return false;  // "007" is not how we write a number
    if (intDigits == token.size()) {
        if (token.size() > 18) return false;
        std::int64_t v = 0;
        std::from_chars(token.data(), token.data() + token.size(), v);
        out.templ += "{}";
        out.args.emplace_back(v);
        return true;
    }
    const std::size_t decimals = token.size() - intDigits - 1;
    if (token.size() - 1 > 15 || decimals > 9) return false;
    double v = 0;
    if (std::from_chars(token.data(), token.data() + token.size(), v).ec != std::errc()) return false;
    if (fixed(v, static_cast<int>(decimals)) != token) return false;
    out.templ += "{." + std::to_string(decimals) + "}";
    out.args.emplace_back(v);
    return true;
}

}  // namespace

EvidenceParts splitEvidence(std::string_view text) {
    EvidenceParts out;
    out.templ.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '{' || c == '}') {
            out.templ += c;
            out.templ += c;
            ++i;
            continue;
        }
        if (!isDigit(c) || (i > 0 && isWordChar(text[i - 1]))) {
            out.templ += c;
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isDigit(text[end])) ++end;
        const std::size_t intDigits = end - i;
        if (end + 1 < text.size() && text[end] == '.' && isDigit(text[end + 1])) {
            ++end;
            while (end < text.size() && isDigit(text[end])) ++end;
        }
        const std::string_view token = text.substr(i, end - i);
        if (!takeNumber(token, intDigits, out)) out.templ.append(token.data(), token.size());
        i = end;
    }
    return out;
}

bool joinEvidence(std::string_view templ, const nlohmann::json* args, std::size_t count, std::string& out,
                  std::string& error) {
    out.clear();
    std::size_t next = 0;
    for (std::size_t i = 0; i < templ.size(); ++i) {
        const char c = templ[i];
        if (c == '}') {
            if (i + 1 >= templ.size() || templ[i + 1] != '}') return error = "a lone '}' in the template", false;
            out += '}';
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < templ.size() && templ[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        const std::size_t close = templ.find('}', i);
        if (close == std::string_view::npos) return error = "a '{' without its '}' in the template", false;
        const std::string_view spec = templ.substr(i + 1, close - i - 1);
        if (next >= count) return error = "the template has more placeholders than numbers", false;
        const nlohmann::json& a = args[next++];
        if (spec.empty()) {
            if (!a.is_number_integer()) return error = "number " + std::to_string(next) + " is not an integer", false;
            out +=
                a.is_number_unsigned() ? std::to_string(a.get<std::uint64_t>()) : std::to_string(a.get<std::int64_t>());
        } else {
            int decimals = -1;
            if (spec.size() >= 2 && spec.size() <= 3 && spec[0] == '.' && isDigit(spec[1]) &&
                (spec.size() == 2 || isDigit(spec[2])))
                decimals = std::stoi(std::string(spec.substr(1)));
            if (decimals < 0 || decimals > 20)
                return error = "unknown placeholder {" + std::string(spec) + "} in the template", false;
            if (!a.is_number() || !std::isfinite(a.get<double>()))
                return error = "number " + std::to_string(next) + " is not a finite number", false;
            out += fixed(a.get<double>(), decimals);
        }
        i = close;
    }
    if (next != count) return error = "more numbers than the template has placeholders", false;
    return true;
}

}  // namespace contend
