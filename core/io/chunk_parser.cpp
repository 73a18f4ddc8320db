#include "core/io/chunk_parser.h"

#include <array>
#include <cstring>
#include <limits>
#include <simdjson.h>
#include <string>
#include <vector>

#include "core/io/ascend_folder.h"
#include "core/io/decimal.h"
#include "core/io/json_scan.h"
#include "core/io/utf8.h"

// This file is compiled for AVX2 (see core/CMakeLists.txt): simdjson On-Demand chooses its kernel
// from the compile-time target, and the portable fallback is about three times slower.

namespace contend::detail {

namespace {

namespace od = simdjson::ondemand;
// A duration longer than this (about 11.6 days) is not an operator: treat it as malformed.
constexpr TimeNs kMaxDurNs = 1'000'000'000'000'000;

// Size first, then bytes: std::string_view's == goes through compare() and memcmp even when the
// sizes differ, which profiled as ~8% of load time here.
template <std::size_t N>
inline bool eq(std::string_view a, const char (&lit)[N]) {
    return a.size() == N - 1 && std::memcmp(a.data(), lit, N - 1) == 0;
}

bool isDeviceCategory(std::string_view c) {
    return eq(c, "kernel") || eq(c, "gpu_memcpy") || eq(c, "gpu_memset") || eq(c, "Kernel") || eq(c, "Memcpy") ||
           eq(c, "Memset") || eq(c, "mtia_ccp_events");
}
bool isMemoryCategory(std::string_view c) {
    return eq(c, "gpu_memcpy") || eq(c, "gpu_memset") || eq(c, "Memcpy") || eq(c, "Memset");
}
bool isLaunchCategory(std::string_view c) {
    return eq(c, "cuda_runtime") || eq(c, "cuda_driver") || eq(c, "Runtime") || eq(c, "mtia_runtime");
}
bool isKinetoCategory(std::string_view c) {
    return isDeviceCategory(c) || isLaunchCategory(c) || eq(c, "cpu_op") || eq(c, "ac2g") || eq(c, "Operator") ||
           eq(c, "user_annotation") || eq(c, "gpu_user_annotation");
}
// Per-op hardware metrics worth keeping from args (Kineto/CUPTI); the rest stay in the file.
bool isMetricKeyUncached(std::string_view k) {
    return k.find("occupancy") != std::string_view::npos || k.find("bandwidth") != std::string_view::npos ||
           k.find("(GB/s)") != std::string_view::npos || k.rfind("smsp__", 0) == 0 || k.rfind("sm__", 0) == 0 ||
           k.rfind("dram__", 0) == 0 || k.rfind("lts__", 0) == 0 || k.rfind("l1tex__", 0) == 0 ||
           k.rfind("gpu__", 0) == 0 || eq(k, "bytes");
}

// The same dozen arg keys repeat in every event; remember their classification.
class MetricKeyCache {
  public:
    bool isMetric(std::string_view k) {
        std::size_t h = std::hash<std::string_view>{}(k) & (kSlots - 1);
        Slot& s = m_slots[h];
        if (s.valid && s.key == k) return s.metric;
        s.valid = true;
        s.key.assign(k);
        s.metric = isMetricKeyUncached(k);
        return s.metric;
    }

  private:
    static constexpr std::size_t kSlots = 256;
    struct Slot {
        bool valid = false;
        bool metric = false;
        std::string key;
    };
    std::array<Slot, kSlots> m_slots;
};

// The slice args the model keeps. Classified by length first: this runs for every arg of every
// event, and a chain of string compares showed up as ~10% of load time.
enum class ArgKind { Other, Stream, Device, Correlation, ConnectionId, ExternalId, TaskId, TaskType, Shape, GridBlock };
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

std::string_view trimView(std::string_view s) {
    while (!s.empty() && json::isSpace(s.back())) s.remove_suffix(1);
    while (!s.empty() && json::isSpace(s.front())) s.remove_prefix(1);
    return s;
}

}  // namespace

struct ChunkParser::Impl {
    ParseStatus parse(const char* text, std::size_t len, std::uint64_t textOffset, bool findArrayEnd,
                      std::size_t* arrayEnd);
    ParseStatus handleEvent(od::object obj, std::uint64_t offset);
    ParseStatus fail(std::uint64_t offset, std::string reason) {
        m_error->offset = static_cast<std::int64_t>(offset);
        m_error->reason = std::move(reason);
        return ParseStatus::Error;
    }
    void warn(std::string_view kind, std::uint64_t offset) { m_b->warn(kind, "byte " + std::to_string(offset)); }

    // Set per call.
    TraceBuilder* m_b = nullptr;
    ChunkCounts* m_counts = nullptr;
    LoadError* m_error = nullptr;
    bool m_exact = false;

    std::vector<char> m_chunk;
    od::parser m_parser;
    // Per-event scratch, reused to avoid allocations.
    struct CounterValue {
        std::string key;
        double value;
    };
    std::vector<CounterValue> m_counterValues;
    std::vector<std::pair<StringId, float>> m_metrics;
    MetricKeyCache m_metricKeys;
    std::string m_shape;
    std::string m_pid, m_tid, m_id;
};

// Parses buffer bytes [a, b) as the elements of an array. With arrayEnd non-null the range may
// run past the end of the events array (optimistic cut); *arrayEnd then receives the buffer index
// of the closing ']' if it lies inside.
ParseStatus ChunkParser::Impl::parse(const char* text, std::size_t len, std::uint64_t textOffset, bool findArrayEnd,
                                     std::size_t* arrayEnd) {
    m_chunk.resize(len + 2 + simdjson::SIMDJSON_PADDING);
    m_chunk[0] = '[';
    std::memcpy(m_chunk.data() + 1, text, len);
    m_chunk[len + 1] = ']';
    std::memset(m_chunk.data() + len + 2, 0, simdjson::SIMDJSON_PADDING);
    // Stream offset of m_chunk[j] for j >= 1 is chunkBase + j.
    const std::uint64_t chunkBase = textOffset - 1;
    auto onError = [&](simdjson::error_code ec, const char* where) -> ParseStatus {
        if (!m_exact) return ParseStatus::Restart;
        std::uint64_t off = textOffset;
        if (where && where >= m_chunk.data() && where < m_chunk.data() + len + 2)
            off = chunkBase + static_cast<std::uint64_t>(where - m_chunk.data());
        std::string msg = simdjson::error_message(ec);
        if (ec == simdjson::UNCLOSED_STRING)
            msg = "a string is not closed";
        else if (ec == simdjson::TAPE_ERROR || ec == simdjson::INCOMPLETE_ARRAY_OR_OBJECT)
            msg = "malformed JSON: expected ',' or '}' / ']'";
        else if (ec == simdjson::UTF8_ERROR)
            msg = "invalid UTF-8";
        else if (ec == simdjson::NUMBER_ERROR)
            msg = "malformed number";
        else if (ec == simdjson::T_ATOM_ERROR || ec == simdjson::F_ATOM_ERROR || ec == simdjson::N_ATOM_ERROR)
            msg = "malformed literal (expected true, false or null)";
        return fail(off, msg);
    };
    od::document doc;
    auto ec = m_parser.iterate(m_chunk.data(), len + 2, m_chunk.size()).get(doc);
    if (ec == simdjson::UTF8_ERROR) {
        // Names copied from elsewhere (Latin-1, a cut multi-byte sequence): replace the bad bytes
        // one for one with '?' and parse again; offsets stay true to the file.
        std::size_t first = 0;
        const std::size_t n = repairUtf8(m_chunk.data() + 1, len, &first);
        if (n) m_b->warn("invalid UTF-8 replaced by '?'", "byte " + std::to_string(textOffset + first), n, "byte");
        ec = m_parser.iterate(m_chunk.data(), len + 2, m_chunk.size()).get(doc);
    }
    if (ec) return onError(ec, nullptr);
    od::array arr;
    if ((ec = doc.get_array().get(arr))) return onError(ec, nullptr);
    const char* lastLoc = m_chunk.data();
    for (auto el : arr) {
        od::value v;
        if ((ec = el.get(v))) return onError(ec, lastLoc);
        const char* loc = nullptr;
        if (v.current_location().get(loc)) loc = lastLoc;
        lastLoc = loc;
        std::uint64_t off = chunkBase + static_cast<std::uint64_t>(loc - m_chunk.data());
        ++m_counts->events;
        od::object obj;
        ec = v.get_object().get(obj);
        if (ec == simdjson::INCORRECT_TYPE) {
            warn("event is not an object", off);
            continue;
        }
        if (ec) return onError(ec, loc);
        ParseStatus st = handleEvent(obj, off);
        if (st != ParseStatus::Ok) return st;
    }
    if (findArrayEnd && arrayEnd) {
        // Did the root array end before our appended ']'? Then the events array ended inside.
        const char* at = nullptr;
        if (!doc.current_location().get(at) && at < m_chunk.data() + len + 1) {
            // `at` points past the ']' that closed the array; find it.
            const char* p = at;
            while (p > m_chunk.data() && *(p - 1) != ']') --p;
            std::size_t chunkIndex = static_cast<std::size_t>(p - 1 - m_chunk.data());
            *arrayEnd = chunkIndex - 1;
        }
    }
    return ParseStatus::Ok;
}

ParseStatus ChunkParser::Impl::handleEvent(od::object obj, std::uint64_t offset) {
    std::string_view ph, name, cat, bp;
    std::string_view tsText, durText;
    bool haveTs = false, haveDur = false, tsBad = false, durBad = false;
    bool argsDeferred = false;
    m_pid.clear();
    m_tid.clear();
    m_id.clear();
    bool tsIsString = false;

    auto textOf = [&](od::value v, std::string_view& out, bool* isString) -> bool {
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
    };
    // Args of this event are handled by `handleArgs` once ph is known.
    SliceInfo info;
    m_counterValues.clear();
    m_metrics.clear();
    m_shape.clear();
    std::string_view metaName;
    std::int64_t sortIndex = 0;
    bool haveSortIndex = false;
    std::string counterId;

    auto handleArgs = [&](od::value argsValue) -> bool {
        od::object args;
        if (argsValue.get_object().get(args)) return true;  // args not an object: ignore
        const char p0 = ph.empty() ? '\0' : ph[0];
        for (auto fr : args) {
            od::field f;
            if (std::move(fr).get(f)) return false;
            std::string_view key;
            if (f.unescaped_key().get(key)) return false;
            od::value v = f.value();
            if (p0 == 'C') {
                od::json_type t;
                if (v.type().get(t)) return false;
                std::string k(key);
                if (t == od::json_type::number) {
                    double d;
                    if (v.get_double().get(d)) continue;
                    if (eq(k, "acc_id"))
                        counterId = std::to_string(static_cast<long long>(d));
                    else
                        m_counterValues.push_back({std::move(k), d});
                } else if (t == od::json_type::string) {
                    std::string_view s;
                    if (v.get_string().get(s)) continue;
                    if (auto d = parseDouble(s)) m_counterValues.push_back({std::move(k), *d});
                }
                continue;
            }
            if (p0 == 'M') {
                if (eq(key, "name") || eq(key, "labels")) {
                    std::string_view s;
                    if (!v.get_string().get(s)) metaName = s;
                } else if (eq(key, "sort_index")) {
                    std::int64_t i;
                    if (!v.get_int64().get(i)) {
                        sortIndex = i;
                        haveSortIndex = true;
                    }
                }
                continue;
            }
            // Slice args.
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
        }
        return true;
    };

    auto malformed = [&](simdjson::error_code ec) {
        if (!m_exact) return ParseStatus::Restart;
        return fail(offset,
                    std::string("malformed JSON in the event that starts here (") + simdjson::error_message(ec) + ")");
    };
    simdjson::error_code ec;
    for (auto fr : obj) {
        od::field f;
        if ((ec = std::move(fr).get(f))) return malformed(ec);
        std::string_view key;
        if ((ec = f.unescaped_key().get(key))) return malformed(ec);
        od::value v = f.value();
        if (key.size() == 2) {
            if (eq(key, "ph")) {
                if (v.get_string().get(ph)) ph = {};
                continue;
            }
            if (eq(key, "ts")) {
                haveTs = true;
                tsBad = !textOf(v, tsText, &tsIsString);
                continue;
            }
            if (eq(key, "id")) {
                std::string_view s;
                if (textOf(v, s, nullptr)) m_id.assign(s);
                continue;
            }
            if (eq(key, "bp")) {
                if (v.get_string().get(bp)) bp = {};
                continue;
            }
        } else if (eq(key, "name")) {
            if (v.get_string().get(name)) name = {};
            continue;
        } else if (eq(key, "cat")) {
            if (v.get_string().get(cat)) cat = {};
            continue;
        } else if (eq(key, "dur")) {
            haveDur = true;
            durBad = !textOf(v, durText, nullptr);
            continue;
        } else if (eq(key, "pid") || eq(key, "tid")) {
            std::string_view s;
            if (textOf(v, s, nullptr))
                (key[0] == 'p' ? m_pid : m_tid).assign(s);
            else
                warn("pid or tid is not a number or string", offset);  // the event stays, on pid/tid ""
            continue;
        } else if (eq(key, "args")) {
            if (ph.empty()) {
                argsDeferred = true;
                continue;
            }
            if (!handleArgs(v)) return malformed(simdjson::TAPE_ERROR);
            continue;
        }
    }
    if (ph.empty()) {
        warn("event without \"ph\"", offset);
        return ParseStatus::Ok;
    }
    const char p0 = ph[0];
    if (ph.size() == 1 && static_cast<unsigned char>(p0) < 128)
        m_counts->phases[static_cast<unsigned char>(p0)]++;
    else
        countOtherPhase(m_counts->otherPhases, ph, 1);
    if (argsDeferred && (p0 == 'X' || p0 == 'B' || p0 == 'i' || p0 == 'I' || p0 == 'C' || p0 == 'M')) {
        // args came before ph: walk the object again for them (rare).
        if ((ec = obj.reset().error())) return malformed(ec);
        for (auto fr : obj) {
            od::field f;
            if ((ec = std::move(fr).get(f))) return malformed(ec);
            std::string_view key;
            if ((ec = f.unescaped_key().get(key))) return malformed(ec);
            if (eq(key, "args")) {
                if (!handleArgs(f.value())) return malformed(simdjson::TAPE_ERROR);
                break;
            }
        }
    }
    if (!cat.empty() && !m_counts->kinetoHints && isKinetoCategory(cat)) m_counts->kinetoHints = true;
    if (tsIsString) m_counts->ascendHints = true;

    if (p0 == 'M') {
        // Labels "CPU"/"NPU" only name the kind of processor: Kineto puts them on host processes
        // and Ascend on every process, where they would hide "Ascend Hardware". Keep the name.
        const bool classLabel = eq(name, "process_labels") && (eq(metaName, "CPU") || eq(metaName, "NPU"));
        if (eq(name, "process_name") || (eq(name, "process_labels") && !metaName.empty() && !classLabel)) {
            if (eq(name, "process_name") || !metaName.empty()) m_b->setProcessName(m_pid, metaName);
            if (eq(metaName, "Ascend Hardware")) m_counts->ascendHints = true;
        } else if (eq(name, "thread_name")) {
            m_b->setThreadName(m_pid, m_tid, metaName);
        } else if (eq(name, "process_sort_index") && haveSortIndex) {
            m_b->setProcessSortIndex(m_pid, sortIndex);
        } else if (eq(name, "thread_sort_index") && haveSortIndex) {
            m_b->setThreadSortIndex(m_pid, m_tid, sortIndex);
        }
        return ParseStatus::Ok;
    }
    const bool needsTs =
        p0 == 'X' || p0 == 'B' || p0 == 'E' || p0 == 'i' || p0 == 'I' || p0 == 'C' || p0 == 's' || p0 == 'f';
    if (!needsTs) return ParseStatus::Ok;  // async, object and other phases are counted only
    if (!haveTs) {
        warn("missing ts", offset);
        return ParseStatus::Ok;
    }
    std::optional<TimeNs> ts;
    if (!tsBad) ts = parseMicrosToNs(tsText);
    if (ts && !inRawTimeRange(*ts)) {
        warn("ts out of range", offset);
        return ParseStatus::Ok;
    }
    if (!ts) {
        warn(!tsBad && parseDouble(tsText) ? "ts out of range" : "ts is not a number", offset);
        return ParseStatus::Ok;
    }
    switch (p0) {
    case 'X':
    case 'B':
    case 'i':
    case 'I': {
        TimeNs dur = 0;
        if (p0 == 'X') {
            if (!haveDur) {
                warn("X event without dur", offset);
                return ParseStatus::Ok;
            }
            std::optional<TimeNs> d;
            if (!durBad) d = parseMicrosToNs(durText);
            if (!d) {
                warn(!durBad && parseDouble(durText) ? "dur out of range" : "dur is not a number", offset);
                return ParseStatus::Ok;
            }
            if (*d < 0) {
                warn("negative dur", offset);
                return ParseStatus::Ok;
            }
            if (*d > kMaxDurNs) {
                warn("dur out of range", offset);
                return ParseStatus::Ok;
            }
            dur = *d;
        }
        Slice s;
        s.start = *ts;
        s.dur = dur;
        s.name = m_b->intern(name);
        s.category = m_b->intern(cat);
        s.track = m_b->track(m_pid, m_tid);
        s.phase = (p0 == 'i' || p0 == 'I') ? 'i' : 'X';
        if (isDeviceCategory(cat)) s.flags |= kSliceDevice;
        if (isMemoryCategory(cat)) s.flags |= kSliceMemory;
        if (isLaunchCategory(cat)) s.flags |= kSliceLaunch;
        if (cat == "cuda_sync") s.flags |= kSliceWait;
        info.srcOffset = offset;
        if (!m_shape.empty()) info.shape = m_b->intern(m_shape);
        if (p0 == 'B') {
            m_b->addBegin(s, info);
        } else {
            std::uint32_t idx = m_b->addSlice(s, info);
            for (auto& [k, val] : m_metrics) m_b->addMetric(idx, k, val);
        }
        return ParseStatus::Ok;
    }
    case 'E': m_b->addEnd(m_b->track(m_pid, m_tid), *ts, offset); return ParseStatus::Ok;
    case 'C':
        if (m_counterValues.empty()) {
            warn("counter event without numeric args", offset);
            return ParseStatus::Ok;
        }
        if (counterId.empty()) counterId = m_id;
        for (auto& cv : m_counterValues)
            m_b->addCounter(m_pid, name, counterId, cv.key, *ts, ascendTextCounterValue(name, cv.key, cv.value));
        return ParseStatus::Ok;
    case 's':
    case 'f':
        if (m_id.empty()) {
            warn("flow event without id", offset);
            return ParseStatus::Ok;
        }
        if (p0 == 's')
            m_b->addFlowStart(cat, name, m_id, m_b->track(m_pid, m_tid), *ts);
        else
            m_b->addFlowEnd(cat, name, m_id, m_b->track(m_pid, m_tid), *ts, eq(bp, "e"));
        return ParseStatus::Ok;
    default: return ParseStatus::Ok;
    }
}

namespace {

// Python's json.dump writes float nan and inf as the bare words NaN, Infinity and -Infinity,
// which are not JSON. Outside strings, each becomes a string of the same length ("N",
// "Infini", "-Infini"), so offsets stay true to the file and the value reads as missing: a ts
// or dur that is not a number (the event is dropped with a warning), an arg or counter value
// that is skipped. Returns how many were replaced.
std::size_t quoteNonFinite(std::string& s) {
    std::size_t n = 0;
    bool inString = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        auto word = [&](std::string_view w) { return s.compare(i, w.size(), w) == 0; };
        std::size_t len = 0;
        if (c == 'N' && word("NaN"))
            len = 3;
        else if (c == 'I' && word("Infinity"))
            len = 8;
        else if (c == '-' && word("-Infinity"))
            len = 9;
        if (!len) continue;
        s[i] = '"';
        s[i + len - 1] = '"';
        ++n;
        i += len - 1;
    }
    return n;
}

}  // namespace

void countOtherPhase(std::map<std::string, std::uint64_t>& table, std::string_view ph, std::uint64_t n) {
    auto it = ph.size() <= 16 ? table.find(std::string(ph)) : table.end();
    if (it != table.end())
        it->second += n;
    else if (ph.size() <= 16 && table.size() < 64)
        table.emplace(std::string(ph), n);
    else
        table["(other)"] += n;
}

ChunkParser::ChunkParser() : m_impl(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;

ParseStatus ChunkParser::parse(const char* text, std::size_t len, std::uint64_t textOffset, bool exact,
                               bool findArrayEnd, TraceBuilder& out, ChunkCounts& counts, std::size_t* arrayEnd,
                               LoadError& error) {
    m_impl->m_b = &out;
    m_impl->m_counts = &counts;
    m_impl->m_error = &error;
    m_impl->m_exact = exact;
    ParseStatus st = m_impl->parse(text, len, textOffset, findArrayEnd, arrayEnd);
    if (st != ParseStatus::Error) return st;
    // A JSON error: if the chunk holds NaN/Infinity (not JSON, but what Python writes), read it
    // again with those quoted, into a fresh builder.
    std::string fixed(text, len);
    const std::size_t n = quoteNonFinite(fixed);
    if (!n) return st;
    const LoadError first = error;
    out = TraceBuilder("chrome");
    counts = ChunkCounts{};
    error = LoadError{};
    st = m_impl->parse(fixed.data(), fixed.size(), textOffset, findArrayEnd, arrayEnd);
    if (st == ParseStatus::Error) {
        error = first;  // the first problem is the one to show
        return st;
    }
    out.warn("NaN or Infinity (not JSON) read as a missing value", "byte " + std::to_string(first.offset), n, "value");
    return st;
}

}  // namespace contend::detail
