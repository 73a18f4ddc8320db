#include "core/io/ascend_folder.h"

#include <algorithm>
#include <filesystem>

namespace contend {

namespace fs = std::filesystem;

std::optional<AscendFolder> findAscendFolder(const std::string& dir) {
    std::error_code ec;
    fs::path root(dir);
    fs::path out;
    if (fs::is_regular_file(root / "ASCEND_PROFILER_OUTPUT" / "trace_view.json", ec)) out = root / "ASCEND_PROFILER_OUTPUT";
    else if (fs::is_regular_file(root / "trace_view.json", ec)) out = root;
    else return std::nullopt;
    AscendFolder f;
    f.root = root.string();
    f.traceView = (out / "trace_view.json").string();
    if (fs::is_regular_file(out / "kernel_details.csv", ec)) f.kernelDetails.push_back((out / "kernel_details.csv").string());
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

}  // namespace contend
