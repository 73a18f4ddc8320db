#include "core/io/load.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/io/ascend_db_reader.h"
#include "core/io/ascend_folder.h"
#include "core/io/byte_source.h"
#include "core/io/chrome_json_reader.h"
#include "core/io/conventions.h"
#include "core/io/memory_budget.h"
#include "core/io/nsys_sqlite_reader.h"
#include "core/io/sqlite_db.h"

namespace contend {

namespace fs = std::filesystem;

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

LoadResult finish(TraceBuilder& builder, const std::optional<Failure>& err, std::chrono::steady_clock::time_point t0) {
    if (err) return *err;
    builder.stats().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    conventions::tagByConventions(builder);  // after the side-file joins, which may set task types
    return builder.finalize();
}

// A folder with exactly one PyTorch trace file in it (as tensorboard writes them).
std::optional<std::string> singleKinetoFile(const fs::path& dir) {
    std::optional<std::string> found;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        auto ends = [&](std::string_view suf) {
            return n.size() >= suf.size() && n.compare(n.size() - suf.size(), suf.size(), suf) == 0;
        };
        if (e.is_regular_file() && (ends(".pt.trace.json") || ends(".pt.trace.json.gz"))) {
            if (found) return std::nullopt;
            found = e.path().string();
        }
    }
    return found;
}

}  // namespace

namespace {
std::optional<Failure> checkCpu([[maybe_unused]] const std::string& path) {
#if defined(CONTEND_PARSER_NEEDS_AVX2) && (defined(__x86_64__) || defined(__i386__))
    if (!__builtin_cpu_supports("avx2"))
        return Failure{path,
                       -1,
                       -1,
                       -1,
                       "this build of Contend needs a CPU with AVX2 (x86-64-v3) to read JSON",
                       Failure::Kind::Unsupported};
#endif
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

// What an Ascend folder's loader read, for `contend-cli info` and the app's source details.
void describeFolderRead(Source& src, const AscendFolder& folder) {
    src.folder = folder.root;
    std::string what = "the database export (" + fs::path(folder.database).filename().string() + ")";
    if (!folder.traceView.empty()) what += "; the text export beside it (trace_view.json and CSVs) was not read";
    src.details.emplace_back("read", what);
    if (!folder.analysisDb.empty())
        src.details.emplace_back("analysis.db", "beside it (summary tables; not needed to load)");
}

// An SQLite file: an Nsight Systems export or an Ascend profiler database goes to its reader;
// any other database is refused with a message that says what it is. `folder` is set when the
// database was found in an Ascend rank folder the user opened.
LoadResult loadSqlite(const std::string& file, const LoadOptions& options, std::chrono::steady_clock::time_point t0,
                      const AscendFolder* folder = nullptr) {
    std::string error;
    auto db = SqliteDb::open(file, error);
    const bool nsys = db && isNsysDatabase(*db, error);
    const bool ascend = db && !nsys && error.empty() && isAscendDatabase(*db, error);
    if (!db || !error.empty()) {
        return Failure{file, -1, -1, -1, "cannot read this SQLite database: " + error, Failure::Kind::Unreadable};
    }
    if (!nsys && !ascend) {
        const bool analysis = fs::path(file).filename() == "analysis.db";
        return Failure{file,
                       0,
                       -1,
                       -1,
                       analysis ? "an Ascend analysis.db holds summary tables only: open the "
                                  "ascend_pytorch_profiler_N.db beside it, or the rank folder"
                                : "an SQLite database that is neither an Nsight Systems export nor an Ascend "
                                  "profiler database (no CUPTI_ACTIVITY_KIND_KERNEL, no TASK and STRING_IDS tables)",
                       Failure::Kind::NotATrace};
    }
    TraceBuilder builder(nsys ? TraceFormat::NsysSqlite : TraceFormat::AscendDb);
    auto err = nsys ? readNsysSqlite(*db, file, builder, options) : readAscendDb(*db, file, builder, options);
    if (!err) {
        Source src;
        src.path = file;
        src.details = std::move(builder.source().details);
        src.devices = std::move(builder.source().devices);
        if (folder) describeFolderRead(src, *folder);
        builder.setSource(src);
        std::error_code ec;
        builder.stats().fileBytes = static_cast<std::uint64_t>(fs::file_size(file, ec));
    }
    return finish(builder, err, t0);
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
        return *e;
    }
    std::error_code ec;
    TraceBuilder builder;
    std::string file = path;
    std::optional<AscendFolder> ascend;
    std::string databaseError;
    if (fs::is_directory(path, ec)) {
        ascend = findAscendFolder(path);
        // A rank folder with both exports: the database holds the per-task PMU metrics. A
        // database that cannot be read falls back to the text export beside it, with a warning.
        if (ascend && !ascend->database.empty()) {
            LoadResult r = loadSqlite(ascend->database, options, t0, &*ascend);
            if (r || r.cancelled() || ascend->traceView.empty()) return r;
            databaseError = r.failure().message();
        }
        if (ascend) {
            file = ascend->traceView;
        } else if (auto k = singleKinetoFile(path)) {
            file = *k;
        } else {
            return Failure{path,
                           -1,
                           -1,
                           -1,
                           "no trace in this folder: expected ASCEND_PROFILER_OUTPUT/trace_view.json or "
                           "ascend_pytorch_profiler_N.db, trace_view.json, msprof_*.db, or one "
                           "*.pt.trace.json(.gz) file",
                           Failure::Kind::NotATrace};
        }
    } else if (fs::path(path).filename() == "trace_view.json") {
        // Opened inside ASCEND_PROFILER_OUTPUT: join the side files beside it as for the folder.
        std::string dir = fs::path(path).parent_path().string();
        ascend = findAscendFolder(dir.empty() ? "." : dir);
        if (ascend && ascend->kernelDetails.empty() && ascend->l2Cache.empty()) ascend.reset();
        if (ascend) file = path;
    }
    if (isSqliteFile(file)) return loadSqlite(file, options, t0);
    if (const std::string ext = fs::path(file).extension().string();
        (ext == ".db" || ext == ".sqlite") && fs::is_regular_file(file, ec)) {
        return Failure{file,
                       0,
                       -1,
                       -1,
                       "not an SQLite database: the file does not start with the SQLite header (\"SQLite format 3\"); "
                       "an empty, truncated or different file?",
                       Failure::Kind::NotATrace};
    }
    if (isNsysReport(file)) {
        return Failure{file,
                       -1,
                       -1,
                       -1,
                       "an Nsight Systems report: export it with `nsys export --type sqlite " +
                           fs::path(file).filename().string() + "` and open the .sqlite",
                       Failure::Kind::NotATrace};
    }
    SourceFactory open = [&](std::string& error) -> std::unique_ptr<ByteSource> {
        auto src = openByteSource(file, error);
        if (!src) return nullptr;
        // Inflating gzip takes a core: it runs ahead on a thread of its own. A plain file is read
        // straight into the reader's buffer (the kernel reads ahead of a sequential reader); a
        // thread in between would only add a copy of every byte.
        if (!src->isGzip()) return src;
        return prefetchByteSource(std::move(src));
    };
    auto err = readChromeJson(open, file, builder, options);
    if (!err) {
        Source src;
        src.path = file;
        std::string e2;
        if (auto s = openByteSource(file, e2)) src.gzip = s->isGzip();
        if (ascend) {
            src.folder = ascend->root;
            builder.setFormat(TraceFormat::AscendFolder);
        }
        builder.setSource(src);
        if (ascend) {
            const int rank = ascendRank(ascend->root);
            if (rank >= 0) builder.setDistributed(rank, 0);
        }
        if (ascend && options.joinSideFiles) {
            // The trace is what the user opened; a broken side file costs its metrics, not the load.
            if (auto sideErr = joinAscendSideFiles(builder, *ascend, effectiveMemoryBudget(options)))
                builder.warn(ImportProblem::SideFileNotJoined, sideErr->message());
        }
        if (!databaseError.empty()) builder.warn(ImportProblem::DatabaseExportNotRead, databaseError);
    }
    return finish(builder, err, t0);
}

static LoadResult loadTraceFromMemoryImpl(std::string_view json, const std::string& name, const LoadOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto e = checkCpu(name)) {
        return *e;
    }
    TraceBuilder builder;
    SourceFactory open = [&](std::string&) { return memoryByteSource(json); };
    auto err = readChromeJson(open, name, builder, options);
    if (!err) {
        Source src;
        src.path = name;
        builder.setSource(src);
    }
    return finish(builder, err, t0);
}

namespace {
// The readers report bad input as Failures; what is left to catch here is running out of
// memory (a failed allocation where the budget's estimate fell short) and bugs: either way the
// caller gets a message naming the file, not a terminated process.
template <typename F>
LoadResult guarded(const std::string& name, F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return Failure{name,
                       -1,
                       -1,
                       -1,
                       "out of memory while loading (the trace needs more memory than this machine has free)",
                       Failure::Kind::OutOfMemory};
    } catch (const std::exception& e) {
        return Failure{
            name, -1, -1, -1, std::string("internal error while loading: ") + e.what(), Failure::Kind::Internal};
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
