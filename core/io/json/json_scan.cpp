#include "core/io/json/json_scan.h"

#include <cstring>
#include <limits>
#include <vector>

namespace contend::json {

namespace {

// Skips a string body starting just after the opening quote. Returns the offset just after the
// closing quote, or kNpos if the string does not end within the buffer.
constexpr std::size_t kNpos = std::numeric_limits<std::size_t>::max();
std::size_t skipString(const char* p, std::size_t i, std::size_t size) {
    while (i < size) {
        const void* q = std::memchr(p + i, '"', size - i);
        if (!q) return kNpos;
        std::size_t k = static_cast<std::size_t>(static_cast<const char*>(q) - p);
        // Count the backslashes before the quote: an odd count escapes it.
        std::size_t bs = 0;
        while (k > bs && p[k - 1 - bs] == '\\') ++bs;
        if ((bs & 1) == 0) return k + 1;
        i = k + 1;
    }
    return kNpos;
}

}  // namespace

ElementScan scanElements(const char* p, std::size_t size) {
    ElementScan r;
    // Depth relative to the array's contents: 0 = between elements.
    std::vector<char> stack;
    stack.reserve(64);
    bool inElement = false;
    std::size_t i = 0;
    while (i < size) {
        char c = p[i];
        switch (c) {
        case '"': {
            std::size_t e = skipString(p, i + 1, size);
            if (e == kNpos) return r;  // unterminated within the buffer: stop here
            i = e;
            inElement = true;
            continue;
        }
        case '{':
        case '[':
            stack.push_back(c);
            inElement = true;
            break;
        case '}':
        case ']':
            if (stack.empty()) {
                if (c == ']') {
                    if (inElement) {
                        r.lastElementEnd = i;
                        r.elements++;
                    }
                    r.arrayClosed = true;
                    r.closePos = i;
                } else {
                    r.badStructure = true;
                }
                return r;
            }
            if ((c == '}' && stack.back() != '{') || (c == ']' && stack.back() != '[')) {
                r.badStructure = true;
                return r;
            }
            stack.pop_back();
            break;
        case ',':
            if (stack.empty()) {
                if (inElement) {
                    r.lastElementEnd = i;
                    r.elements++;
                }
                inElement = false;
            }
            break;
        default:
            if (!isSpace(c)) inElement = true;
            break;
        }
        ++i;
    }
    return r;
}

std::size_t findEventBoundaryBackward(const char* p, std::size_t size, std::size_t* nextStart) {
    std::size_t i = size;
    while (i > 0) {
        const void* q = memrchr(p, '{', i);
        if (!q) return std::numeric_limits<std::size_t>::max();
        std::size_t brace = static_cast<std::size_t>(static_cast<const char*>(q) - p);
        i = brace;
        // After '{': ws* '"'
        std::size_t a = brace + 1;
        while (a < size && isSpace(p[a])) ++a;
        if (a >= size || p[a] != '"') continue;
        // Before '{': ws* ',' ws* '}'
        std::size_t b = brace;
        while (b > 0 && isSpace(p[b - 1])) --b;
        if (b == 0 || p[b - 1] != ',') continue;
        --b;
        while (b > 0 && isSpace(p[b - 1])) --b;
        if (b == 0 || p[b - 1] != '}') continue;
        if (nextStart) *nextStart = brace;
        return b - 1;
    }
    return std::numeric_limits<std::size_t>::max();
}

std::size_t scanValue(const char* p, std::size_t size) {
    std::size_t i = 0;
    while (i < size && isSpace(p[i])) ++i;
    if (i >= size) return 0;
    char c = p[i];
    if (c == '"') {
        std::size_t e = skipString(p, i + 1, size);
        return e == kNpos ? 0 : e;
    }
    if (c != '{' && c != '[') {
        // Scalar: up to the next delimiter.
        while (i < size && p[i] != ',' && p[i] != '}' && p[i] != ']' && !isSpace(p[i])) ++i;
        return i < size ? i : 0;
    }
    std::vector<char> stack;
    while (i < size) {
        c = p[i];
        if (c == '"') {
            std::size_t e = skipString(p, i + 1, size);
            if (e == kNpos) return 0;
            i = e;
            continue;
        }
        if (c == '{' || c == '[')
            stack.push_back(c);
        else if (c == '}' || c == ']') {
            if (stack.empty()) return 0;
            stack.pop_back();
            if (stack.empty()) return i + 1;
        }
        ++i;
    }
    return 0;
}

std::size_t quoteNonFinite(std::string& s) {
    std::size_t n = 0;
    bool inString = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        auto word = [&](std::string_view w) { return s.compare(i, w.size(), w) == 0; };
        std::size_t len = 0;
        if (c == 'N' && word("NaN"))
            len = 3;
        else if (c == 'I' && word("Infinity"))
            len = 8;
        else if (c == '-' && word("-Infinity"))
            len = 9;
        if (!len) continue;
        s[i] = '"';
        s[i + len - 1] = '"';
        ++n;
        i += len - 1;
    }
    return n;
}

}  // namespace contend::json
