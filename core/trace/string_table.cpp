#include "core/trace/string_table.h"

#include <cstring>

namespace contend {

namespace {
constexpr std::size_t kChunkSize = 1 << 20;
}

StringTable::StringTable() {
    m_views.emplace_back();
    m_index.emplace(std::string_view(), 0);
}

std::string_view StringTable::store(std::string_view s) {
    if (s.size() > kChunkSize / 4) {
        // Large strings get a chunk of their own so small ones keep packing densely.
        auto buf = std::make_unique<char[]>(s.size());
        std::memcpy(buf.get(), s.data(), s.size());
        std::string_view v(buf.get(), s.size());
        m_chunks.insert(m_chunks.begin(), std::move(buf));
        m_bytes += s.size();
        return v;
    }
    if (m_chunks.empty() || m_chunkUsed + s.size() > m_chunkCap) {
        m_chunks.push_back(std::make_unique<char[]>(kChunkSize));
        m_chunkUsed = 0;
        m_chunkCap = kChunkSize;
    }
    char* dst = m_chunks.back().get() + m_chunkUsed;
    std::memcpy(dst, s.data(), s.size());
    m_chunkUsed += s.size();
    m_bytes += s.size();
    return {dst, s.size()};
}

StringId StringTable::intern(std::string_view s) {
    auto it = m_index.find(s);
    if (it != m_index.end()) return it->second;
    std::string_view stored = store(s);
    auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return id;
}

StringId StringTable::find(std::string_view s) const {
    auto it = m_index.find(s);
    return it == m_index.end() ? kNone : it->second;
}

}  // namespace contend
