#pragma once
// A read-only array shared between values: copying one copies a pointer, not the elements.
// Report carries its per-slice arrays (a million entries at 1M operators) this way so that a
// re-threshold hands the prepared analysis's arrays to the new report instead of copying them.
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace contend {

template <typename T>
class SharedVector {
  public:
    SharedVector() = default;
    explicit SharedVector(std::vector<T> values) : m_data(std::make_shared<const std::vector<T>>(std::move(values))) {}

    std::size_t size() const { return m_data ? m_data->size() : 0; }
    bool empty() const { return size() == 0; }
    const T& operator[](std::size_t i) const { return (*m_data)[i]; }
    const T* begin() const { return m_data ? m_data->data() : nullptr; }
    const T* end() const { return m_data ? m_data->data() + m_data->size() : nullptr; }
    // The same elements (not necessarily the same storage).
    friend bool operator==(const SharedVector& a, const SharedVector& b) {
        if (a.m_data == b.m_data) return true;
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!(a[i] == b[i])) return false;
        return true;
    }
    friend bool operator!=(const SharedVector& a, const SharedVector& b) { return !(a == b); }
    // True when both hold the very same storage (a re-threshold shares, never copies).
    bool sharesWith(const SharedVector& o) const { return m_data && m_data == o.m_data; }

  private:
    std::shared_ptr<const std::vector<T>> m_data;
};

}  // namespace contend
