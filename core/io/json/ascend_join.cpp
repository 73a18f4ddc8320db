// Joins Ascend per-task CSV metrics (kernel_details.csv / op_summary_*.csv, l2_cache.csv) onto the
// NPU tasks of trace_view.json, before the builder is finalized.
//
// Matching, in order:
//  1. (stream id, task id), where the CSV has both. Task ids are not unique: HCCL writes dozens
//     of subtasks (SDMA, Write Value, Notify Wait) under one task id, and ids wrap in long runs,
//     so among the candidates the start time (within 1 us) and the name decide.
//  2. name + start time within 1 us (the Level0 kernel_details.csv has no ids). Communication
//     ops (Accelerator Core "HCCL") live on the "HCCL" process, not on "Ascend Hardware", so that
//     process is searched here too.
// Each slice is taken by at most one row per file. When several kernel files are present
// (kernel_details.csv and op_summary_*.csv describe the same tasks), the first file wins.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/io/json/ascend_folder.h"
#include "core/io/memory_budget.h"
#include "core/io/text/csv.h"
#include "core/io/text/decimal.h"
#include "core/trace/conventions.h"

namespace contend {

namespace {

// CSV start times are written with 3 decimals like the trace's ts, but the trace rounds ts
// while the CSV may not (dur is not rounded): allow 1 us.
constexpr std::uint64_t kStartToleranceNs = 1000;

// |a - b| without overflow (CSV times are untrusted).
std::uint64_t distance(TimeNs a, TimeNs b) {
    return a > b ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)
                 : static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
}

struct TaskKey {
    std::int32_t stream;
    std::int64_t task;
    bool operator==(const TaskKey&) const = default;
};
struct TaskKeyHash {
    std::size_t operator()(const TaskKey& k) const {
        // Unsigned: ids come from files and may be anything.
        return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(k.task) * 1000003u +
                                          static_cast<std::uint32_t>(k.stream));
    }
};

// Index over the builder's slices that a CSV row may describe.
class TaskIndex {
  public:
    explicit TaskIndex(TraceBuilder& b) : m_b(b), m_slices(b.pendingSlices()), m_infos(b.pendingInfos()) {
        enum : std::uint8_t { kOther, kNpu, kHccl };
        std::vector<std::uint8_t> trackKind(b.trackCount(), kOther);
        for (std::uint32_t t = 0; t < trackKind.size(); ++t) {
            const std::string_view process = b.processNameOf(t);
            trackKind[t] = process == conventions::kAscendHardwareProcess ? kNpu
                           : process == conventions::kHcclProcess         ? kHccl
                                                                          : kOther;
        }
        for (std::uint32_t i = 0; i < m_slices.size(); ++i) {
            const Slice& s = m_slices[i];
            if (s.phase == 'i' || s.track >= trackKind.size() || trackKind[s.track] == kOther) continue;
            const bool npu = trackKind[s.track] == kNpu;
            if (npu && m_infos[i].stream >= 0 && m_infos[i].taskId >= 0)
                m_byTask[{m_infos[i].stream, m_infos[i].taskId}].push_back(i);
            m_byName[m_b.str(s.name)].push_back(i);
        }
        for (auto& [name, list] : m_byName)
            std::sort(list.begin(), list.end(), [&](auto a, auto b) { return m_slices[a].start < m_slices[b].start; });
        m_taken.assign(m_slices.size(), 0);
    }

    // A fresh file: every slice may be taken again.
    void newFile() { std::fill(m_taken.begin(), m_taken.end(), 0); }

    // The best slice for a row, or kNone. `start` may be unknown (l2_cache.csv); `name` may be
    // empty. Slices already taken by a row of this file are used only when nothing else fits.
    std::uint32_t match(std::optional<TaskKey> key, std::string_view name, std::optional<TimeNs> start) {
        std::uint32_t best = kNone;
        if (key) {
            auto it = m_byTask.find(*key);
            if (it != m_byTask.end()) best = pick(it->second.begin(), it->second.end(), name, start, false);
        }
        if (best == kNone && start && !name.empty()) {
            auto it = m_byName.find(name);
            if (it != m_byName.end()) {
                // Sorted by start: only the slices within the tolerance are candidates, so a
                // kernel launched 10k times costs a binary search, not a scan.
                const auto& list = it->second;
                const TimeNs from = *start > kTimeMin + static_cast<TimeNs>(kStartToleranceNs)
                                        ? *start - static_cast<TimeNs>(kStartToleranceNs)
                                        : kTimeMin;
                auto lo = std::lower_bound(list.begin(), list.end(), from,
                                           [&](std::uint32_t i, TimeNs t) { return m_slices[i].start < t; });
                auto hi = lo;
                while (hi != list.end() && distance(m_slices[*hi].start, *start) <= kStartToleranceNs) ++hi;
                best = pick(lo, hi, name, start, true);
            }
        }
        if (best != kNone) m_taken[best] = 1;
        return best;
    }

  private:
    using Iter = std::vector<std::uint32_t>::const_iterator;
    std::uint32_t pick(Iter first, Iter last, std::string_view name, std::optional<TimeNs> start,
                       bool nameMustMatch) const {
        std::uint32_t best = kNone;
        // Lower is better: taken, then name differs, then distance in time.
        auto score = [&](std::uint32_t i) {
            const bool nameDiffers = !name.empty() && m_b.str(m_slices[i].name) != name;
            const std::uint64_t dt = start ? distance(m_slices[i].start, *start) : 0;
            return std::tuple(m_taken[i] != 0, nameDiffers, dt);
        };
        for (; first != last; ++first) {
            const std::uint32_t i = *first;
            if (nameMustMatch && m_b.str(m_slices[i].name) != name) continue;
            if (start && distance(m_slices[i].start, *start) > kStartToleranceNs) continue;
            if (best == kNone || score(i) < score(best)) best = i;
        }
        return best;
    }

    TraceBuilder& m_b;
    std::vector<Slice>& m_slices;
    std::vector<SliceInfo>& m_infos;
    std::unordered_map<TaskKey, std::vector<std::uint32_t>, TaskKeyHash> m_byTask;
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> m_byName;
    std::vector<std::uint8_t> m_taken;
};

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Per-task hardware metrics worth joining from a kernel file: the AI Core / AI Vector PMU columns
// (aic_*, aiv_*, aicore_time(us), cube_utilization(%)) and the block dims (how many cores a task
// occupies: the resource the contention analysis is about). Identity and time columns are not.
bool isMetricColumn(std::string_view c) {
    return startsWith(c, "aic_") || startsWith(c, "aiv_") || startsWith(c, "aicore_") || startsWith(c, "cube_") ||
           startsWith(c, "vec_") || startsWith(c, "mac_") || c == "Block Dim" || c == "Mix Block Dim";
}

std::string where(const CsvTable& t, std::size_t row) { return t.fileName() + " line " + std::to_string(t.line(row)); }

std::optional<TaskKey> taskKeyOf(TraceBuilder& b, const CsvTable& t, std::size_t row, int streamCol, int taskCol) {
    if (streamCol < 0 || taskCol < 0) return std::nullopt;
    const std::string_view s = t.cell(row, streamCol);
    const std::string_view k = t.cell(row, taskCol);
    if (CsvTable::isMissing(s) || CsvTable::isMissing(k)) return std::nullopt;  // HCCL rows: N/A
    auto stream = parseInt(s);
    auto task = parseInt(k);
    if (!stream || !task) {
        b.warn(ImportProblem::SideFileCellNotNumber, where(t, row));
        return std::nullopt;
    }
    return TaskKey{static_cast<std::int32_t>(*stream), *task};
}

// "\"32,3,224,224;64,3,11,11\"" (the CSV cell after unquoting) -> "32,3,224,224;64,3,11,11".
std::string_view unquoteShape(std::string_view s) {
    while (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

void joinKernelFile(TraceBuilder& b, TaskIndex& index, const CsvTable& t, std::vector<std::uint8_t>& joined) {
    const int nameCol = t.column({"Name", "Op Name"});
    const int startCol = t.column({"Start Time(us)", "Task Start Time(us)"});
    const int waitCol = t.column({"Wait Time(us)", "Task Wait Time(us)"});
    const int streamCol = t.column({"Stream ID", "stream_id"});
    const int taskCol = t.column({"Task ID", "task_id"});
    const int shapeCol = t.column("Input Shapes");
    if ((streamCol < 0 || taskCol < 0) && (nameCol < 0 || startCol < 0)) {
        b.warn(ImportProblem::SideFileWithoutKeys, t.fileName());
        return;
    }
    struct MetricColumn {
        int column;
        std::string key;
    };
    std::vector<MetricColumn> metrics;
    for (std::size_t c = 0; c < t.columns(); ++c)
        if (isMetricColumn(t.header()[c])) metrics.push_back({static_cast<int>(c), t.header()[c]});

    auto& infos = b.pendingInfos();
    for (std::size_t row = 0; row < t.rows(); ++row) {
        std::optional<TimeNs> start;
        if (startCol >= 0 && !CsvTable::isMissing(t.cell(row, startCol))) {
            start = parseMicrosToNs(t.cell(row, startCol));
            if (!start) b.warn(ImportProblem::SideFileCellNotNumber, where(t, row));
        }
        const std::string_view name = t.cell(row, nameCol);
        const std::uint32_t s = index.match(taskKeyOf(b, t, row, streamCol, taskCol), name, start);
        if (s == kNone) {
            b.warn(ImportProblem::SideFileRowUnmatched, where(t, row));
            continue;
        }
        if (joined[s]) continue;  // an earlier kernel file already described this task
        joined[s] = 1;
        SliceInfo& info = infos[s];
        if (waitCol >= 0 && !CsvTable::isMissing(t.cell(row, waitCol))) {
            if (auto w = parseMicrosToNs(t.cell(row, waitCol)); w && *w >= 0)
                info.waitNs = *w;
            else
                b.warn(ImportProblem::SideFileCellNotNumber, where(t, row));
        }
        if (shapeCol >= 0 && info.shape == 0) {
            const std::string_view shape = unquoteShape(t.cell(row, shapeCol));
            if (!CsvTable::isMissing(shape)) info.shape = b.intern(shape);
        }
        for (const MetricColumn& m : metrics) {
            const std::string_view cell = t.cell(row, m.column);
            if (CsvTable::isMissing(cell)) continue;
            if (auto v = parseDouble(cell))
                b.addMetric(s, m.key, static_cast<float>(*v));
            else
                b.warn(ImportProblem::SideFileCellNotNumber, where(t, row));
        }
    }
}

void joinL2File(TraceBuilder& b, TaskIndex& index, const CsvTable& t) {
    const int streamCol = t.column({"Stream Id", "Stream ID"});
    const int taskCol = t.column({"Task Id", "Task ID"});
    const int nameCol = t.column({"Op Name", "Name"});
    const int hitCol = t.column("Hit Rate");
    const int victimCol = t.column("Victim Rate");
    if (streamCol < 0 || taskCol < 0) {
        b.warn(ImportProblem::SideFileWithoutTaskIds, t.fileName());
        return;
    }
    for (std::size_t row = 0; row < t.rows(); ++row) {
        const std::uint32_t s =
            index.match(taskKeyOf(b, t, row, streamCol, taskCol), t.cell(row, nameCol), std::nullopt);
        if (s == kNone) {
            b.warn(ImportProblem::SideFileRowUnmatched, where(t, row));
            continue;
        }
        // Rates are fractions (0..1) as written; real Level0-2 files write Hit Rate as N/A.
        for (auto [col, key] : {std::pair{hitCol, "l2_hit_rate"}, std::pair{victimCol, "l2_victim_rate"}}) {
            const std::string_view cell = t.cell(row, col);
            if (col < 0 || CsvTable::isMissing(cell)) continue;
            if (auto v = parseDouble(cell))
                b.addMetric(s, key, static_cast<float>(*v));
            else
                b.warn(ImportProblem::SideFileCellNotNumber, where(t, row));
        }
    }
}

}  // namespace

std::optional<Failure> joinAscendSideFiles(TraceBuilder& builder, const AscendFolder& folder,
                                           std::uint64_t memoryBudget) {
    if (folder.kernelDetails.empty() && folder.l2Cache.empty()) return std::nullopt;
    std::vector<std::string> all = folder.kernelDetails;
    if (!folder.l2Cache.empty()) all.push_back(folder.l2Cache);
    for (const std::string& path : all) {
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && static_cast<double>(size) * 2.0 > static_cast<double>(memoryBudget))
            return Failure{path,
                           -1,
                           -1,
                           -1,
                           "at " + formatBytes(size) + " it is too large to join within the memory budget of " +
                               formatBytes(memoryBudget),
                           Failure::Kind::OutOfMemory};
    }
    TaskIndex index(builder);
    std::vector<std::uint8_t> joined(builder.pendingSlices().size(), 0);
    CsvTable table;
    auto noteUtf8 = [&] {
        if (table.invalidUtf8Bytes())
            builder.warn(ImportProblem::InvalidUtf8,
                         table.fileName() + ": byte " + std::to_string(table.firstInvalidUtf8()),
                         table.invalidUtf8Bytes());
    };
    for (const std::string& path : folder.kernelDetails) {
        if (auto err = readCsv(path, table)) return err;
        noteUtf8();
        index.newFile();
        joinKernelFile(builder, index, table, joined);
        builder.source().sideFiles.push_back(path);
    }
    if (!folder.l2Cache.empty()) {
        if (auto err = readCsv(folder.l2Cache, table)) return err;
        noteUtf8();
        index.newFile();
        joinL2File(builder, index, table);
        builder.source().sideFiles.push_back(folder.l2Cache);
    }
    return std::nullopt;
}

}  // namespace contend
