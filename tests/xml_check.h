#pragma once
// A small XML 1.0 checker for the reports the tests read back (JUnit): well-formedness (one
// root, matched tags, quoted and unique attributes, known entities, valid UTF-8, no characters
// XML forbids) and a tiny tree to look into. No DTDs, no namespaces, no CDATA: our writers emit
// none, so meeting one is an error here rather than something to skip.
#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace contend::test {

struct XmlElement {
    std::string name;
    std::map<std::string, std::string> attributes;  // values with entities decoded
    std::vector<XmlElement> children;
    std::string text;  // character data directly inside, decoded

    bool has(const std::string& a) const { return attributes.count(a) != 0; }
    const std::string& attr(const std::string& a) const {
        static const std::string none;
        auto it = attributes.find(a);
        return it == attributes.end() ? none : it->second;
    }
    std::vector<const XmlElement*> all(const std::string& childName) const {
        std::vector<const XmlElement*> out;
        for (const auto& c : children)
            if (c.name == childName) out.push_back(&c);
        return out;
    }
};

class XmlChecker {
  public:
    // Parses `text`; on failure returns false and error() says where and why.
    bool parse(const std::string& text, XmlElement& root) {
        m_s = &text;
        m_i = 0;
        m_error.clear();
        root = XmlElement{};
        if (!validUtf8()) return false;
        if (text.compare(0, 5, "<?xml") == 0) {
            const auto end = text.find("?>");
            if (end == std::string::npos) return fail("unterminated XML declaration");
            const std::string decl = text.substr(0, end);
            if (decl.find("version=\"1.0\"") == std::string::npos) return fail("XML declaration without version 1.0");
            if (decl.find("encoding") != std::string::npos && decl.find("encoding=\"UTF-8\"") == std::string::npos)
                return fail("encoding is not UTF-8");
            m_i = end + 2;
        }
        skipMisc();
        if (!element(root)) return false;
        skipMisc();
        if (m_i != text.size()) return fail("content after the root element");
        return true;
    }
    const std::string& error() const { return m_error; }

  private:
    bool fail(const std::string& why) {
        if (m_error.empty()) m_error = "offset " + std::to_string(m_i) + ": " + why;
        return false;
    }
    bool at(const char* lit) const { return m_s->compare(m_i, std::char_traits<char>::length(lit), lit) == 0; }
    bool end() const { return m_i >= m_s->size(); }
    char peek() const { return end() ? '\0' : (*m_s)[m_i]; }
    void skipSpace() {
        while (!end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++m_i;
    }
    void skipMisc() {
        for (;;) {
            skipSpace();
            if (at("<!--")) {
                const auto e = m_s->find("-->", m_i + 4);
                m_i = e == std::string::npos ? m_s->size() : e + 3;
            } else
                return;
        }
    }
    static bool nameChar(char c, bool first) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalpha(u) || c == '_' || c == ':' || u >= 0x80) return true;
        return !first && (std::isdigit(u) || c == '-' || c == '.');
    }
    bool name(std::string& out) {
        const std::size_t b = m_i;
        if (end() || !nameChar(peek(), true)) return fail("expected a name");
        while (!end() && nameChar(peek(), false)) ++m_i;
        out = m_s->substr(b, m_i - b);
        return true;
    }
    static void appendUtf8(std::string& o, std::uint32_t cp) {
        if (cp < 0x80)
            o += static_cast<char>(cp);
        else if (cp < 0x800)
            o += static_cast<char>(0xC0 | (cp >> 6)), o += static_cast<char>(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
            o += static_cast<char>(0xE0 | (cp >> 12)), o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                o += static_cast<char>(0x80 | (cp & 0x3F));
        else
            o += static_cast<char>(0xF0 | (cp >> 18)), o += static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), o += static_cast<char>(0x80 | (cp & 0x3F));
    }
    static bool xmlChar(std::uint32_t cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
               (cp >= 0x10000 && cp <= 0x10FFFF);
    }
    // At '&': decodes one reference into `out`.
    bool reference(std::string& out) {
        const auto semi = m_s->find(';', m_i);
        if (semi == std::string::npos || semi - m_i > 12) return fail("'&' that starts no entity reference");
        const std::string ref = m_s->substr(m_i + 1, semi - m_i - 1);
        m_i = semi + 1;
        if (ref == "amp")
            out += '&';
        else if (ref == "lt")
            out += '<';
        else if (ref == "gt")
            out += '>';
        else if (ref == "quot")
            out += '"';
        else if (ref == "apos")
            out += '\'';
        else if (ref.size() > 1 && ref[0] == '#') {
            const bool hex = ref[1] == 'x';
            const std::string digits = ref.substr(hex ? 2 : 1);
            if (digits.empty() ||
                digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
                return fail("bad character reference &" + ref + ";");
            const auto cp = static_cast<std::uint32_t>(std::stoul(digits, nullptr, hex ? 16 : 10));
            if (!xmlChar(cp)) return fail("character reference to a character XML forbids");
            appendUtf8(out, cp);
        } else
            return fail("unknown entity &" + ref + ";");
        return true;
    }
    bool attributeValue(std::string& out) {
        const char q = peek();
        if (q != '"' && q != '\'') return fail("attribute value without quotes");
        ++m_i;
        while (!end() && peek() != q) {
            if (peek() == '<') return fail("'<' in an attribute value");
            if (peek() == '&') {
                if (!reference(out)) return false;
            } else if (peek() == '\n' || peek() == '\t' || peek() == '\r') {
                out += ' ';  // attribute-value normalisation
                ++m_i;
            } else
                out += (*m_s)[m_i++];
        }
        if (end()) return fail("unterminated attribute value");
        ++m_i;
        return true;
    }
    bool element(XmlElement& e) {
        if (peek() != '<') return fail("expected '<'");
        ++m_i;
        if (!name(e.name)) return false;
        for (;;) {
            const std::size_t before = m_i;
            skipSpace();
            if (at("/>")) {
                m_i += 2;
                return true;
            }
            if (peek() == '>') {
                ++m_i;
                break;
            }
            if (m_i == before) return fail("expected a space before an attribute");
            std::string an, av;
            if (!name(an)) return false;
            skipSpace();
            if (peek() != '=') return fail("attribute '" + an + "' without '='");
            ++m_i;
            skipSpace();
            if (!attributeValue(av)) return false;
            if (!e.attributes.emplace(an, av).second) return fail("attribute '" + an + "' twice on <" + e.name + ">");
        }
        for (;;) {
            if (end()) return fail("<" + e.name + "> never closed");
            if (at("</")) {
                m_i += 2;
                std::string closing;
                if (!name(closing)) return false;
                if (closing != e.name) return fail("</" + closing + "> closes <" + e.name + ">");
                skipSpace();
                if (peek() != '>') return fail("expected '>'");
                ++m_i;
                return true;
            }
            if (at("<!--")) {
                skipMisc();
                continue;
            }
            if (at("<![CDATA[") || at("<!") || at("<?"))
                return fail("CDATA, DTD or processing instruction inside an element");
            if (peek() == '<') {
                e.children.emplace_back();
                if (!element(e.children.back())) return false;
            } else if (peek() == '&') {
                if (!reference(e.text)) return false;
            } else if (peek() == '>' && m_i >= 2 && m_s->compare(m_i - 2, 2, "]]") == 0) {
                return fail("']]>' in character data");
            } else
                e.text += (*m_s)[m_i++];
        }
    }
    bool validUtf8() {
        const std::string& s = *m_s;
        for (std::size_t i = 0; i < s.size();) {
            const auto b = static_cast<unsigned char>(s[i]);
            std::size_t n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
            if (n == 0 || i + n > s.size()) return m_i = i, fail("invalid UTF-8");
            std::uint32_t cp = n == 1 ? b : b & (0x7F >> n);
            for (std::size_t k = 1; k < n; ++k) {
                const auto c = static_cast<unsigned char>(s[i + k]);
                if ((c & 0xC0) != 0x80) return m_i = i, fail("invalid UTF-8");
                cp = (cp << 6) | (c & 0x3F);
            }
            static const std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
            if (cp < kMin[n] || !xmlChar(cp)) return m_i = i, fail("overlong UTF-8 or a character XML forbids");
            i += n;
        }
        return true;
    }

    const std::string* m_s = nullptr;
    std::size_t m_i = 0;
    std::string m_error;
};

}  // namespace contend::test
