#include "core/common/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <streambuf>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "core/common/parallel.h"

namespace contend {

namespace {

// An output stream buffer on a file descriptor, flushed in 4 MiB writes. With two cores a full
// buffer is written on a second thread while the producer fills the other one (a large report
// spends a third of its time in write(2) copying into the page cache); the writes stay in order
// (one in flight at a time). A failed write sets failed() (and errno) and the stream's badbit.
class FdBuf : public std::streambuf {
  public:
    explicit FdBuf(int fd) : m_fd(fd), m_buf(kBufBytes), m_back(twoCores() ? kBufBytes : 0) {
        setp(m_buf.data(), m_buf.data() + m_buf.size());
    }
    FdBuf(const FdBuf&) = delete;
    FdBuf& operator=(const FdBuf&) = delete;
    ~FdBuf() override { finish(); }
    bool failed() const { return m_failed; }
    int savedErrno() const { return m_errno; }

  protected:
    int_type overflow(int_type c) override {
        if (!drain(false)) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain(true) ? 0 : -1; }

  private:
    static constexpr std::size_t kBufBytes = std::size_t{4} << 20;

    // Waits for the write in flight, if any.
    void finish() {
        if (m_writer.joinable()) m_writer.join();
    }
    // Writes [p, end) to the file descriptor; sets m_failed and m_errno on an error.
    void writeAll(const char* p, const char* end) {
        while (!m_failed && p < end) {
            const ssize_t w = ::write(m_fd, p, static_cast<std::size_t>(end - p));
            if (w < 0) {
                if (errno == EINTR) continue;
                m_failed = true;
                m_errno = errno;
                break;
            }
            p += w;
        }
    }
    // Hands the filled part of the buffer to the file: on the writer thread (waiting for the
    // previous write first) unless `wait` (a flush: everything is on the file on return) or
    // there is no second buffer.
    bool drain(bool wait) {
        finish();
        const char* begin = pbase();
        const char* end = pptr();
        if (m_back.empty()) {
            writeAll(begin, end);
        } else if (begin < end && !m_failed) {
            m_buf.swap(m_back);  // m_back now holds the bytes to write; fill the other buffer
            m_writer = std::thread(
                [this, n = static_cast<std::size_t>(end - begin)] { writeAll(m_back.data(), m_back.data() + n); });
            if (wait) finish();
        }
        setp(m_buf.data(), m_buf.data() + m_buf.size());
        return !m_failed;
    }

    int m_fd;
    std::vector<char> m_buf;
    std::vector<char> m_back;  // the buffer being written (two cores only)
    std::thread m_writer;
    bool m_failed = false;  // written by the writer thread only while it runs (joined before read)
    int m_errno = 0;
};

}  // namespace

Result<AtomicFile> AtomicFile::create(const std::string& path) {
    AtomicFile f;
    f.m_path = path;
    // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on path + "...".
    static constexpr char kSuffix[] = ".tmp-XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.insert(name.end(), kSuffix, kSuffix + sizeof kSuffix);  // with the terminating NUL
    f.m_fd = ::mkstemp(name.data());
    if (f.m_fd < 0) return f.failure("cannot create a temporary file next to it", errno);
    f.m_tmp = name.data();
    return f;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_tmp(std::move(other.m_tmp)), m_fd(std::exchange(other.m_fd, -1)) {
    other.m_tmp.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
    if (this != &other) {
        discard();
        m_path = std::move(other.m_path);
        m_tmp = std::move(other.m_tmp);
        m_fd = std::exchange(other.m_fd, -1);
        other.m_tmp.clear();
    }
    return *this;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
    if (!m_tmp.empty()) ::unlink(m_tmp.c_str());
    m_tmp.clear();
}

Failure AtomicFile::failure(const std::string& what, int err) const {
    return Failure::of(Failure::Kind::Unreadable, what + ": " + std::strerror(err), m_path);
}

std::optional<Failure> AtomicFile::commit() {
    if (m_fd < 0 || m_tmp.empty()) return failure("not open", EBADF);
    auto undo = [&](const char* what) {
        const int saved = errno;
        discard();
        return failure(what, saved);
    };
    // mkstemp creates 0600; the files written are ordinary readable ones. (Not umask(): reading
    // it means setting it, which races with other threads creating files.)
    ::fchmod(m_fd, 0644);
    if (::fsync(m_fd) != 0) return undo("fsync failed");
    const int fd = std::exchange(m_fd, -1);
    if (::close(fd) != 0) return undo("close failed");
    if (::rename(m_tmp.c_str(), m_path.c_str()) != 0) return undo("cannot rename the temporary file into place");
    m_tmp.clear();
    // Make the rename itself durable.
    std::filesystem::path dir = std::filesystem::path(m_path).parent_path();
    if (dir.empty()) dir = std::filesystem::path(".");
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::nullopt;
}

std::optional<Failure> writeFileAtomically(const std::string& path, const std::string& content) {
    return writeFileAtomically(
        path, [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

std::optional<Failure> writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce) {
    Result<AtomicFile> file = AtomicFile::create(path);
    if (!file) return file.failure();
    {
        FdBuf buf(file->fd());
        std::ostream out(&buf);
        produce(out);
        out.flush();
        if (buf.failed() || !out) return file->failure("write failed", buf.failed() ? buf.savedErrno() : EIO);
    }
    return file->commit();
}

}  // namespace contend
