#pragma once
// How core says that something did not work: one typed Failure (what kind, where, why) and
// Result<T>, a value or a Failure (after Tracy's typed failures). Cancelling is a Failure of
// kind Cancelled, never a flag beside it or a reason text to compare. Code decides on `kind`;
// `reason` and message() are for people, never matched.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace contend {

struct Failure {
    enum class Kind : std::uint8_t {
        Other,        // not classified
        Unreadable,   // a file cannot be opened, read or written (missing, permissions, I/O)
        Malformed,    // a file is broken at a place (offset/line/column say where when known)
        NotATrace,    // readable, but not a format Contend reads
        OutOfMemory,  // the work would need more memory than its budget
        Cancelled,    // the caller's progress or keepGoing callback asked to stop
        Unsupported,  // this machine cannot do it (a CPU without AVX2)
        Internal,     // a bug in Contend
        Invalid,      // a request outside what is accepted (a simulator request, an option); nothing read
    };
    std::string file;          // the file it is about ("" when none)
    std::int64_t offset = -1;  // byte offset in the (decompressed) file, -1 if not about a place
    std::int64_t line = -1;    // 1-based
    std::int64_t column = -1;  // 1-based
    std::string reason;
    Kind kind = Kind::Other;

    // "trace.json: byte 1048576 (line 2301, column 17): expected ',' or '}'"; the reason alone
    // when there is no file.
    std::string message() const;
    bool isCancelled() const { return kind == Kind::Cancelled; }

    static Failure of(Kind kind, std::string reason, std::string file = {}) {
        Failure f;
        f.file = std::move(file);
        f.reason = std::move(reason);
        f.kind = kind;
        return f;
    }
    // The one cancelled failure: reason "cancelled", as the messages have always said.
    static Failure cancelled(std::string file = {}) { return of(Kind::Cancelled, "cancelled", std::move(file)); }
};

// A value, or the Failure that prevented it. value() on a failure throws std::bad_variant_access
// (a bug in the caller, which must test ok() first).
template <class T>
class Result {
  public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}            // NOLINT(google-explicit-constructor)
    Result(Failure failure) : m_v(std::in_place_index<1>, std::move(failure)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    bool cancelled() const { return !ok() && failure().isCancelled(); }

    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    const Failure& failure() const { return std::get<1>(m_v); }
    // The value's members, as for std::optional and std::expected (checked like value()).
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

  private:
    std::variant<T, Failure> m_v;
};

}  // namespace contend
