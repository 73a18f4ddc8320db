#pragma once
// Helpers shared by the core tests: temporary files and loading inline traces.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

#include "core/io/load.h"
#include "test_paths.h"

namespace contend::test {

// A file under the build's temp folder, removed when the object dies.
class TempFile {
  public:
    explicit TempFile(const std::string& name, const std::string& content = {}) {
        m_path = (std::filesystem::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-" + name))
                     .string();
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

inline std::string sharedTraces() { return sharedTracesDir(); }

// Runs contend-cli with `args` (a shell word list), its output discarded; its exit code, -1 when
// it did not exit normally.
inline int runCli(const std::string& args) {
    const int status = std::system((contend::test::cliPath() + " " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// contend-cli's exit code (-1 when it did not exit normally or could not be started) and what it
// printed: stdout, and stderr too when `withStderr` (else stderr is discarded).
struct CliRun {
    int code = -1;
    std::string out;
};
inline CliRun runCliCapture(const std::string& args, bool withStderr = false) {
    CliRun r;
    const std::string cmd = contend::test::cliPath() + " " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (!pipe) return r;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
    const int status = ::pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The whole of a file, as bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
// Whether an atomic write (core/common/atomic_write.h) left its temporary, PATH.tmp-XXXXXX, next to
// `path`.
inline bool leftTemporary(const std::filesystem::path& path) {
    std::error_code ec;
    const std::string prefix = path.filename().string() + ".tmp";
    for (const auto& e : std::filesystem::directory_iterator(path.parent_path(), ec))
        if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
    return false;
}

inline bool haveSharedTraces() { return std::filesystem::is_directory(sharedTraces()); }

// Ends the test process as *skipped*: prints the marker CTest looks for (SKIP_REGULAR_EXPRESSION
// in tests/CMakeLists.txt) and exits. The exit code alone cannot say "skipped": Catch exits with
// the number of failed assertions, so a test with exactly that many failures would pass as skipped.
[[noreturn]] inline void skipTest() {
    std::fputs("contend-test-skipped\n", stdout);
    std::fflush(stdout);
    std::exit(4);
}

// A fresh folder under the system's temp folder, named by the process and `name`, removed (with
// what is in it) when it goes out of scope.
class TempDir {
  public:
    explicit TempDir(const std::string& name)
        : m_path(std::filesystem::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-" + name)) {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& n) const { return m_path / n; }

  private:
    std::filesystem::path m_path;
};

}  // namespace contend::test
