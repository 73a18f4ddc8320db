#pragma once
// Sequential byte sources for the readers: a plain file, a gzip file (streamed through zlib, so
// a compressed trace is never held twice), or a memory block. Sniffs gzip by its magic bytes, not
// by the file name.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace contend {

class ByteSource {
  public:
    virtual ~ByteSource() = default;
    // Reads up to n bytes; returns the count (0 at end). Sets error() on failure.
    virtual std::size_t read(char* dst, std::size_t n) = 0;
    virtual bool isGzip() const { return false; }
    // Total (decompressed) size when known cheaply, else 0. For gzip it is the ISIZE trailer,
    // which is the size modulo 4 GiB: use it as a hint only.
    virtual std::uint64_t sizeHint() const { return 0; }
    // Bytes of the underlying file consumed so far (for progress).
    virtual std::uint64_t consumed() const = 0;
    virtual std::uint64_t fileSize() const = 0;
    // Non-empty after a read failure: "unexpected end of gzip data", "read error: ...".
    const std::string& error() const { return m_error; }
    // True when a gzip stream ended before its trailer (a cut-short download).
    bool truncated() const { return m_truncated; }

  protected:
    std::string m_error;
    bool m_truncated = false;
};

// Opens a file and returns a source for its bytes (decompressing gzip). On failure returns null
// and sets `error` to a plain reason ("no such file", "is a directory", "permission denied").
std::unique_ptr<ByteSource> openByteSource(const std::string& path, std::string& error);
// Bytes in memory; gzip data (by its magic) is inflated. The bytes must outlive the source.
std::unique_ptr<ByteSource> memoryByteSource(std::string_view bytes);
// Reads (and inflates) `inner` ahead on a background thread, a few MB at a time, so that I/O and
// gzip decompression overlap with parsing on a second core.
std::unique_ptr<ByteSource> prefetchByteSource(std::unique_ptr<ByteSource> inner);

}  // namespace contend
