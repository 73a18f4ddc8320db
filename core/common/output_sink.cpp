#include "core/common/output_sink.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>
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

std::unique_ptr<OutputSink> OutputSink::open(const std::string& path, const Options& options, std::string& error) {
    std::unique_ptr<OutputSink> sink(new OutputSink());
    sink->m_path = path;
    const bool useGzip = wantsGzip(path, options);
    const std::string mode = "wb" + std::to_string(std::clamp(options.gzipLevel, 1, 9));
    if (path == "-") {
        if (useGzip) {
            std::fflush(stdout);
            sink->m_gz = gzdopen(dup(fileno(stdout)), mode.c_str());
            if (!sink->m_gz) {
                error = "cannot write gzip to stdout";
                return nullptr;
            }
        } else {
            sink->m_file = stdout;
        }
    } else {
        sink->m_tmpPath = path + ".tmp";
        sink->m_ownsFile = true;
        if (useGzip) {
            sink->m_gz = gzopen(sink->m_tmpPath.c_str(), mode.c_str());
        } else {
            sink->m_file = std::fopen(sink->m_tmpPath.c_str(), "wb");
        }
        if (!sink->m_gz && !sink->m_file) {
            error = "cannot write " + path + ": " + std::strerror(errno);
            return nullptr;
        }
    }
    if (sink->m_gz) gzbuffer(gz(sink->m_gz), 1u << 18);
    return sink;
}

OutputSink::~OutputSink() {
    if (m_finished) return;
    if (m_gz) gzclose(gz(m_gz));
    if (m_file && m_ownsFile) std::fclose(m_file);
    if (!m_tmpPath.empty()) std::remove(m_tmpPath.c_str());
}

void OutputSink::fail(const std::string& what) {
    if (m_error.empty()) m_error = "cannot write " + m_path + ": " + what;
}

bool OutputSink::write(std::string_view bytes) {
    if (!m_error.empty()) return false;
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
    } else if (std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size()) {
        fail(std::strerror(errno));
        return false;
    }
    m_bytes += bytes.size();
    return true;
}

bool OutputSink::finish() {
    if (m_finished) return m_error.empty();
    m_finished = true;
    if (m_gz) {
        if (gzclose(gz(m_gz)) != Z_OK) fail("gzip close failed");
        m_gz = nullptr;
    }
    if (m_file) {
        if (std::fflush(m_file) != 0) fail(std::strerror(errno));
        if (m_ownsFile && std::fclose(m_file) != 0) fail(std::strerror(errno));
        m_file = nullptr;
    }
    if (!m_tmpPath.empty()) {
        if (m_error.empty() && std::rename(m_tmpPath.c_str(), m_path.c_str()) != 0) fail(std::strerror(errno));
        if (!m_error.empty()) std::remove(m_tmpPath.c_str());
    }
    return m_error.empty();
}

}  // namespace contend
