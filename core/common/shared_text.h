#pragma once
// An immutable string shared by every copy: what a report keeps once per distinct name where
// it keeps a name per item. A window operator's name, pid and tid are the same few texts for
// hundreds of thousands of operators at a low coefficient; as std::string each name was a heap
// block of its own (most kernel names are longer than the 15 bytes kept inline), about 100 of
// the 240 bytes a window operator cost, all of it fresh memory that a VM's first touch makes
// dear (lab/README.md, "fresh pages"). A SharedText is 16 bytes and a copy is a reference count.
//
// It reads as a const std::string (the implicit conversion, str(), the usual queries), so code
// that reads a name keeps its shape; it is built from a std::string, a view or a literal (a new
// shared block), or copied from another SharedText (the same block).
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace contend {

class SharedText {
  public:
    SharedText() = default;
    SharedText(std::string s)  // NOLINT(google-explicit-constructor): reads as a string
        : m_s(s.empty() ? nullptr : std::make_shared<const std::string>(std::move(s))) {}
    SharedText(std::string_view s) : SharedText(std::string(s)) {}  // NOLINT(google-explicit-constructor)
    SharedText(const char* s) : SharedText(std::string(s)) {}       // NOLINT(google-explicit-constructor)

    const std::string& str() const { return m_s ? *m_s : empty_(); }
    operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)
    std::string_view view() const { return str(); }
    bool empty() const { return !m_s || m_s->empty(); }
    std::size_t size() const { return str().size(); }
    const char* c_str() const { return str().c_str(); }
    const char* data() const { return str().data(); }

    friend bool operator==(const SharedText& a, const SharedText& b) { return a.m_s == b.m_s || a.view() == b.view(); }
    friend bool operator==(const SharedText& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const SharedText& a, const std::string& b) { return a.view() == b; }
    friend bool operator==(const SharedText& a, const char* b) { return a.view() == b; }
    friend bool operator<(const SharedText& a, const SharedText& b) { return a.view() < b.view(); }
    friend std::string operator+(const SharedText& a, std::string_view b) { return a.str() + std::string(b); }
    friend std::string operator+(std::string a, const SharedText& b) { return std::move(a) += b.str(); }
    friend std::string operator+(const char* a, const SharedText& b) { return std::string(a) + b.str(); }
    friend std::ostream& operator<<(std::ostream& o, const SharedText& s) { return o << s.str(); }

  private:
    static const std::string& empty_() {
        static const std::string e;
        return e;
    }
    std::shared_ptr<const std::string> m_s;
};

}  // namespace contend
