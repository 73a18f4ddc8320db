#include "core/report/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace contend {

namespace {

// An output stream buffer on a file descriptor, flushed in 1 MiB writes. A failed write sets
// failed() (and errno) and the stream's badbit.
class FdBuf : public std::streambuf {
  public:
    explicit FdBuf(int fd) : m_fd(fd), m_buf(1 << 20) { setp(m_buf.data(), m_buf.data() + m_buf.size()); }
    bool failed() const { return m_failed; }
    int savedErrno() const { return m_errno; }

  protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

  private:
    bool drain() {
        const char* p = pbase();
        while (!m_failed && p < pptr()) {
            const ssize_t w = ::write(m_fd, p, static_cast<std::size_t>(pptr() - p));
            if (w < 0) {
                if (errno == EINTR) continue;
                m_failed = true;
                m_errno = errno;
                break;
            }
            p += w;
        }
        setp(m_buf.data(), m_buf.data() + m_buf.size());
        return !m_failed;
    }

    int m_fd;
    std::vector<char> m_buf;
    bool m_failed = false;
    int m_errno = 0;
};

}  // namespace

std::optional<Failure> writeFileAtomically(const std::string& path, const std::string& content) {
    return writeFileAtomically(
        path, [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

std::optional<Failure> writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce) {
    auto fail = [&](const std::string& what) -> std::optional<Failure> {
        return Failure::of(Failure::Kind::Unreadable, what + ": " + std::strerror(errno), path);
    };
    // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on path + "...".
    static constexpr char kSuffix[] = ".tmp-XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.insert(name.end(), kSuffix, kSuffix + sizeof kSuffix);  // with the terminating NUL
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return fail("cannot create a temporary file next to it");
    const std::string tmp(name.data());
    auto cleanup = [&](const std::string& what) {
        const int saved = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        errno = saved;
        return fail(what);
    };
    {
        FdBuf buf(fd);
        std::ostream out(&buf);
        produce(out);
        out.flush();
        if (buf.failed() || !out) {
            errno = buf.failed() ? buf.savedErrno() : EIO;
            return cleanup("write failed");
        }
    }
    // mkstemp creates 0600; a report is an ordinary readable file. (Not umask(): reading it
    // means setting it, which races with other threads creating files.)
    ::fchmod(fd, 0644);
    if (::fsync(fd) != 0) return cleanup("fsync failed");
    if (::close(fd) != 0) {
        const int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return fail("close failed");
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return fail("cannot rename the temporary file into place");
    }
    // Make the rename itself durable.
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (dir.empty()) dir = std::filesystem::path(".");
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::nullopt;
}

}  // namespace contend
