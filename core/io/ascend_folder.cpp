#include "core/io/ascend_folder.h"

#include <algorithm>
#include <filesystem>

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

}  // namespace contend
