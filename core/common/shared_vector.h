#pragma once
// SharedVector<T>: a std::vector whose copies share one buffer until one of them is written
// (copy on write, as Qt's containers). For the large arrays a report copies from the prepared
// analysis on every slider step and then only reads (a contention pattern's runs: a million of
// them on a contended 1M-kernel trace), so that a step costs what it changes, not what it copies.
//
// Reading (const begin/end, operator[], size, data) never copies. Any non-const access (a
// non-const begin() or operator[], push_back, resize, clear, assignment from a vector) first
// makes this copy's buffer its own when another copy shares it. A range-for over a non-const
// SharedVector is a write: read through a const reference where nothing is written.
//
// Copies may be read on several threads at once (the buffer is immutable while shared); one
// copy must not be written on one thread while it is read or copied on another.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace contend {

template <class T>
class SharedVector {
  public:
    using value_type = T;
    using size_type = std::size_t;
    using const_iterator = typename std::vector<T>::const_iterator;
    using iterator = typename std::vector<T>::iterator;

    SharedVector() = default;
    SharedVector(std::vector<T> v) : m_data(v.empty() ? nullptr : std::make_shared<std::vector<T>>(std::move(v))) {}
    SharedVector(std::initializer_list<T> init) : SharedVector(std::vector<T>(init)) {}
    SharedVector& operator=(std::vector<T> v) { return *this = SharedVector(std::move(v)); }
    SharedVector& operator=(std::initializer_list<T> init) { return *this = SharedVector(init); }

    // Reading.
    std::size_t size() const { return m_data ? m_data->size() : 0; }
    bool empty() const { return size() == 0; }
    const_iterator begin() const { return view().begin(); }
    const_iterator end() const { return view().end(); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    const T& operator[](std::size_t i) const { return (*m_data)[i]; }
    const T& front() const { return m_data->front(); }
    const T& back() const { return m_data->back(); }
    const T* data() const { return m_data ? m_data->data() : nullptr; }
    // The elements as a vector (shared: valid while this copy is not written).
    const std::vector<T>& view() const { return m_data ? *m_data : empty_vector(); }
    // Whether another copy shares this buffer (for tests).
    bool shared() const { return m_data && m_data.use_count() > 1; }

    // Writing: the buffer made this copy's own first.
    iterator begin() { return own().begin(); }
    iterator end() { return own().end(); }
    T& operator[](std::size_t i) { return own()[i]; }
    void push_back(const T& v) { own().push_back(v); }
    void push_back(T&& v) { own().push_back(std::move(v)); }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        return own().emplace_back(std::forward<Args>(args)...);
    }
    void reserve(std::size_t n) { own().reserve(n); }
    void resize(std::size_t n) { own().resize(n); }
    void clear() { m_data.reset(); }

  private:
    static const std::vector<T>& empty_vector() {
        static const std::vector<T> none;
        return none;
    }
    std::vector<T>& own() {
        if (!m_data)
            m_data = std::make_shared<std::vector<T>>();
        else if (m_data.use_count() > 1)
            m_data = std::make_shared<std::vector<T>>(*m_data);
        return *m_data;
    }
    std::shared_ptr<std::vector<T>> m_data;
};

}  // namespace contend
