// Ascend profiler databases, part 2: host APIs (CANN_API, PYTORCH_API, MSTX_EVENTS), the flows
// their connection ids make, the counter tables and STEP_TIME. See ascend_db_reader.h.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "core/io/db/ascend_db_detail.h"
#include "core/io/text/decimal.h"

namespace contend::ascenddb {

namespace {

// CANN API levels (ENUM_API_TYPE names) as the text export prefixes them: "AscendCL@...".
std::string levelPrefix(std::string_view level) {
    if (level == "acl") return "AscendCL";
    if (level == "node") return "Node";
    if (level == "hccl" || level == "communication") return "Hccl";
    if (level == "runtime") return "Runtime";
    if (level == "model") return "Model";
    return std::string(level);
}

std::string_view trim(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    return s;
}

// "32,4096;\r\n4096,1000" (dims, one tensor per line), not "float;\r\nfloat" (types).
bool looksLikeDims(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || c == ',' || c == ';' || c == '[' || c == ']' || c == '-' || c == ' ' ||
              c == '\r' || c == '\n'))
            return false;
    return true;
}

// globalTid: process id in the high 32 bits, thread id in the low 32 (msprof's layout).
std::int64_t pidOf(std::int64_t globalTid) { return (globalTid >> 32) & 0xFFFFFFFF; }
std::int64_t tidOf(std::int64_t globalTid) { return globalTid & 0xFFFFFFFF; }

// Bytes per second to the text export's MB/s.
constexpr double kMB = 1e6;

}  // namespace

std::optional<Failure> Reader::readCannApi() {
    std::unordered_map<std::int64_t, std::string> levels;
    if (SqliteStatement st = trySelect("ENUM_API_TYPE", {{{"id"}}, {{"name"}}}); st)
        while (st.step()) levels.emplace(st.int64(0, -1), levelPrefix(st.text(1)));
    Result<SqliteStatement> selected = select("CANN_API", {{{"startNs"}, true},
                                                           {{"endNs"}, true},
                                                           {{"type"}},
                                                           {{"globalTid"}},
                                                           {{"connectionId"}},
                                                           {{"name"}},
                                                           {{"depth"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    std::map<std::pair<std::int64_t, std::int64_t>, StringId> names;  // (level, name id)
    std::unordered_set<std::int64_t> namedThreads;
    std::uint64_t n = 0, row = 0;
    std::string name;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, "CANN_API", ++row);
        if (!times) continue;
        const std::int64_t level = st.int64(2, -1), nameId = st.int64(5, -1);
        auto it = names.find({level, nameId});
        if (it == names.end()) {
            auto lv = levels.find(level);
            name = lv != levels.end() ? lv->second + "@" : std::string();
            const std::string_view api = string(nameId);
            name += api.empty() ? std::string_view("(unnamed API)") : api;
            it = names.emplace(std::pair{level, nameId}, m_b.intern(name)).first;
        }
        const std::int64_t gtid = st.int64(3, 0);
        const std::string pid = "CANN " + std::to_string(pidOf(gtid)), tid = std::to_string(tidOf(gtid));
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = it->second;
        s.track = m_b.track(pid, tid);
        if (namedThreads.insert(gtid).second) {
            m_b.setProcessName(pid, "CANN");
            m_b.setThreadName(pid, tid, "Thread " + tid);
        }
        SliceInfo info;
        info.srcOffset = n;
        info.correlation = st.int64(4, -1);
        // A call whose connection reaches a device task enqueued it.
        if (info.correlation >= 0 && m_taskEnds.count(info.correlation)) {
            s.flags |= kSliceLaunch;
            m_cannEnds[info.correlation].push_back(Endpoint{s.track, s.start, st.int64(6, 0), false});
        }
        m_b.addSlice(s, info);
        ++n;
    }
    counted("cann_api", n);
    return scanDone("CANN_API", st);
}

std::optional<Failure> Reader::readPytorchApi() {
    if (!has("PYTORCH_API")) return std::nullopt;
    std::unordered_map<std::int64_t, std::string> kinds;
    if (SqliteStatement st = trySelect("ENUM_API_TYPE", {{{"id"}}, {{"name"}}}); st)
        while (st.step()) kinds.emplace(st.int64(0, -1), std::string(st.text(1)));
    // A PyTorch op's connectionId is a key into CONNECTION_IDS, which lists its connections.
    std::unordered_multimap<std::int64_t, std::int64_t> connections;
    const bool viaTable = has("CONNECTION_IDS");
    if (SqliteStatement st = trySelect("CONNECTION_IDS", {{{"id"}}, {{"connectionId"}}}); st) {
        while (st.step()) {
            if (auto stop = tick()) return stop;
            if (!st.isNull(0) && !st.isNull(1)) connections.emplace(st.int64(0), st.int64(1));
        }
        if (auto failed = scanDone("CONNECTION_IDS", st)) return failed;
    }
    Result<SqliteStatement> selected = select("PYTORCH_API", {{{"startNs"}, true},
                                                              {{"endNs"}, true},
                                                              {{"globalTid"}},
                                                              {{"connectionId"}},
                                                              {{"name"}},
                                                              {{"inputShapes"}},
                                                              {{"type"}},
                                                              {{"depth"}},
                                                              {{"inputDtypes"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId cpuOp = m_b.intern("cpu_op"), enqueue = m_b.intern("enqueue"), dequeue = m_b.intern("dequeue"),
                   python = m_b.intern("python_function");
    std::unordered_set<std::int64_t> namedThreads;
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, "PYTORCH_API", ++row);
        if (!times) continue;
        const std::string_view name = string(st.int64(4, -1));
        const std::string_view kind =
            kinds.count(st.int64(6, -1)) ? std::string_view(kinds[st.int64(6, -1)]) : std::string_view();
        const std::int64_t gtid = st.int64(2, 0);
        const std::string pid = std::to_string(pidOf(gtid)), tid = std::to_string(tidOf(gtid));
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = m_b.intern(name.empty() ? std::string_view("(unnamed op)") : name);
        const bool queue = kind == "queue";
        if (kind == "op")
            s.category = cpuOp;
        else if (queue)
            s.category = name.rfind("Dequeue", 0) == 0 ? dequeue : enqueue;
        else if (kind == "trace")
            s.category = python;
        else
            s.category = m_b.intern(kind);
        s.track = m_b.track(pid, tid);
        if (namedThreads.insert(gtid).second) {
            m_b.setProcessName(pid, "Python");
            m_b.setThreadName(pid, tid, "Thread " + tid);
        }
        SliceInfo info;
        info.srcOffset = n;
        // The text export's "Input Dims". Schema 1.0.0 writes the dims under inputDtypes and the
        // types ("float;\r\nfloat") under inputShapes: whichever holds dims is the shape.
        std::string_view shape = st.isNull(5) ? std::string_view() : trim(string(st.int64(5)));
        if (!looksLikeDims(shape) && !st.isNull(8)) {
            const std::string_view other = trim(string(st.int64(8)));
            if (looksLikeDims(other)) shape = other;
        }
        if (!shape.empty()) info.shape = m_b.intern(shape);
        m_b.addSlice(s, info);
        if (name.rfind("ProfilerStep#", 0) == 0)
            if (auto step = parseInt(name.substr(13))) m_steps.insert(*step);
        if (!st.isNull(3)) {
            const Endpoint e{s.track, s.start, st.int64(7, 0), queue};
            if (!viaTable) m_torchEnds[st.int64(3)].push_back(e);
            auto [a, b] = connections.equal_range(st.int64(3));
            for (auto c = a; c != b; ++c) m_torchEnds[c->second].push_back(e);
        }
        ++n;
    }
    counted("pytorch_api", n);
    return scanDone("PYTORCH_API", st);
}

std::optional<Failure> Reader::readMstx() {
    Result<SqliteStatement> selected =
        select("MSTX_EVENTS", {{{"startNs"}, true}, {{"endNs"}}, {{"eventType"}}, {{"message"}}, {{"globalTid"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern("mstx");
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        // ENUM_MSTX_EVENT_TYPE 0 is a marker; a row without an end is one too.
        const auto times = rowTimes(st, 0, 1, "MSTX_EVENTS", ++row, /*endMayBeNull=*/true);
        if (!times) continue;
        const bool mark = st.int64(2, -1) == 0 || times->instant;
        const std::int64_t gtid = st.int64(4, 0);
        Slice s;
        s.start = times->start;
        s.dur = mark ? 0 : times->dur;
        s.phase = mark ? 'i' : 'X';
        const std::string_view msg = string(st.int64(3, -1));
        s.name = m_b.intern(msg.empty() ? std::string_view("(mstx range)") : msg);
        s.category = category;
        s.track = m_b.track(std::to_string(pidOf(gtid)), std::to_string(tidOf(gtid)));
        SliceInfo info;
        info.srcOffset = n;
        m_b.addSlice(s, info);
        ++n;
    }
    counted("mstx", n);
    return scanDone("MSTX_EVENTS", st);
}

// Flows in the text export's order: HostToDevice (CANN call -> task) first, then async_npu
// (PyTorch op -> task), then host-to-host links. Each leaves the innermost call of its
// connection; the builder binds the ends to the slices at those times.
void Reader::addFlows() {
    std::vector<std::int64_t> ids;
    for (const auto& [c, ends] : m_taskEnds) ids.push_back(c);
    std::sort(ids.begin(), ids.end());
    auto innermost = [](const std::vector<Endpoint>& v, bool ops) -> const Endpoint* {
        const Endpoint* best = nullptr;
        for (const Endpoint& e : v)
            if ((!ops || !e.queue) && (!best || e.depth > best->depth)) best = &e;
        return best;
    };
    // A collective's connection also tags each of its tasks: the text export draws the flow to
    // the collective only.
    auto link = [&](const char* cat, const char* name, std::int64_t c, const Endpoint& from) {
        const std::string id = std::to_string(c);
        const auto& to = m_taskEnds[c];
        const bool collective = std::any_of(to.begin(), to.end(), [](const Endpoint& e) { return e.collective; });
        m_b.addFlowStart(cat, name, id, from.track, from.start);
        for (const Endpoint& e : to)
            if (e.collective || !collective) m_b.addFlowEnd(cat, name, id, e.track, e.start, true);
    };
    for (std::int64_t c : ids)
        if (auto it = m_cannEnds.find(c); it != m_cannEnds.end())
            if (const Endpoint* from = innermost(it->second, false)) link("HostToDevice", "HostToDevice", c, *from);
    for (std::int64_t c : ids)
        if (auto it = m_torchEnds.find(c); it != m_torchEnds.end())
            if (const Endpoint* from = innermost(it->second, true)) link("async_npu", "torch_to_npu", c, *from);
    std::vector<std::int64_t> host;
    for (const auto& [c, ends] : m_torchEnds)
        if (!m_taskEnds.count(c) && ends.size() >= 2) host.push_back(c);
    std::sort(host.begin(), host.end());
    for (std::int64_t c : host) {
        auto& ends = m_torchEnds[c];
        std::sort(ends.begin(), ends.end(), [](const Endpoint& a, const Endpoint& b) { return a.start < b.start; });
        const bool queue = ends.front().queue;
        const char* cat = queue ? "async_task_queue" : "fwdbwd";
        const char* name = queue ? "enqueue_to_dequeue" : "fwdbwd";
        const std::string id = std::to_string(c);
        m_b.addFlowStart(cat, name, id, ends.front().track, ends.front().start);
        for (std::size_t k = 1; k < ends.size(); ++k) m_b.addFlowEnd(cat, name, id, ends[k].track, ends[k].start, true);
    }
    m_taskEnds = {};
    m_cannEnds = {};
    m_torchEnds = {};
}

std::optional<Failure> Reader::readCounters() {
    // One table: its columns, the phase it is counted under, and what a row adds.
    auto table = [&](const char* name, const char* phase, std::initializer_list<Col> cols,
                     auto&& row) -> std::optional<Failure> {
        Result<SqliteStatement> selected = select(name, cols);
        if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
        SqliteStatement& st = *selected;
        std::uint64_t n = 0;
        while (st.step()) {
            if (auto stop = tick()) return stop;
            TimeNs t = 0;
            if (!timeOf(st, 0, t)) continue;  // every table's first column here is its timestamp
            row(st, t);
            ++n;
        }
        counted(phase, n);
        return scanDone(name, st);
    };
    auto cap = [](std::string_view s) {
        std::string out(s);
        if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
        return out.empty() ? std::string("Read") : out;
    };
    auto value = [](const SqliteStatement& st, int c, double& out) {
        out = st.real(c, NAN);
        return std::isfinite(out);
    };
    double v = 0;
    // The tables in turn, up to the first failure.
    std::optional<Failure> failed;
    static_cast<void>(
        (failed = table("HBM", "hbm",
                        {{{"timestampNs"}, true}, {{"deviceId"}}, {{"bandwidth"}, true}, {{"hbmId"}}, {{"type"}}},
                        [&](const SqliteStatement& st, TimeNs t) {
                            const std::string dir = cap(string(st.int64(4, -1)));
                            const std::int64_t dev = st.int64(1, 0);
                            if (value(st, 2, v))
                                m_b.addCounter(devicePid("HBM", dev),
                                               onDevice("HBM " + std::to_string(st.int64(3, 0)) + "/" + dir, dev), "",
                                               dir + "(MB/s)", t, v / kMB);
                        })) ||
        (failed = table("DDR", "ddr", {{{"timestampNs"}, true}, {{"deviceId"}}, {{"read"}}, {{"write"}}},
                        [&](const SqliteStatement& st, TimeNs t) {
                            const std::int64_t dev = st.int64(1, 0);
                            const std::string& pid = devicePid("DDR", dev);
                            if (value(st, 2, v))
                                m_b.addCounter(pid, onDevice("DDR/Read", dev), "", "Read(MB/s)", t, v / kMB);
                            if (value(st, 3, v))
                                m_b.addCounter(pid, onDevice("DDR/Write", dev), "", "Write(MB/s)", t, v / kMB);
                        })) ||
        (failed =
             table("LLC", "llc",
                   {{{"timestampNs"}, true}, {{"deviceId"}}, {{"llcId"}}, {{"hitRate"}}, {{"throughput"}}, {{"mode"}}},
                   [&](const SqliteStatement& st, TimeNs t) {
                       const std::int64_t dev = st.int64(1, 0);
                       const std::string& pid = devicePid("LLC", dev);
                       const std::string series =
                           onDevice("LLC " + std::to_string(st.int64(2, 0)) + " " + cap(string(st.int64(5, -1))), dev);
                       // hitRate is a percentage (0..100) in the database.
                       if (value(st, 3, v)) m_b.addCounter(pid, series + "/Hit Rate", "", "Hit Rate(%)", t, v);
                       if (value(st, 4, v))
                           m_b.addCounter(pid, series + "/Throughput", "", "Throughput(MB/s)", t, v / kMB);
                   })) ||
        (failed =
             table("ACC_PMU", "acc_pmu",
                   {{{"timestampNs"}, true},
                    {{"deviceId"}},
                    {{"accId"}},
                    {{"readBwLevel"}},
                    {{"writeBwLevel"}},
                    {{"readOstLevel"}},
                    {{"writeOstLevel"}}},
                   [&](const SqliteStatement& st, TimeNs t) {
                       const std::int64_t dev = st.int64(1, 0);
                       const std::string& pid = devicePid("Acc PMU", dev);
                       const std::string acc = std::to_string(st.int64(2, 0));
                       static const char* kNames[] = {"read_bandwidth", "write_band_width", "read_ost", "write_ost"};
                       for (int k = 0; k < 4; ++k)
                           if (value(st, 3 + k, v)) m_b.addCounter(pid, onDevice(kNames[k], dev), acc, "value", t, v);
                   })) ||
        (failed = table("SOC_BANDWIDTH_LEVEL", "soc_bandwidth_level",
                        {{{"timestampNs"}, true}, {{"deviceId"}}, {{"l2BufferBwLevel"}}, {{"mataBwLevel"}}},
                        [&](const SqliteStatement& st, TimeNs t) {
                            const std::int64_t dev = st.int64(1, 0);
                            const std::string& pid = devicePid("Stars Soc Info", dev);
                            if (value(st, 2, v))
                                m_b.addCounter(pid, onDevice("L2 Buffer Bw Level", dev), "", "L2 Buffer Bw Level", t,
                                               v);
                            if (value(st, 3, v))
                                m_b.addCounter(pid, onDevice("Mata Bw Level", dev), "", "Mata Bw Level", t, v);
                        })) ||
        (failed = table("AICORE_FREQ", "aicore_freq", {{{"timestampNs"}, true}, {{"deviceId"}}, {{"freq"}, true}},
                        [&](const SqliteStatement& st, TimeNs t) {
                            const std::int64_t dev = st.int64(1, 0);
                            if (value(st, 2, v))
                                m_b.addCounter(devicePid("AI Core Freq", dev), onDevice("AI Core Freq", dev), "", "MHz",
                                               t, v);
                        })));
    return failed;
}

std::optional<Failure> Reader::readSteps() {
    Result<SqliteStatement> selected = select("STEP_TIME", {{{"id"}, true}, {{"startNs"}, true}, {{"endNs"}, true}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 1, 2, "STEP_TIME", ++row);
        if (!times) continue;
        ++n;
        const std::int64_t id = st.int64(0, -1);
        if (m_steps.count(id)) continue;  // PYTORCH_API has this step's ProfilerStep#N already
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = m_b.intern("ProfilerStep#" + std::to_string(id));
        s.track = m_b.track("Steps", "STEP_TIME");
        m_b.setProcessName("Steps", "Steps");
        m_b.setThreadName("Steps", "STEP_TIME", "STEP_TIME");
        SliceInfo info;
        info.srcOffset = n - 1;
        m_b.addSlice(s, info);
    }
    counted("step", n);
    return scanDone("STEP_TIME", st);
}

}  // namespace contend::ascenddb
