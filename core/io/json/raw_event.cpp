// Trace::rawEvent lives with the readers: it re-reads the event's bytes from the source file.
#include <simdjson.h>
#include <vector>

#include "core/io/byte_source.h"
#include "core/io/json/json_scan.h"
#include "core/trace/trace.h"

namespace contend {

std::string Trace::rawEvent(std::uint32_t slice) const {
    if (slice >= m_infos.size() || m_source.path.empty()) return {};
    const std::uint64_t offset = m_infos[slice].srcOffset;
    std::string error;
    auto src = openByteSource(m_source.path, error);
    if (!src) return {};
    // Skip to the offset (a gzip source has to inflate its way there).
    std::vector<char> buf(1 << 20);
    std::uint64_t pos = 0;
    while (pos < offset) {
        std::size_t n =
            src->read(buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), offset - pos)));
        if (n == 0) return {};
        pos += n;
    }
    std::string text;
    for (std::size_t limit = 1 << 16; limit <= (64u << 20); limit *= 4) {
        while (text.size() < limit) {
            std::size_t n = src->read(buf.data(), std::min(buf.size(), limit - text.size()));
            if (n == 0) break;
            text.append(buf.data(), n);
        }
        if (text.empty() || text[0] != '{') return {};
        std::size_t end = json::scanValue(text.data(), text.size());
        if (end) {
            text.resize(end);
            return text;
        }
        if (text.size() < limit) return {};
    }
    return {};
}

}  // namespace contend
