#pragma once
// Where a written JSON (the simulator's trace and truth, the annotated trace) goes: a file
// written atomically (atomic_write.h: a temporary next to it, fsync'd and renamed into place
// only when complete, so a reader never sees half a trace), gzip (zlib) when asked or when the
// name ends in ".gz", or stdout for "-". Writes are buffered by the caller (JsonText) in large
// chunks. Failures are Failures of kind Unreadable naming the file.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/atomic_write.h"
#include "core/common/failure.h"

namespace contend {

class OutputSink {
  public:
    struct Options {
        bool gzip = false;  // also implied by a ".gz" suffix
        int gzipLevel = 6;  // zlib level 1 (fast) .. 9 (small)
    };

    // Opens `path` ("-" = stdout), or the Failure that stops it.
    static Result<std::unique_ptr<OutputSink>> open(const std::string& path, const Options& options);
    ~OutputSink();  // not finished: closes and removes the temporary file
    OutputSink(const OutputSink&) = delete;
    OutputSink& operator=(const OutputSink&) = delete;

    // Appends bytes; false (and failure()) once a write failed.
    bool write(std::string_view bytes);
    // Flushes, closes and puts the file in place. Nullopt when written; else the first failure
    // (of a write, or of this), the temporary removed.
    std::optional<Failure> finish();

    // The first failure so far (nullopt while all is well).
    const std::optional<Failure>& failure() const { return m_failure; }
    const std::string& path() const { return m_path; }
    bool gzip() const { return m_gz != nullptr; }
    std::uint64_t bytes() const { return m_bytes; }  // uncompressed bytes written

    static bool wantsGzip(const std::string& path, const Options& options);

  private:
    OutputSink() = default;
    void fail(const std::string& what);

    std::string m_path;
    std::optional<AtomicFile> m_file;  // none for stdout
    std::FILE* m_stream = nullptr;     // stdout, or a FILE on the temporary
    void* m_gz = nullptr;              // gzFile, kept opaque so zlib.h stays out of this header
    bool m_finished = false;
    std::uint64_t m_bytes = 0;
    std::optional<Failure> m_failure;
};

}  // namespace contend
