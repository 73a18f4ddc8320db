#include "core/io/json/ascend_folder.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

#include "core/io/db/ascend_db_reader.h"
#include "core/io/json/chrome_json_reader.h"
#include "core/trace/conventions.h"

namespace contend {

namespace fs = std::filesystem;

namespace {

bool startsWith(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }
bool endsWith(const std::string& s, std::string_view suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// The profiler database in `dir`: ascend_pytorch_profiler*.db first, else msprof_*.db (the
// first by name when a folder holds several).
std::string databaseIn(const fs::path& dir) {
    std::error_code ec;
    std::vector<std::string> torch, msprof;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string n = e.path().filename().string();
        if (!e.is_regular_file(ec) || !endsWith(n, ".db")) continue;
        if (startsWith(n, "ascend_pytorch_profiler"))
            torch.push_back(e.path().string());
        else if (startsWith(n, "msprof_"))
            msprof.push_back(e.path().string());
    }
    std::sort(torch.begin(), torch.end());
    std::sort(msprof.begin(), msprof.end());
    if (!torch.empty()) return torch.front();
    return msprof.empty() ? std::string() : msprof.front();
}

}  // namespace

std::optional<AscendFolder> findAscendFolder(const std::string& dir) {
    std::error_code ec;
    fs::path root(dir);
    fs::path out;
    std::string database;
    for (const fs::path& d : {root / "ASCEND_PROFILER_OUTPUT", root}) {
        if (!fs::is_directory(d, ec)) continue;
        if (out.empty() && fs::is_regular_file(d / "trace_view.json", ec)) out = d;
        if (database.empty()) {
            database = databaseIn(d);
            if (!database.empty() && out.empty() && !fs::is_regular_file(d / "trace_view.json", ec)) out = d;
        }
    }
    if (out.empty()) return std::nullopt;
    AscendFolder f;
    f.root = root.string();
    if (fs::is_regular_file(out / "trace_view.json", ec)) f.traceView = (out / "trace_view.json").string();
    f.database = database;
    if (!database.empty() && fs::is_regular_file(fs::path(database).parent_path() / "analysis.db", ec))
        f.analysisDb = (fs::path(database).parent_path() / "analysis.db").string();
    if (fs::is_regular_file(out / "kernel_details.csv", ec))
        f.kernelDetails.push_back((out / "kernel_details.csv").string());
    // msprof layout: op_summary_*.csv beside the trace or under mindstudio_profiler_output/.
    for (const fs::path& d : {out, root / "mindstudio_profiler_output"}) {
        if (!fs::is_directory(d, ec)) continue;
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(d, ec)) {
            std::string n = e.path().filename().string();
            if (n.rfind("op_summary", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".csv")
                found.push_back(e.path().string());
        }
        std::sort(found.begin(), found.end());
        f.kernelDetails.insert(f.kernelDetails.end(), found.begin(), found.end());
    }
    if (fs::is_regular_file(out / "l2_cache.csv", ec)) f.l2Cache = (out / "l2_cache.csv").string();
    return f;
}

double ascendTextCounterValue(std::string_view name, std::string_view key, double value) {
    constexpr std::string_view kSuffix = "/Hit Rate";
    const bool llcHitRate = name.rfind("LLC ", 0) == 0 && name.size() > kSuffix.size() &&
                            name.substr(name.size() - kSuffix.size()) == kSuffix && key == "Hit Rate(%)";
    return llcHitRate ? value * 100.0 : value;
}

namespace {

// The rank of an Ascend profiler folder: N of the profiler_info_N.json beside
// ASCEND_PROFILER_OUTPUT (the rank folder, or the parent of the output folder); -1 when none.
int ascendRank(const std::string& root) {
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

// What an Ascend folder's loader read, for `contend-cli info` and the app's source details.
void describeFolderRead(Source& src, const AscendFolder& folder) {
    src.folder = folder.root;
    std::string what = "the database export (" + fs::path(folder.database).filename().string() + ")";
    if (!folder.traceView.empty()) what += "; the text export beside it (trace_view.json and CSVs) was not read";
    src.details.emplace_back("read", what);
    if (!folder.analysisDb.empty())
        src.details.emplace_back("analysis.db", "beside it (summary tables; not needed to load)");
}

// The folder of a trace_view.json opened as a file, when it has side files to join.
std::optional<AscendFolder> folderOfTraceView(const Probe& p) {
    if (p.sqlite || p.filename() != "trace_view.json") return std::nullopt;
    const std::string dir = fs::path(p.path).parent_path().string();
    auto folder = findAscendFolder(dir.empty() ? "." : dir);
    if (!folder || (folder->kernelDetails.empty() && folder->l2Cache.empty())) return std::nullopt;
    return folder;
}

std::optional<AscendFolder> folderOf(const Probe& p) {
    return p.isDirectory ? findAscendFolder(p.path) : folderOfTraceView(p);
}

std::optional<Failure> readAscendFolder(const Probe& p, TraceBuilder& b, const LoadOptions& options) {
    const std::optional<AscendFolder> found = folderOf(p);
    if (!found) return Failure{p.path, -1, -1, -1, "the Ascend profiler folder is gone", Failure::Kind::Unreadable};
    const AscendFolder& folder = *found;
    std::string databaseError;
    // A rank folder with both exports: the database holds the per-task PMU metrics. A database
    // that cannot be read falls back to the text export beside it, with a warning.
    if (p.isDirectory && !folder.database.empty()) {
        TraceBuilder db;
        // The Ascend database reader itself, not the reader table (which lists this reader).
        const Probe probe = probeDatabase(folder.database);
        auto err = kAscendDbReader.sniff(probe) ? kAscendDbReader.read(probe, db, options)
                                                : refuseDatabase(probe, kAscendDbFormat);
        if (!err) {
            Source src = db.source();
            describeFolderRead(src, folder);
            db.setSource(src);
            b = std::move(db);
            return std::nullopt;
        }
        if (err->isCancelled() || folder.traceView.empty()) return err;
        databaseError = err->message();
    }
    auto err = readJsonFile(p.isDirectory ? folder.traceView : p.path, b, options);
    if (err) return err;
    b.source().folder = folder.root;
    b.source().gaps = {};  // the shapes come from the folder's CSVs
    b.setFormat(kAscendFolderFormat);
    if (const int rank = ascendRank(folder.root); rank >= 0) b.setDistributed(rank, 0);
    if (options.joinSideFiles) {
        // The trace is what the user opened; a broken side file costs its metrics, not the load.
        if (auto sideErr = joinAscendSideFiles(b, folder, effectiveMemoryBudget(options)))
            b.warn(ImportProblem::SideFileNotJoined, sideErr->message());
    }
    if (!databaseError.empty()) b.warn(ImportProblem::DatabaseExportNotRead, databaseError);
    return std::nullopt;
}

// A job of several ranks: one *_ascend_pt folder per rank (its rank from profiler_info_N.json).
bool isAscendRankFolder(const std::string& dir) {
    constexpr std::string_view kSuffix = "_ascend_pt";
    const std::string n = fs::path(dir).filename().string();
    return n.size() > kSuffix.size() && endsWith(n, kSuffix);
}

// One rank's own output: its *_ascend_pt folder, a folder findAscendFolder recognises (its
// ASCEND_PROFILER_OUTPUT, one holding trace_view.json or a database), or one holding
// profiler_info_N.json.
bool isAscendOwnFolder(const std::string& dir) {
    if (isAscendRankFolder(dir) || findAscendFolder(dir)) return true;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind("profiler_info_", 0) == 0) return true;
    return false;
}

// The JSON files an Ascend profiler writes beside its traces.
bool isAscendSideFile(std::string_view n) {
    return n.rfind("profiler_info", 0) == 0 || n == "profiler_metadata.json" || n == "communication.json" ||
           n == "communication_matrix.json";
}

constexpr RankLayout kAscendRanks{isAscendRankFolder, isAscendOwnFolder, isAscendSideFile};

}  // namespace

const FormatInfo kAscendFolderFormat{
    .name = "ascend-folder",
    .description = "an Ascend profiler folder's text export (trace_view.json and its CSVs joined)",
    .folderWords = "ASCEND_PROFILER_OUTPUT/trace_view.json, trace_view.json",
    .rankWords = "Ascend rank folders (*_ascend_pt with profiler_info_N.json)",
    .rankFrom = "profiler_info_N.json"};

namespace {
// A folder with a database export is read as the database.
constexpr std::array<const FormatInfo*, 2> kAscendFolderFormats{&kAscendFolderFormat, &kAscendDbFormat};
}  // namespace

const ReaderEntry kAscendFolderReader{"ascend-folder", kAscendFolderFormats,
                                      [](const Probe& p) { return folderOf(p).has_value(); }, readAscendFolder,
                                      &kAscendRanks};

}  // namespace contend
