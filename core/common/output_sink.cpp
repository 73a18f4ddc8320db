#include "core/common/output_sink.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <utility>
#include <zlib.h>

namespace contend {

namespace {

gzFile gz(void* p) { return static_cast<gzFile>(p); }

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool OutputSink::wantsGzip(const std::string& path, const Options& options) {
    return options.gzip || endsWith(path, ".gz");
}

Result<std::unique_ptr<OutputSink>> OutputSink::open(const std::string& path, const Options& options) {
    std::unique_ptr<OutputSink> sink(new OutputSink());
    sink->m_path = path;
    const bool useGzip = wantsGzip(path, options);
    const std::string mode = "wb" + std::to_string(std::clamp(options.gzipLevel, 1, 9));
    // The stream or gzip writer gets its own descriptor (a dup), closed when it is; the
    // AtomicFile keeps the temporary's for the fsync and the rename.
    int fd = -1;
    if (path == "-") {
        std::fflush(stdout);
        if (!useGzip) {
            sink->m_stream = stdout;
            return sink;
        }
        fd = ::dup(fileno(stdout));
    } else {
        Result<AtomicFile> file = AtomicFile::create(path);
        if (!file) return file.failure();
        sink->m_file.emplace(std::move(file).value());
        fd = ::dup(sink->m_file->fd());
    }
    if (fd >= 0) {
        if (useGzip) {
            sink->m_gz = gzdopen(fd, mode.c_str());
        } else {
            sink->m_stream = ::fdopen(fd, "wb");
        }
    }
    if (!sink->m_gz && !sink->m_stream) {
        const int err = errno ? errno : EIO;
        if (fd >= 0) ::close(fd);
        return Failure::of(Failure::Kind::Unreadable,
                           std::string(useGzip ? "cannot write gzip: " : "cannot write: ") + std::strerror(err),
                           path == "-" ? std::string("stdout") : path);
    }
    if (sink->m_gz) gzbuffer(gz(sink->m_gz), 1u << 18);
    return sink;
}

OutputSink::~OutputSink() {
    if (m_finished) return;
    if (m_gz) gzclose(gz(m_gz));
    if (m_stream && m_stream != stdout) std::fclose(m_stream);
    // m_file, never committed, removes the temporary.
}

void OutputSink::fail(const std::string& what) {
    if (!m_failure) m_failure = Failure::of(Failure::Kind::Unreadable, "cannot write: " + what, m_path);
}

bool OutputSink::write(std::string_view bytes) {
    if (m_failure) return false;
    if (bytes.empty()) return true;
    if (m_gz) {
        // gzwrite takes an unsigned count; feed large buffers in pieces.
        std::size_t done = 0;
        while (done < bytes.size()) {
            const unsigned piece = static_cast<unsigned>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
            if (gzwrite(gz(m_gz), bytes.data() + done, piece) != static_cast<int>(piece)) {
                int code = 0;
                const char* msg = gzerror(gz(m_gz), &code);
                fail(code == Z_ERRNO ? std::strerror(errno) : msg);
                return false;
            }
            done += piece;
        }
    } else if (std::fwrite(bytes.data(), 1, bytes.size(), m_stream) != bytes.size()) {
        fail(std::strerror(errno));
        return false;
    }
    m_bytes += bytes.size();
    return true;
}

std::optional<Failure> OutputSink::finish() {
    if (m_finished) return m_failure;
    m_finished = true;
    if (m_gz) {
        if (gzclose(gz(m_gz)) != Z_OK) fail("gzip close failed");
        m_gz = nullptr;
    }
    if (m_stream) {
        if (std::fflush(m_stream) != 0) fail(std::strerror(errno));
        if (m_stream != stdout && std::fclose(m_stream) != 0) fail(std::strerror(errno));
        m_stream = nullptr;
    }
    if (m_file) {
        if (!m_failure) {
            if (std::optional<Failure> f = m_file->commit()) m_failure = std::move(f);
        }
        m_file.reset();  // removes the temporary when it was not committed
    }
    return m_failure;
}

}  // namespace contend
