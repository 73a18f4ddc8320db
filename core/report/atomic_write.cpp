#include "core/report/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace contend {

bool writeFileAtomically(const std::string& path, const std::string& content, std::string* error) {
    auto fail = [&](const std::string& what) {
        if (error) *error = path + ": " + what + ": " + std::strerror(errno);
        return false;
    };
    // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on path + "...".
    static constexpr char kSuffix[] = ".tmp-XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.insert(name.end(), kSuffix, kSuffix + sizeof kSuffix);   // with the terminating NUL
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
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t w = ::write(fd, content.data() + done, content.size() - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            return cleanup("write failed");
        }
        done += static_cast<std::size_t>(w);
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
    return true;
}

}  // namespace contend
