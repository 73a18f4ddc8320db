#include "core/io/byte_source.h"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <vector>
#include <zlib.h>

namespace contend {

namespace {

class FileSource : public ByteSource {
  public:
    FileSource(std::FILE* f, std::uint64_t size) : m_file(f), m_size(size) {}
    ~FileSource() override { std::fclose(m_file); }
    std::size_t read(char* dst, std::size_t n) override {
        std::size_t got = std::fread(dst, 1, n, m_file);
        m_consumed += got;
        if (got < n && std::ferror(m_file)) m_error = std::string("read error: ") + std::strerror(errno);
        return got;
    }
    std::uint64_t sizeHint() const override { return m_size; }
    std::uint64_t consumed() const override { return m_consumed; }
    std::uint64_t fileSize() const override { return m_size; }

  private:
    std::FILE* m_file;
    std::uint64_t m_size;
    std::uint64_t m_consumed = 0;
};

// zlib inflate over a FILE*, handling concatenated gzip members.
class GzipSource : public ByteSource {
  public:
    GzipSource(std::FILE* f, std::uint64_t size, std::uint64_t isize)
        : m_file(f), m_size(size), m_isize(isize), m_in(1 << 20) {
        std::memset(&m_z, 0, sizeof(m_z));
        m_ok = inflateInit2(&m_z, 15 + 32) == Z_OK;  // 32: auto-detect gzip header
        if (!m_ok) m_error = "cannot initialise zlib";
    }
    ~GzipSource() override {
        inflateEnd(&m_z);
        std::fclose(m_file);
    }
    bool isGzip() const override { return true; }
    std::uint64_t sizeHint() const override { return m_isize; }
    std::uint64_t consumed() const override { return m_consumed; }
    std::uint64_t fileSize() const override { return m_size; }

    std::size_t read(char* dst, std::size_t n) override {
        if (!m_ok || m_done) return 0;
        m_z.next_out = reinterpret_cast<Bytef*>(dst);
        m_z.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
        const uInt want = m_z.avail_out;
        while (m_z.avail_out > 0) {
            if (m_z.avail_in == 0) {
                std::size_t got = std::fread(m_in.data(), 1, m_in.size(), m_file);
                m_consumed += got;
                if (got == 0) {
                    if (std::ferror(m_file))
                        m_error = std::string("read error: ") + std::strerror(errno);
                    else if (m_inMember) {
                        m_error = "the gzip data ends early (file cut short)";
                        m_truncated = true;
                    }
                    m_done = true;
                    break;
                }
                m_z.next_in = reinterpret_cast<Bytef*>(m_in.data());
                m_z.avail_in = static_cast<uInt>(got);
            }
            m_inMember = true;
            int rc = inflate(&m_z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                m_inMember = false;
                // Another member may follow (concatenated gzip); skip trailing zero padding.
                if (m_z.avail_in == 0) {
                    int c = std::fgetc(m_file);
                    if (c == EOF) {
                        m_done = true;
                        break;
                    }
                    std::ungetc(c, m_file);
                }
                inflateReset(&m_z);
            } else if (rc == Z_BUF_ERROR) {
                continue;  // needs more input
            } else if (rc != Z_OK) {
                m_error = std::string("corrupt gzip data") + (m_z.msg ? std::string(": ") + m_z.msg : "");
                m_done = true;
                break;
            }
        }
        return want - m_z.avail_out;
    }

  private:
    std::FILE* m_file;
    std::uint64_t m_size;
    std::uint64_t m_isize;
    std::vector<char> m_in;
    z_stream m_z;
    bool m_ok = false;
    bool m_done = false;
    bool m_inMember = false;
    std::uint64_t m_consumed = 0;
};

class MemorySource : public ByteSource {
  public:
    explicit MemorySource(std::string_view b) : m_bytes(b) {}
    std::size_t read(char* dst, std::size_t n) override {
        std::size_t k = std::min(n, m_bytes.size() - m_pos);
        std::memcpy(dst, m_bytes.data() + m_pos, k);
        m_pos += k;
        return k;
    }
    std::uint64_t sizeHint() const override { return m_bytes.size(); }
    std::uint64_t consumed() const override { return m_pos; }
    std::uint64_t fileSize() const override { return m_bytes.size(); }

  private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

class PrefetchSource : public ByteSource {
  public:
    explicit PrefetchSource(std::unique_ptr<ByteSource> inner) : m_inner(std::move(inner)) {
        m_fileSize = m_inner->fileSize();
        m_sizeHint = m_inner->sizeHint();
        m_gzip = m_inner->isGzip();
        m_thread = std::thread([this] { produce(); });
    }
    ~PrefetchSource() override {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    bool isGzip() const override { return m_gzip; }
    std::uint64_t sizeHint() const override { return m_sizeHint; }
    std::uint64_t consumed() const override { return m_consumed.load(std::memory_order_relaxed); }
    std::uint64_t fileSize() const override { return m_fileSize; }

    std::size_t read(char* dst, std::size_t n) override {
        std::size_t done = 0;
        while (done < n) {
            if (m_cur.size() == m_curPos) {
                std::unique_lock<std::mutex> lock(m_mutex);
                if (!m_cur.empty()) m_free.push_back(std::move(m_cur));
                m_cur.clear();
                m_curPos = 0;
                m_cv.notify_all();
                m_cv.wait(lock, [&] { return !m_full.empty() || m_finished; });
                if (m_full.empty()) {
                    m_error = m_innerError;
                    m_truncated = m_innerTruncated;
                    break;
                }
                m_cur = std::move(m_full.front());
                m_full.pop_front();
                m_cv.notify_all();
            }
            std::size_t k = std::min(n - done, m_cur.size() - m_curPos);
            std::memcpy(dst + done, m_cur.data() + m_curPos, k);
            m_curPos += k;
            done += k;
        }
        return done;
    }

  private:
    static constexpr std::size_t kBlock = 4u << 20;
    static constexpr std::size_t kDepth = 4;

    void produce() {
        for (;;) {
            std::vector<char> block;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_cv.wait(lock, [&] { return m_stop || m_full.size() < kDepth; });
                if (m_stop) break;
                if (!m_free.empty()) {
                    block = std::move(m_free.back());
                    m_free.pop_back();
                }
            }
            block.resize(kBlock);
            std::size_t got = 0;
            while (got < kBlock) {
                std::size_t k = m_inner->read(block.data() + got, kBlock - got);
                if (k == 0) break;
                got += k;
            }
            m_consumed.store(m_inner->consumed(), std::memory_order_relaxed);
            block.resize(got);
            std::lock_guard<std::mutex> lock(m_mutex);
            if (got) m_full.push_back(std::move(block));
            if (got < kBlock) {
                m_innerError = m_inner->error();
                m_innerTruncated = m_inner->truncated();
                m_finished = true;
                m_cv.notify_all();
                break;
            }
            m_cv.notify_all();
        }
    }

    std::unique_ptr<ByteSource> m_inner;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_sizeHint = 0;
    bool m_gzip = false;
    std::atomic<std::uint64_t> m_consumed{0};
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<char>> m_full;
    std::vector<std::vector<char>> m_free;
    std::vector<char> m_cur;
    std::size_t m_curPos = 0;
    bool m_finished = false;
    bool m_stop = false;
    std::string m_innerError;
    bool m_innerTruncated = false;
    std::thread m_thread;
};

}  // namespace

std::unique_ptr<ByteSource> prefetchByteSource(std::unique_ptr<ByteSource> inner) {
    return std::make_unique<PrefetchSource>(std::move(inner));
}

std::unique_ptr<ByteSource> openByteSource(const std::string& path, std::string& error) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = errno == ENOENT ? "no such file" : std::strerror(errno);
        return nullptr;
    }
    if (S_ISDIR(st.st_mode)) {
        error = "is a directory";
        return nullptr;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        error = errno == EACCES ? "permission denied" : std::strerror(errno);
        return nullptr;
    }
    auto size = static_cast<std::uint64_t>(st.st_size);
    unsigned char magic[2] = {0, 0};
    std::size_t got = std::fread(magic, 1, 2, f);
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        std::uint64_t isize = 0;
        if (size >= 18 && std::fseek(f, -4, SEEK_END) == 0) {
            unsigned char t[4];
            if (std::fread(t, 1, 4, f) == 4) isize = t[0] | (t[1] << 8) | (t[2] << 16) | (std::uint64_t(t[3]) << 24);
        }
        std::fseek(f, 0, SEEK_SET);
        return std::make_unique<GzipSource>(f, size, isize);
    }
    std::fseek(f, 0, SEEK_SET);
    std::setvbuf(f, nullptr, _IONBF, 0);  // we read in large blocks already
    return std::make_unique<FileSource>(f, size);
}

std::unique_ptr<ByteSource> memoryByteSource(std::string_view bytes) {
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
        static_cast<unsigned char>(bytes[1]) == 0x8b) {
        // gzip in memory (tests, fuzzers): inflate through a FILE* over the bytes.
        std::FILE* f = ::fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb");
        if (f) {
            std::uint64_t isize = 0;
            if (bytes.size() >= 18) {
                const auto* t = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size() - 4);
                isize = t[0] | (t[1] << 8) | (t[2] << 16) | (std::uint64_t(t[3]) << 24);
            }
            return std::make_unique<GzipSource>(f, bytes.size(), isize);
        }
    }
    return std::make_unique<MemorySource>(bytes);
}

}  // namespace contend
