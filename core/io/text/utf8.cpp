#include "core/io/text/utf8.h"

#include <simdjson.h>

namespace contend {

namespace {

// Length of the well-formed sequence starting at p[0] (1..4), or 0 if it is not well formed.
// Follows the table of well-formed byte sequences in the Unicode standard (section 3.9).
std::size_t sequenceLength(const unsigned char* p, std::size_t avail) {
    const unsigned char c = p[0];
    if (c < 0x80) return 1;
    auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
        return k < avail && p[k] >= lo && p[k] <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c == 0xE0) return cont(1, 0xA0, 0xBF) && cont(2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
    if (c == 0xF0) return cont(1, 0x90, 0xBF) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

}  // namespace

std::size_t repairUtf8(char* data, std::size_t size, std::size_t* firstBad) {
    auto* p = reinterpret_cast<unsigned char*>(data);
    std::size_t replaced = 0;
    std::size_t i = 0;
    while (i < size) {
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = sequenceLength(p + i, size - i);
        if (n) {
            i += n;
            continue;
        }
        if (replaced == 0 && firstBad) *firstBad = i;
        p[i] = '?';
        ++replaced;
        ++i;
    }
    return replaced;
}

bool isValidUtf8(const char* data, std::size_t size) { return simdjson::validate_utf8(data, size); }

}  // namespace contend
