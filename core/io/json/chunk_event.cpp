// One event of a chunk: its top-level fields (args once "ph" is known), then what it adds to the
// chunk's builder (a slice, a counter sample, a flow end, process/thread metadata). Compiled for
// AVX2 with chunk_parser.cpp (core/CMakeLists.txt).
#include <optional>

#include "core/io/json/ascend_folder.h"
#include "core/io/json/chunk_parser_impl.h"
#include "core/io/text/decimal.h"
#include "core/trace/conventions.h"

namespace contend::detail {

bool isMetricKeyUncached(std::string_view k) {
    return k.find("occupancy") != std::string_view::npos || k.find("bandwidth") != std::string_view::npos ||
           k.find("(GB/s)") != std::string_view::npos || k.rfind("smsp__", 0) == 0 || k.rfind("sm__", 0) == 0 ||
           k.rfind("dram__", 0) == 0 || k.rfind("lts__", 0) == 0 || k.rfind("l1tex__", 0) == 0 ||
           k.rfind("gpu__", 0) == 0 || eq(k, "bytes");
}

ArgKind argKind(std::string_view k) {
    switch (k.size()) {
    case 4: return eq(k, "grid") ? ArgKind::GridBlock : ArgKind::Other;
    case 5: return eq(k, "block") ? ArgKind::GridBlock : ArgKind::Other;
    case 6:
        if (eq(k, "stream")) return ArgKind::Stream;
        if (eq(k, "device")) return ArgKind::Device;
        return ArgKind::Other;
    case 7: return eq(k, "Task Id") ? ArgKind::TaskId : ArgKind::Other;
    case 9:
        if (eq(k, "Task Type")) return ArgKind::TaskType;
        if (eq(k, "Stream Id")) return ArgKind::Stream;
        return ArgKind::Other;
    case 10: return (eq(k, "Input Dims") || eq(k, "Input dims")) ? ArgKind::Shape : ArgKind::Other;
    case 11:
        if (eq(k, "correlation")) return ArgKind::Correlation;
        if (eq(k, "External id")) return ArgKind::ExternalId;
        return ArgKind::Other;
    case 12: return (eq(k, "Input Shapes") || eq(k, "input_shapes")) ? ArgKind::Shape : ArgKind::Other;
    case 13: return eq(k, "connection_id") ? ArgKind::ConnectionId : ArgKind::Other;
    case 16: return eq(k, "Physic Stream Id") ? ArgKind::Stream : ArgKind::Other;
    default: return ArgKind::Other;
    }
}

namespace {

// A string as is, a number as its text; false for anything else.
[[gnu::always_inline]] inline bool textOf(od::value& v, std::string_view& out, bool* isString) {
    od::json_type t;
    if (v.type().get(t)) return false;
    if (t == od::json_type::string) {
        if (isString) *isString = true;
        return !v.get_string().get(out);
    }
    if (t == od::json_type::number) {
        out = trimView(v.raw_json_token());
        return true;
    }
    return false;
}

}  // namespace

ParseStatus ChunkParser::Impl::handleEvent(od::object obj, std::uint64_t offset) {
    Event ev;
    m_pid.clear();
    m_tid.clear();
    m_id.clear();
    m_counterValues.clear();
    m_metrics.clear();
    m_shape.clear();
    if (ParseStatus st = readFields(ev, obj, offset); st != ParseStatus::Ok) return st;
    if (ev.ph.empty()) {
        warn(ImportProblem::EventWithoutPhase, offset);
        return ParseStatus::Ok;
    }
    const char p0 = ev.p0();
    if (ev.ph.size() == 1 && static_cast<unsigned char>(p0) < 128)
        m_counts->phases[static_cast<unsigned char>(p0)]++;
    else
        countOtherPhase(m_counts->otherPhases, ev.ph, 1);
    if (ev.argsDeferred && (p0 == 'X' || p0 == 'B' || p0 == 'i' || p0 == 'I' || p0 == 'C' || p0 == 'M')) {
        // args came before ph: walk the object again for them (rare).
        simdjson::error_code ec;
        if ((ec = obj.reset().error())) return malformed(offset, ec);
        for (auto fr : obj) {
            if ((ec = fr.error())) return malformed(offset, ec);
            od::field& f = fr.value_unsafe();  // no copy of the field (see chunk_parser_impl.h)
            std::string_view key;
            if ((ec = f.unescaped_key().get(key))) return malformed(offset, ec);
            if (eq(key, "args")) {
                od::value argsValue = f.value();
                if (!readArgs(ev, argsValue)) return malformed(offset, simdjson::TAPE_ERROR);
                break;
            }
        }
    }
    if (!ev.cat.empty() && !m_counts->kinetoHints && conventions::isKinetoCategory(ev.cat))
        m_counts->kinetoHints = true;
    if (ev.tsIsString) m_counts->ascendHints = true;

    if (p0 == 'M') {
        addMetadata(ev);
        return ParseStatus::Ok;
    }
    const bool needsTs =
        p0 == 'X' || p0 == 'B' || p0 == 'E' || p0 == 'i' || p0 == 'I' || p0 == 'C' || p0 == 's' || p0 == 'f';
    if (!needsTs) return ParseStatus::Ok;  // async, object and other phases are counted only
    if (!ev.haveTs) {
        warn(ImportProblem::MissingTs, offset);
        return ParseStatus::Ok;
    }
    std::optional<TimeNs> ts;
    if (!ev.tsBad) ts = parseMicrosToNs(ev.tsText);
    if (ts && !inRawTimeRange(*ts)) {
        warn(ImportProblem::TsOutOfRange, offset);
        return ParseStatus::Ok;
    }
    if (!ts) {
        warn(!ev.tsBad && parseDouble(ev.tsText) ? ImportProblem::TsOutOfRange : ImportProblem::TsNotNumber, offset);
        return ParseStatus::Ok;
    }
    switch (p0) {
    case 'X':
    case 'B':
    case 'i':
    case 'I': addSliceEvent(ev, *ts, offset); break;
    case 'E': m_b->addEnd(m_b->track(m_pid, m_tid), *ts, offset); break;
    case 'C': addCounterEvent(ev, *ts, offset); break;
    case 's':
    case 'f': addFlowEvent(ev, *ts, offset); break;
    default: break;
    }
    return ParseStatus::Ok;
}

ParseStatus ChunkParser::Impl::readFields(Event& ev, od::object& obj, std::uint64_t offset) {
    simdjson::error_code ec;
    for (auto fr : obj) {
        if ((ec = fr.error())) return malformed(offset, ec);
        od::field& f = fr.value_unsafe();  // no copy of the field (see chunk_parser_impl.h)
        std::string_view key;
        if ((ec = f.unescaped_key().get(key))) return malformed(offset, ec);
        od::value v = f.value();
        if (key.size() == 2) {
            if (eq(key, "ph")) {
                if (v.get_string().get(ev.ph)) ev.ph = {};
                continue;
            }
            if (eq(key, "ts")) {
                ev.haveTs = true;
                ev.tsBad = !textOf(v, ev.tsText, &ev.tsIsString);
                continue;
            }
            if (eq(key, "id")) {
                std::string_view s;
                if (textOf(v, s, nullptr)) m_id.assign(s);
                continue;
            }
            if (eq(key, "bp")) {
                if (v.get_string().get(ev.bp)) ev.bp = {};
                continue;
            }
        } else if (eq(key, "name")) {
            if (v.get_string().get(ev.name)) ev.name = {};
            continue;
        } else if (eq(key, "cat")) {
            if (v.get_string().get(ev.cat)) ev.cat = {};
            continue;
        } else if (eq(key, "dur")) {
            ev.haveDur = true;
            ev.durBad = !textOf(v, ev.durText, nullptr);
            continue;
        } else if (eq(key, "pid") || eq(key, "tid")) {
            std::string_view s;
            if (textOf(v, s, nullptr))
                (key[0] == 'p' ? m_pid : m_tid).assign(s);
            else
                warn(ImportProblem::PidTidNotText, offset);  // the event stays, on pid/tid ""
            continue;
        } else if (eq(key, "args")) {
            if (ev.ph.empty()) {
                ev.argsDeferred = true;
                continue;
            }
            if (!readArgs(ev, v)) return malformed(offset, simdjson::TAPE_ERROR);
            continue;
        }
    }
    return ParseStatus::Ok;
}

bool ChunkParser::Impl::readArgs(Event& ev, od::value& argsValue) {
    od::object args;
    if (argsValue.get_object().get(args)) return true;  // args not an object: ignore
    const char p0 = ev.p0();
    for (auto fr : args) {
        if (fr.error()) return false;
        od::field& f = fr.value_unsafe();
        std::string_view key;
        if (f.unescaped_key().get(key)) return false;
        od::value v = f.value();
        if (p0 == 'C') {
            if (!readCounterArg(ev, key, v)) return false;
        } else if (p0 == 'M') {
            readMetadataArg(ev, key, v);
        } else if (!readSliceArg(ev, key, v)) {
            return false;
        }
    }
    return true;
}

bool ChunkParser::Impl::readCounterArg(Event& ev, std::string_view key, od::value& v) {
    od::json_type t;
    if (v.type().get(t)) return false;
    std::string k(key);
    if (t == od::json_type::number) {
        double d;
        if (v.get_double().get(d)) return true;
        if (eq(k, "acc_id"))
            ev.counterId = std::to_string(static_cast<long long>(d));
        else
            m_counterValues.push_back({std::move(k), d});
    } else if (t == od::json_type::string) {
        std::string_view s;
        if (v.get_string().get(s)) return true;
        if (auto d = parseDouble(s)) m_counterValues.push_back({std::move(k), *d});
    }
    return true;
}

void ChunkParser::Impl::readMetadataArg(Event& ev, std::string_view key, od::value& v) {
    if (eq(key, "name") || eq(key, "labels")) {
        std::string_view s;
        if (!v.get_string().get(s)) ev.metaName = s;
    } else if (eq(key, "sort_index")) {
        std::int64_t i;
        if (!v.get_int64().get(i)) {
            ev.sortIndex = i;
            ev.haveSortIndex = true;
        }
    }
}

bool ChunkParser::Impl::readSliceArg(Event& ev, std::string_view key, od::value& v) {
    SliceInfo& info = ev.info;
    std::string_view text;
    const ArgKind kind = argKind(key);
    auto intArg = [&](std::int64_t& out) {
        if (textOf(v, text, nullptr))
            if (auto i = parseInt(text)) out = *i;
    };
    std::int64_t tmp = -1;
    switch (kind) {
    case ArgKind::Stream:
        if (textOf(v, text, nullptr)) {
            if (auto i = parseInt(text))
                info.stream = static_cast<std::int32_t>(*i);
            else if (text.rfind("0x", 0) == 0)
                info.stream = static_cast<std::int32_t>(std::strtol(std::string(text).c_str(), nullptr, 16));
        }
        break;
    case ArgKind::Device:
        intArg(tmp);
        if (tmp >= 0) info.device = static_cast<std::int32_t>(tmp);
        break;
    case ArgKind::Correlation: intArg(info.correlation); break;
    case ArgKind::ConnectionId:
        if (info.correlation < 0) intArg(info.correlation);
        break;
    case ArgKind::ExternalId: intArg(info.externalId); break;
    case ArgKind::TaskId: intArg(info.taskId); break;
    case ArgKind::TaskType:
        if (textOf(v, text, nullptr)) info.taskType = m_b->intern(text);
        break;
    case ArgKind::Shape:
    case ArgKind::GridBlock: {
        std::string_view raw;
        od::json_type t;
        if (v.type().get(t)) return false;
        if (t == od::json_type::array) {
            od::array a;
            if (v.get_array().get(a) || a.raw_json().get(raw)) return false;
        } else if (!textOf(v, raw, nullptr)) {
            break;
        }
        if (!m_shape.empty()) m_shape += ' ';
        if (kind == ArgKind::GridBlock) {
            m_shape += key;
            m_shape += '=';
        }
        m_shape += trimView(raw);
        break;
    }
    case ArgKind::Other:
        if (m_metricKeys.isMetric(key)) {
            od::json_type t;
            if (v.type().get(t)) return false;
            if (t == od::json_type::number) {
                double d;
                if (!v.get_double().get(d)) m_metrics.emplace_back(m_b->intern(key), static_cast<float>(d));
            }
        }
        break;
    }
    return true;
}

void ChunkParser::Impl::addMetadata(const Event& ev) {
    const std::string_view name = ev.name, metaName = ev.metaName;
    // Labels "CPU"/"NPU" only name the kind of processor: Kineto puts them on host processes
    // and Ascend on every process, where they would hide "Ascend Hardware". Keep the name.
    const bool classLabel = eq(name, "process_labels") && (eq(metaName, "CPU") || eq(metaName, "NPU"));
    if (eq(name, "process_name") || (eq(name, "process_labels") && !metaName.empty() && !classLabel)) {
        if (eq(name, "process_name") || !metaName.empty()) m_b->setProcessName(m_pid, metaName);
        if (metaName == conventions::kAscendHardwareProcess) m_counts->ascendHints = true;
    } else if (eq(name, "thread_name")) {
        m_b->setThreadName(m_pid, m_tid, metaName);
    } else if (eq(name, "process_sort_index") && ev.haveSortIndex) {
        m_b->setProcessSortIndex(m_pid, ev.sortIndex);
    } else if (eq(name, "thread_sort_index") && ev.haveSortIndex) {
        m_b->setThreadSortIndex(m_pid, m_tid, ev.sortIndex);
    }
}

void ChunkParser::Impl::addSliceEvent(Event& ev, TimeNs ts, std::uint64_t offset) {
    const char p0 = ev.p0();
    TimeNs dur = 0;
    if (p0 == 'X') {
        if (!ev.haveDur) {
            warn(ImportProblem::XWithoutDur, offset);
            return;
        }
        std::optional<TimeNs> d;
        if (!ev.durBad) d = parseMicrosToNs(ev.durText);
        if (!d) {
            warn(!ev.durBad && parseDouble(ev.durText) ? ImportProblem::DurOutOfRange : ImportProblem::DurNotNumber,
                 offset);
            return;
        }
        if (*d < 0) {
            warn(ImportProblem::NegativeDur, offset);
            return;
        }
        if (*d > kMaxDurNs) {
            warn(ImportProblem::DurOutOfRange, offset);
            return;
        }
        dur = *d;
    }
    Slice s;
    s.start = ts;
    s.dur = dur;
    s.name = m_b->intern(ev.name);
    s.category = m_b->intern(ev.cat);
    s.track = m_b->track(m_pid, m_tid);
    s.phase = (p0 == 'i' || p0 == 'I') ? 'i' : 'X';
    s.flags = conventions::sliceFlagsOfCategory(ev.cat);
    SliceInfo& info = ev.info;
    info.srcOffset = offset;
    if (!m_shape.empty()) info.shape = m_b->intern(m_shape);
    if (p0 == 'B') {
        m_b->addBegin(s, info);
    } else {
        std::uint32_t idx = m_b->addSlice(s, info);
        for (auto& [k, val] : m_metrics) m_b->addMetric(idx, k, val);
    }
}

void ChunkParser::Impl::addCounterEvent(Event& ev, TimeNs ts, std::uint64_t offset) {
    if (m_counterValues.empty()) {
        warn(ImportProblem::CounterWithoutValues, offset);
        return;
    }
    if (ev.counterId.empty()) ev.counterId = m_id;
    for (auto& cv : m_counterValues)
        m_b->addCounter(m_pid, ev.name, ev.counterId, cv.key, ts, ascendTextCounterValue(ev.name, cv.key, cv.value));
}

void ChunkParser::Impl::addFlowEvent(const Event& ev, TimeNs ts, std::uint64_t offset) {
    if (m_id.empty()) {
        warn(ImportProblem::FlowWithoutId, offset);
        return;
    }
    if (ev.p0() == 's')
        m_b->addFlowStart(ev.cat, ev.name, m_id, m_b->track(m_pid, m_tid), ts);
    else
        m_b->addFlowEnd(ev.cat, ev.name, m_id, m_b->track(m_pid, m_tid), ts, eq(ev.bp, "e"));
}
}  // namespace contend::detail
