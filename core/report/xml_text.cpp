#include "core/report/xml_text.h"

#include <cstdint>

namespace contend {

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (1..4), or 0 when it is not one. Rejects
// overlong forms, surrogates and code points above U+10FFFF; *cp receives the code point.
std::size_t utf8Sequence(std::string_view s, std::size_t i, std::uint32_t* cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        *cp = b0;
        return 1;
    }
    std::size_t n = 0;
    std::uint32_t v = 0, min = 0;
    if ((b0 & 0xE0) == 0xC0)
        n = 2, v = b0 & 0x1F, min = 0x80;
    else if ((b0 & 0xF0) == 0xE0)
        n = 3, v = b0 & 0x0F, min = 0x800;
    else if ((b0 & 0xF8) == 0xF0)
        n = 4, v = b0 & 0x07, min = 0x10000;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        v = (v << 6) | (b & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return n;
}

}  // namespace

std::string xmlEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::uint32_t cp = 0;
        const std::size_t n = utf8Sequence(s, i, &cp);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD for one bad byte
            ++i;
            continue;
        }
        const bool allowed = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp != 0xFFFE && cp != 0xFFFF);
        if (allowed) {
            switch (cp) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            // In an attribute value a literal LF/CR/tab is normalised to a space by parsers;
            // a character reference keeps it.
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            case '\t': out += "&#9;"; break;
            default: out.append(s.substr(i, n));
            }
        }
        i += n;
    }
    return out;
}

}  // namespace contend
