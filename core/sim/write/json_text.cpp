#include "core/sim/write/json_text.h"

namespace contend::sim {

namespace {
// 128-bit intermediates keep num * 10^decimals exact (GCC/Clang extension; quiet under -Wpedantic).
__extension__ using U128 = unsigned __int128;
}  // namespace

JsonText::JsonText(OutputSink* sink, std::size_t chunk) : m_sink(sink), m_chunk(chunk) {
    m_buf.reserve(sink ? chunk + (64u << 10) : 4096);
}

JsonText& JsonText::integer(std::int64_t v) {
    char tmp[24];
    int n = 0;
    // Work in unsigned so that INT64_MIN negates cleanly.
    std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    do {
        tmp[n++] = static_cast<char>('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0) m_buf.push_back('-');
    while (n > 0) m_buf.push_back(tmp[--n]);
    return *this;
}

JsonText& JsonText::fixed(std::int64_t value, int decimals) {
    std::int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    std::uint64_t u = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    if (value < 0) m_buf.push_back('-');
    integer(static_cast<std::int64_t>(u / static_cast<std::uint64_t>(scale)));
    if (decimals > 0) {
        m_buf.push_back('.');
        std::uint64_t frac = u % static_cast<std::uint64_t>(scale);
        char tmp[20];
        for (int i = decimals - 1; i >= 0; --i) {
            tmp[i] = static_cast<char>('0' + frac % 10);
            frac /= 10;
        }
        m_buf.append(tmp, static_cast<std::size_t>(decimals));
    }
    return *this;
}

JsonText& JsonText::ratio(std::int64_t num, std::int64_t den, int decimals) {
    if (den == 0) return raw("0");
    std::int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const bool negative = (num < 0) != (den < 0);
    const U128 n = num < 0 ? 0 - static_cast<std::uint64_t>(num) : static_cast<std::uint64_t>(num);
    const U128 d = den < 0 ? 0 - static_cast<std::uint64_t>(den) : static_cast<std::uint64_t>(den);
    const U128 q = (n * static_cast<U128>(scale) * 2 + d) / (2 * d);
    const std::int64_t v = static_cast<std::int64_t>(q);
    return fixed(negative && v != 0 ? -v : v, decimals);
}

JsonText& JsonText::string(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    m_buf.push_back('"');
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            m_buf.push_back('\\');
            m_buf.push_back(c);
        } else if (u < 0x20) {
            m_buf.append("\\u00");
            m_buf.push_back(kHex[u >> 4]);
            m_buf.push_back(kHex[u & 15]);
        } else {
            m_buf.push_back(c);
        }
    }
    m_buf.push_back('"');
    return *this;
}

bool JsonText::flush() {
    if (!m_sink) return true;
    const bool ok = m_sink->write(m_buf);
    m_flushed += m_buf.size();
    m_buf.clear();
    return ok;
}

}  // namespace contend::sim
