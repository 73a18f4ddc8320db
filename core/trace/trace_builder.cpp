#include "core/trace/trace_builder.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace contend {

namespace {

std::string trackKey(std::string_view pid, std::string_view tid) {
    std::string k;
    k.reserve(pid.size() + tid.size() + 1);
    k.append(pid);
    k.push_back('\x1f');
    k.append(tid);
    return k;
}

// "Read(MB/s)" -> "MB/s", "Hit Rate(%)" -> "%", "MHz" -> "MHz", "value" -> "".
std::string unitOfKey(std::string_view key) {
    auto open = key.rfind('(');
    if (open != std::string_view::npos && key.back() == ')') {
        return std::string(key.substr(open + 1, key.size() - open - 2));
    }
    static const char* kUnits[] = {"MHz",  "GHz",  "KB", "MB", "GB", "B", "bytes", "%",
                                   "MB/s", "GB/s", "ns", "us", "ms", "W", "C"};
    for (const char* u : kUnits) {
        if (key == u) return std::string(key);
    }
    return {};
}

}  // namespace

std::size_t TraceBuilder::CounterKeyHash::operator()(const CounterKey& k) const {
    std::hash<std::string> h;
    return h(k.pid) ^ (h(k.name) * 31) ^ (h(k.id) * 131) ^ (h(k.key) * 1313);
}

TraceBuilder::TraceBuilder(TraceFormat format) : m_trace(std::make_shared<Trace>()) { m_trace->m_format = format; }

std::uint32_t TraceBuilder::track(std::string_view pid, std::string_view tid) {
    if (m_lastTrack != kNone && pid == m_lastPid && tid == m_lastTid) return m_lastTrack;
    m_keyBuf.assign(pid);
    m_keyBuf.push_back('\x1f');
    m_keyBuf.append(tid);
    auto it = m_trackIndex.find(m_keyBuf);
    std::uint32_t idx;
    if (it != m_trackIndex.end()) {
        idx = it->second;
    } else {
        idx = static_cast<std::uint32_t>(m_trace->m_tracks.size());
        Track t;
        t.pid = std::string(pid);
        t.tid = std::string(tid);
        m_trace->m_tracks.push_back(std::move(t));
        m_trackIndex.emplace(m_keyBuf, idx);
    }
    m_lastTrack = idx;
    m_lastPid.assign(pid);
    m_lastTid.assign(tid);
    return idx;
}

void TraceBuilder::setProcessName(std::string_view pid, std::string_view name) {
    m_processNames[std::string(pid)] = std::string(name);
}

std::string_view TraceBuilder::processNameOf(std::uint32_t track) const {
    if (track >= m_trace->m_tracks.size()) return {};
    auto it = m_processNames.find(m_trace->m_tracks[track].pid);
    return it == m_processNames.end() ? std::string_view() : std::string_view(it->second);
}

void TraceBuilder::setProcessSortIndex(std::string_view pid, std::int64_t index) {
    m_processSort[std::string(pid)] = index;
}

void TraceBuilder::setThreadName(std::string_view pid, std::string_view tid, std::string_view name) {
    m_trace->m_tracks[track(pid, tid)].threadName = std::string(name);
}

void TraceBuilder::setThreadSortIndex(std::string_view pid, std::string_view tid, std::int64_t index) {
    m_trace->m_tracks[track(pid, tid)].threadSortIndex = index;
}

std::uint32_t TraceBuilder::addSlice(const Slice& slice, const SliceInfo& info) {
    auto idx = static_cast<std::uint32_t>(m_trace->m_slices.size());
    m_trace->m_slices.push_back(slice);
    m_trace->m_infos.push_back(info);
    return idx;
}

void TraceBuilder::addBegin(const Slice& slice, const SliceInfo& info) {
    m_begins.push_back(slice);
    m_beginInfos.push_back(info);
}

void TraceBuilder::addEnd(std::uint32_t track, TimeNs ts, std::uint64_t srcOffset) {
    m_ends.push_back({track, ts, srcOffset});
}

void TraceBuilder::addMetric(std::uint32_t buildIndex, std::string_view key, float value) {
    m_pendingMetrics.push_back({buildIndex, Metric{intern(key), value}});
}

void TraceBuilder::addCounter(std::string_view pid, std::string_view name, std::string_view id, std::string_view key,
                              TimeNs ts, double value) {
    // Counter samples are most of a sampled trace's events and cycle through a few series:
    // look in a small memo of recent series before building a key for the hash map.
    for (const CounterMemo& m : m_counterMemo) {
        if (m.idx != kNone && m.key == key && m.name == name && m.pid == pid && m.id == id) {
            auto& s = m_trace->m_counters[m.idx];
            s.times.push_back(ts);
            s.values.push_back(value);
            return;
        }
    }
    CounterKey k{std::string(pid), std::string(name), std::string(id), std::string(key)};
    auto it = m_counterIndex.find(k);
    std::uint32_t idx;
    if (it == m_counterIndex.end()) {
        idx = static_cast<std::uint32_t>(m_trace->m_counters.size());
        CounterSeries s;
        s.pid = k.pid;
        s.name = k.name;
        s.id = k.id;
        s.key = k.key;
        s.unit = unitOfKey(key);
        m_trace->m_counters.push_back(std::move(s));
        m_counterIndex.emplace(std::move(k), idx);
    } else {
        idx = it->second;
    }
    CounterMemo& memo = m_counterMemo[m_counterMemoNext++ % m_counterMemo.size()];
    memo.pid.assign(pid);
    memo.name.assign(name);
    memo.id.assign(id);
    memo.key.assign(key);
    memo.idx = idx;
    auto& s = m_trace->m_counters[idx];
    s.times.push_back(ts);
    s.values.push_back(value);
}

void TraceBuilder::addFlowStart(std::string_view category, std::string_view name, std::string_view id,
                                std::uint32_t track, TimeNs ts) {
    std::string key = trackKey(category, id);
    m_flowStarts.push_back({std::move(key), intern(category), intern(name), track, ts, true});
}

void TraceBuilder::addFlowEnd(std::string_view category, std::string_view name, std::string_view id,
                              std::uint32_t track, TimeNs ts, bool enclosing) {
    std::string key = trackKey(category, id);
    m_flowEnds.push_back({std::move(key), intern(category), intern(name), track, ts, enclosing});
}

StringId TraceBuilder::internLong(std::string_view s) {
    std::size_t cut = kMaxStringBytes;
    // Back off to the start of a UTF-8 sequence so the kept text stays well formed.
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    warn(ImportProblem::StringCut, "a string of " + std::to_string(s.size()) + " bytes: \"" +
                                       std::string(s.substr(0, std::min<std::size_t>(cut, 40))) + "...\"");
    std::string kept(s.substr(0, cut));
    kept += "...";
    return m_trace->m_strings.intern(kept);
}

void TraceBuilder::warn(ImportProblem problem, std::string_view where, std::uint64_t count) {
    const ImportProblemInfo& p = importProblemInfo(problem);
    addWarning(problem, p.text, where, count, p.unit);
}

void TraceBuilder::addWarning(ImportProblem id, std::string_view kind, std::string_view where, std::uint64_t count,
                              ProblemUnit unit) {
    // Keyed by the text, which is one per id (import_problem.cpp).
    auto& warnings = m_trace->m_stats.warnings;
    auto it = m_warningIndex.find(std::string(kind));
    if (it == m_warningIndex.end()) {
        m_warningIndex.emplace(std::string(kind), warnings.size());
        warnings.push_back({id, std::string(kind), count, std::string(where), unit});
    } else {
        warnings[it->second].count += count;
    }
}

}  // namespace contend
