#pragma once
// Helpers shared by the core tests: temporary files and loading inline traces.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/io/load.h"

namespace contend::test {

// A file under the build's temp folder, removed when the object dies.
class TempFile {
public:
    explicit TempFile(const std::string& name, const std::string& content = {}) {
        m_path = (std::filesystem::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-" + name)).string();
        if (!content.empty() || name.find(".empty") != std::string::npos) write(content);
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    void write(const std::string& content) const {
        std::ofstream f(m_path, std::ios::binary);
        f << content;
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

inline LoadResult loadString(const std::string& json, const std::string& name = "inline.json",
                             std::size_t chunk = 8u << 20) {
    LoadOptions o;
    o.chunkBytes = chunk;
    return loadTraceFromMemory(json, name, o);
}

inline std::string sharedTraces() { return CONTEND_SHARED_TRACES; }
inline bool haveSharedTraces() { return std::filesystem::is_directory(sharedTraces()); }

}  // namespace contend::test
