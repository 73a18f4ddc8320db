#include "core/io/load.h"

#include <fstream>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/io/ascend_folder.h"
#include "core/io/byte_source.h"
#include "core/io/chrome_json_reader.h"
#include "core/io/memory_budget.h"
#include "core/io/nsys_sqlite_reader.h"
#include "core/io/sqlite_db.h"

namespace contend {

namespace fs = std::filesystem;

std::string LoadError::message() const {
    std::string m = file.empty() ? std::string("<input>") : file;
    m += ": ";
    if (offset >= 0) {
        m += "byte " + std::to_string(offset);
        if (line > 0) m += " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
        m += ": ";
    }
    m += reason;
    return m;
}

std::optional<std::uint64_t> memoryLimitFromEnvironment() {
    const char* v = std::getenv("CONTEND_MAX_MEMORY");
    if (!v || !*v) return std::nullopt;
    return parseMemorySize(v);
}

std::uint64_t effectiveMemoryBudget(const LoadOptions& options) {
    if (options.memoryLimitBytes != 0) return options.memoryLimitBytes;
    if (auto env = memoryLimitFromEnvironment()) return *env;
    auto avail = availableMemoryBytes();
    if (!avail) return kNoMemoryLimit;
    return *avail / 4 * 3;
}

namespace {

LoadResult finish(TraceBuilder& builder, const std::optional<LoadError>& err, bool cancelled,
                  std::chrono::steady_clock::time_point t0) {
    LoadResult r;
    r.cancelled = cancelled;
    if (err) {
        r.error = err;
        return r;
    }
    builder.stats().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.trace = builder.finalize();
    return r;
}

// A folder with exactly one PyTorch trace file in it (as tensorboard writes them).
std::optional<std::string> singleKinetoFile(const fs::path& dir) {
    std::optional<std::string> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        auto ends = [&](std::string_view suf) { return n.size() >= suf.size() && n.compare(n.size() - suf.size(), suf.size(), suf) == 0; };
        if (e.is_regular_file() && (ends(".pt.trace.json") || ends(".pt.trace.json.gz"))) {
            if (found) return std::nullopt;
            found = e.path().string();
        }
    }
    return found;
}

}  // namespace

namespace {
std::optional<LoadError> checkCpu(const std::string& path) {
#if defined(CONTEND_PARSER_NEEDS_AVX2) && (defined(__x86_64__) || defined(__i386__))
    if (!__builtin_cpu_supports("avx2"))
        return LoadError{path, -1, -1, -1, "this build of Contend needs a CPU with AVX2 (x86-64-v3) to read JSON"};
#endif
    (void)path;
    return std::nullopt;
}
}  // namespace

namespace {

// SQLite's file header: "SQLite format 3" and a NUL.
bool isSqliteFile(const std::string& file) {
    std::ifstream f(file, std::ios::binary);
    char head[16] = {};
    if (!f.read(head, sizeof head)) return false;
    return std::string_view(head, 15) == "SQLite format 3" && head[15] == '\0';
}

// An Nsight Systems report (.nsys-rep, or .qdrep before 2021.3): a container Nsight opens, not
// SQLite. Known by its extension.
bool isNsysReport(const std::string& file) {
    const std::string ext = fs::path(file).extension().string();
    return ext == ".nsys-rep" || ext == ".qdrep";
}

// An SQLite file: an Nsight Systems export goes to its reader; any other database (an Ascend
// profiler db export, say) is refused with a message that says what it is.
LoadResult loadSqlite(const std::string& file, const LoadOptions& options, std::chrono::steady_clock::time_point t0) {
    LoadResult r;
    std::string error;
    auto db = SqliteDb::open(file, error);
    const bool nsys = db && isNsysDatabase(*db, error);
    if (!db || !error.empty()) {
        r.error = LoadError{file, -1, -1, -1, "cannot read this SQLite database: " + error};
        return r;
    }
    if (!nsys) {
        r.error = LoadError{file, 0, -1, -1,
                            "an SQLite database that is not an Nsight Systems export (an Ascend profiler db "
                            "export?): Contend does not read it yet; open a PyTorch/Kineto or Chrome JSON trace, an "
                            "Ascend profiler folder exported as text, or an Nsight Systems SQLite export"};
        return r;
    }
    TraceBuilder builder("nsys-sqlite");
    bool cancelled = false;
    auto err = readNsysSqlite(*db, file, builder, options, &cancelled);
    if (!err) {
        Source src;
        src.path = file;
        src.details = std::move(builder.source().details);
        builder.setSource(src);
        std::error_code ec;
        builder.stats().fileBytes = static_cast<std::uint64_t>(fs::file_size(file, ec));
    }
    return finish(builder, err, cancelled, t0);
}

bool hasDatabaseExport(const std::string& dir) {
    std::error_code ec;
    for (const std::string& sub : {std::string("ASCEND_PROFILER_OUTPUT"), std::string()}) {
        const fs::path d = sub.empty() ? fs::path(dir) : fs::path(dir) / sub;
        if (!fs::is_directory(d, ec)) continue;
        for (const auto& e : fs::directory_iterator(d, ec))
            if (e.path().extension() == ".db") return true;
    }
    return false;
}

}  // namespace

// The rank of an Ascend profiler folder: N of the profiler_info_N.json beside
// ASCEND_PROFILER_OUTPUT (the rank folder, or the parent of the output folder); -1 when none.
static int ascendRank(const std::string& root) {
    std::error_code ec;
    for (const fs::path& dir : {fs::path(root), fs::path(root).parent_path()}) {
        if (dir.empty() || !fs::is_directory(dir, ec)) continue;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            const std::string name = e.path().filename().string();
            constexpr std::string_view kPrefix = "profiler_info_";
            if (name.rfind(kPrefix, 0) != 0 || name.size() <= kPrefix.size() + 5 ||
                name.compare(name.size() - 5, 5, ".json") != 0)
                continue;
            const std::string digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - 5);
            if (digits.empty() || digits.size() > 6 ||
                !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
                continue;
            return std::stoi(digits);
        }
    }
    return -1;
}

static LoadResult loadTraceImpl(const std::string& path, const LoadOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto e = checkCpu(path)) {
        LoadResult r;
        r.error = e;
        return r;
    }
    std::error_code ec;
    TraceBuilder builder("chrome");
    std::string file = path;
    std::optional<AscendFolder> ascend;
    if (fs::is_directory(path, ec)) {
        ascend = findAscendFolder(path);
        if (ascend) {
            file = ascend->traceView;
        } else if (auto k = singleKinetoFile(path)) {
            file = *k;
        } else {
            LoadResult r;
            r.error = LoadError{path, -1, -1, -1,
                                hasDatabaseExport(path)
                                    ? "this folder holds an Ascend profiler db export (ASCEND_PROFILER_OUTPUT/*.db), "
                                      "which Contend does not read yet: export the profile as text "
                                      "(trace_view.json, kernel_details.csv) and open that"
                                    : "no trace in this folder: expected ASCEND_PROFILER_OUTPUT/trace_view.json, "
                                      "trace_view.json, or one *.pt.trace.json(.gz) file"};
            return r;
        }
    } else if (fs::path(path).filename() == "trace_view.json") {
        // Opened inside ASCEND_PROFILER_OUTPUT: join the side files beside it as for the folder.
        std::string dir = fs::path(path).parent_path().string();
        ascend = findAscendFolder(dir.empty() ? "." : dir);
        if (ascend && ascend->kernelDetails.empty() && ascend->l2Cache.empty()) ascend.reset();
        if (ascend) file = path;
    }
    if (isSqliteFile(file)) return loadSqlite(file, options, t0);
    if (isNsysReport(file)) {
        LoadResult r;
        r.error = LoadError{file, -1, -1, -1,
                            "an Nsight Systems report: export it with `nsys export --type sqlite " +
                                fs::path(file).filename().string() + "` and open the .sqlite"};
        return r;
    }
    bool cancelled = false;
    SourceFactory open = [&](std::string& error) -> std::unique_ptr<ByteSource> {
        auto src = openByteSource(file, error);
        if (!src) return nullptr;
        return prefetchByteSource(std::move(src));
    };
    auto err = readChromeJson(open, file, builder, options, &cancelled);
    if (!err) {
        Source src;
        src.path = file;
        std::string e2;
        if (auto s = openByteSource(file, e2)) src.gzip = s->isGzip();
        if (ascend) {
            src.folder = ascend->root;
            builder.setFormat("ascend-folder");
        }
        builder.setSource(src);
        if (ascend) {
            const int rank = ascendRank(ascend->root);
            if (rank >= 0) builder.setDistributed(rank, 0);
        }
        if (ascend && options.joinSideFiles) {
            // The trace is what the user opened; a broken side file costs its metrics, not the load.
            if (auto sideErr = joinAscendSideFiles(builder, *ascend, effectiveMemoryBudget(options)))
                builder.warn("side file not joined", sideErr->message());
        }
    }
    return finish(builder, err, cancelled, t0);
}

static LoadResult loadTraceFromMemoryImpl(std::string_view json, const std::string& name, const LoadOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto e = checkCpu(name)) {
        LoadResult r;
        r.error = e;
        return r;
    }
    TraceBuilder builder("chrome");
    bool cancelled = false;
    SourceFactory open = [&](std::string&) { return memoryByteSource(json); };
    auto err = readChromeJson(open, name, builder, options, &cancelled);
    if (!err) {
        Source src;
        src.path = name;
        builder.setSource(src);
    }
    return finish(builder, err, cancelled, t0);
}

namespace {
// The readers report bad input as LoadErrors; what is left to catch here is running out of
// memory (a failed allocation where the budget's estimate fell short) and bugs: either way the
// caller gets a message naming the file, not a terminated process.
template <typename F>
LoadResult guarded(const std::string& name, F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        LoadResult r;
        r.error = LoadError{name, -1, -1, -1,
                            "out of memory while loading (the trace needs more memory than this machine has free)"};
        return r;
    } catch (const std::exception& e) {
        LoadResult r;
        r.error = LoadError{name, -1, -1, -1, std::string("internal error while loading: ") + e.what()};
        return r;
    }
}
}  // namespace

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    return guarded(path, [&] { return loadTraceImpl(path, options); });
}

LoadResult loadTraceFromMemory(std::string_view json, const std::string& name, const LoadOptions& options) {
    return guarded(name, [&] { return loadTraceFromMemoryImpl(json, name, options); });
}

}  // namespace contend
