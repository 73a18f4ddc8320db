#pragma once
// Where a written JSON (the simulator's trace and truth, the annotated trace) goes: a file (written as FILE.tmp and renamed into place only when
// complete, so a reader never sees half a trace), gzip (zlib) when asked or when the name ends
// in ".gz", or stdout for "-". Writes are buffered by the caller (JsonText) in large chunks.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace contend {

class OutputSink {
  public:
    struct Options {
        bool gzip = false;  // also implied by a ".gz" suffix
        int gzipLevel = 6;  // zlib level 1 (fast) .. 9 (small)
    };

    // Opens `path` ("-" = stdout). Returns null and sets `error` when it cannot.
    static std::unique_ptr<OutputSink> open(const std::string& path, const Options& options, std::string& error);
    ~OutputSink();  // not finished: closes and removes the temporary file
    OutputSink(const OutputSink&) = delete;
    OutputSink& operator=(const OutputSink&) = delete;

    // Appends bytes; false (and error()) once a write failed.
    bool write(std::string_view bytes);
    // Flushes, closes and renames the temporary file into place.
    bool finish();

    const std::string& error() const { return m_error; }
    const std::string& path() const { return m_path; }
    bool gzip() const { return m_gz != nullptr; }
    std::uint64_t bytes() const { return m_bytes; }  // uncompressed bytes written

    static bool wantsGzip(const std::string& path, const Options& options);

  private:
    OutputSink() = default;
    void fail(const std::string& what);

    std::string m_path;
    std::string m_tmpPath;  // empty for stdout
    std::FILE* m_file = nullptr;
    void* m_gz = nullptr;  // gzFile, kept opaque so zlib.h stays out of this header
    bool m_ownsFile = false;
    bool m_finished = false;
    std::uint64_t m_bytes = 0;
    std::string m_error;
};

}  // namespace contend
