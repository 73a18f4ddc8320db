#pragma once
// Interned strings: every distinct name, category, arg text is stored once and referred to by
// a 32-bit id. Id 0 is always the empty string. Views stay valid for the table's lifetime
// (strings live in stable chunks, never reallocated).
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/trace/types.h"

namespace contend {

class StringTable {
  public:
    StringTable();
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;

    StringId intern(std::string_view s);
    // Returns kNone when the string was never interned.
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const { return m_views[id]; }
    std::string str(StringId id) const { return std::string(m_views[id]); }
    std::size_t size() const { return m_views.size(); }
    std::size_t bytes() const { return m_bytes; }

  private:
    std::string_view store(std::string_view s);

    std::vector<std::unique_ptr<char[]>> m_chunks;
    std::size_t m_chunkUsed = 0;
    std::size_t m_chunkCap = 0;
    std::size_t m_bytes = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, StringId> m_index;
};

}  // namespace contend
