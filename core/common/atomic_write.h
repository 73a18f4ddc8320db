#pragma once
// The one way core writes a whole file, so that readers see either the old content or the new,
// never half of it: the bytes go to PATH.tmp-XXXXXX in the same folder, the file is flushed to
// disk (fsync), renamed over PATH, and the folder is flushed too (so the rename survives a
// crash). On any failure the temporary is removed, PATH is untouched, and the Failure (kind
// Unreadable) names PATH: "PATH: cannot create a temporary file next to it: No such file or
// directory". The report writers, OutputSink (the simulator's and annotate's streamed JSON),
// the simulator's SQLite writer and the app's save functions all write through it.
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "core/common/failure.h"

namespace contend {

// A temporary file next to its destination, renamed into place by commit(). Move-only; one
// never committed (an early return, a failure) is closed and removed when it dies.
class AtomicFile {
  public:
    // Creates the temporary (mode 0644 once committed).
    static Result<AtomicFile> create(const std::string& path);
    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&& other) noexcept;
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();

    const std::string& path() const { return m_path; }
    // The temporary's name and descriptor, to write through (until commit).
    const std::string& tempPath() const { return m_tmp; }
    int fd() const { return m_fd; }

    // fsync, close, rename over path(), fsync the folder. Nullopt when in place; else the
    // Failure, the temporary removed.
    std::optional<Failure> commit();
    // Closes and removes the temporary without touching path() (also what the destructor does).
    void discard();
    // A Failure about path(): "`what`: strerror(err)", kind Unreadable.
    Failure failure(const std::string& what, int err) const;

  private:
    AtomicFile() = default;
    std::string m_path, m_tmp;
    int m_fd = -1;
};

// The whole of `content`, atomically as above. Nullopt when written.
std::optional<Failure> writeFileAtomically(const std::string& path, const std::string& content);

// The same, for content too big to hold as one string: `produce` writes it to a stream whose
// bytes go to the temporary file through a 1 MiB buffer. When the stream fails (disk full),
// PATH is left untouched.
std::optional<Failure> writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce);

}  // namespace contend
