#include "core/io/chrome_json_reader.h"

#include <simdjson.h>

#include <array>
#include <cctype>
#include <map>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/io/decimal.h"
#include "core/io/json_scan.h"

namespace contend {

namespace {

namespace od = simdjson::ondemand;
constexpr std::size_t kNpos = std::numeric_limits<std::size_t>::max();
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
    return isDeviceCategory(c) || isLaunchCategory(c) || eq(c, "cpu_op") || eq(c, "ac2g") ||
           eq(c, "Operator") || eq(c, "user_annotation") || eq(c, "gpu_user_annotation");
}
// Per-op hardware metrics worth keeping from args (Kineto/CUPTI); the rest stay in the file.
bool isMetricKeyUncached(std::string_view k) {
    return k.find("occupancy") != std::string_view::npos || k.find("bandwidth") != std::string_view::npos ||
           k.find("(GB/s)") != std::string_view::npos || k.rfind("smsp__", 0) == 0 ||
           k.rfind("sm__", 0) == 0 || k.rfind("dram__", 0) == 0 || k.rfind("lts__", 0) == 0 ||
           k.rfind("l1tex__", 0) == 0 || eq(k, "bytes");
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

enum class Status { Ok, Restart, Error, Cancelled };

class Reader {
public:
    Reader(ByteSource& src, const std::string& name, TraceBuilder& b, const LoadOptions& o, bool exact)
        : m_src(src), m_name(name), m_b(b), m_opt(o), m_exact(exact) {}

    Status run();
    LoadError& error() { return m_error; }

private:
    // --- buffer ---------------------------------------------------------------------------
    bool fill(std::size_t want);
    void skipWs();
    char peek() { return m_pos < m_len ? m_buf[m_pos] : '\0'; }
    std::uint64_t streamOffset(std::size_t bufIndex) const { return m_bufOffset + bufIndex; }

    // --- structure ------------------------------------------------------------------------
    Status readObjectForm();
    Status readEvents();
    Status parseRange(std::size_t a, std::size_t b, std::size_t* arrayEnd);
    Status handleEvent(od::object obj, std::uint64_t offset);
    bool readTopLevelValue(std::string_view key);

    Status fail(std::uint64_t offset, std::string reason);
    Status failAtBuffer(std::size_t bufIndex, std::string reason) { return fail(streamOffset(bufIndex), std::move(reason)); }
    void warn(std::string_view kind, std::uint64_t offset) {
        m_b.warn(kind, "byte " + std::to_string(offset));
    }
    bool progress();

    ByteSource& m_src;
    const std::string& m_name;
    TraceBuilder& m_b;
    const LoadOptions& m_opt;
    bool m_exact;
    LoadError m_error;

    std::vector<char> m_buf;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::uint64_t m_bufOffset = 0;  // stream offset of m_buf[0]
    bool m_eof = false;


    std::vector<char> m_chunk;
    od::parser m_parser;
    std::uint64_t m_events = 0;
    std::array<std::uint64_t, 128> m_phaseCounts{};
    std::map<std::string, std::uint64_t> m_otherPhases;
    bool m_kinetoHints = false;
    bool m_ascendHints = false;
    bool m_objectForm = false;
    bool m_sawEvents = false;

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

    friend Status readAll(Reader&);
};

bool Reader::fill(std::size_t want) {
    if (m_len - m_pos >= want || m_eof) return m_len - m_pos >= want;
    // Compact: drop consumed bytes.
    if (m_pos > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_len - m_pos);
        m_bufOffset += m_pos;
        m_len -= m_pos;
        m_pos = 0;
    }
    if (m_buf.size() < want + simdjson::SIMDJSON_PADDING) m_buf.resize(want + simdjson::SIMDJSON_PADDING);
    while (m_len < want && !m_eof) {
        std::size_t got = m_src.read(m_buf.data() + m_len, want - m_len);
        if (got == 0) m_eof = true;
        m_len += got;
    }
    return m_len - m_pos >= want;
}

void Reader::skipWs() {
    for (;;) {
        while (m_pos < m_len && json::isSpace(m_buf[m_pos])) ++m_pos;
        if (m_pos < m_len || m_eof) return;
        fill(64 * 1024);
    }
}

Status Reader::fail(std::uint64_t offset, std::string reason) {
    m_error.file = m_name;
    m_error.offset = static_cast<std::int64_t>(offset);
    m_error.reason = std::move(reason);
    // Line and column are filled in by readChromeJson, which re-reads the text up to the offset:
    // counting newlines while streaming would cost every load ~10% for the rare broken file.
    return Status::Error;
}

bool Reader::progress() {
    if (!m_opt.progress) return true;
    std::uint64_t total = m_src.fileSize();
    double f = total ? static_cast<double>(m_src.consumed()) / static_cast<double>(total) : 0.0;
    return m_opt.progress(std::min(1.0, f));
}

Status Reader::run() {
    // Room for the slices up front (Kineto events are 200-600 bytes): reserving touches no
    // pages, and it saves the copies and page clearing of repeated growth.
    m_b.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m_src.sizeHint() / 200, 50'000'000)));
    fill(m_opt.chunkBytes);
    // UTF-8 byte order mark.
    if (m_len >= 3 && static_cast<unsigned char>(m_buf[0]) == 0xEF &&
        static_cast<unsigned char>(m_buf[1]) == 0xBB && static_cast<unsigned char>(m_buf[2]) == 0xBF)
        m_pos = 3;
    skipWs();
    if (m_pos >= m_len) {
        if (!m_src.error().empty()) return failAtBuffer(m_pos, m_src.error());
        return fail(0, m_len == 0 ? "the file is empty" : "the file holds only white space");
    }
    char c = peek();
    Status st;
    if (c == '[') {
        ++m_pos;
        m_sawEvents = true;
        st = readEvents();
        if (st == Status::Ok) {
            skipWs();
            if (m_pos < m_len && !m_b.stats().truncated)
                warn("text after the end of the events array", streamOffset(m_pos));
        }
    } else if (c == '{') {
        m_objectForm = true;
        ++m_pos;
        st = readObjectForm();
        if (st == Status::Ok && !m_sawEvents)
            return fail(0, "not a trace: the JSON object has no \"traceEvents\" array");
    } else {
        std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                        : "byte 0x" + std::to_string(static_cast<unsigned char>(c));
        return failAtBuffer(m_pos, "not a JSON trace: it starts with '" + shown + "', expected '{' or '['");
    }
    if (st != Status::Ok) return st;
    if (!m_src.error().empty()) {
        if (m_src.truncated()) {
            m_b.stats().truncated = true;
        } else {
            return failAtBuffer(m_len, m_src.error());
        }
    }
    // Stats and format.
    auto& stats = m_b.stats();
    stats.events = m_events;
    for (std::size_t k = 0; k < m_phaseCounts.size(); ++k)
        if (m_phaseCounts[k]) stats.phases[std::string(1, static_cast<char>(k))] += m_phaseCounts[k];
    for (auto& [k, v] : m_otherPhases) stats.phases[k] += v;
    stats.bytes = m_bufOffset + m_len;
    stats.fileBytes = m_src.fileSize();
    if (m_ascendHints) m_b.setFormat("ascend");
    else if (m_kinetoHints) m_b.setFormat("kineto");
    else m_b.setFormat("chrome");
    return Status::Ok;
}

// Reads the keys of the top-level object; the traceEvents array is streamed, everything else is
// small metadata (or skipped when large, like systemTraceEvents).
Status Reader::readObjectForm() {
    for (;;) {
        skipWs();
        if (m_pos >= m_len) {
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : fail(streamOffset(m_pos), "the file ends inside the top-level object");
        }
        char c = peek();
        if (c == '}') {
            ++m_pos;
            return Status::Ok;
        }
        if (c == ',') {
            ++m_pos;
            continue;
        }
        if (c != '"') return failAtBuffer(m_pos, std::string("expected a key or '}' in the top-level object, found '") + c + "'");
        // Key.
        std::size_t keyEnd = 0;
        for (std::size_t want = 4096;; want *= 2) {
            keyEnd = json::scanValue(m_buf.data() + m_pos, m_len - m_pos);
            if (keyEnd || m_eof || want > m_opt.maxEventBytes) break;
            fill(want);
        }
        if (!keyEnd) {
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : failAtBuffer(m_pos, "the file ends inside a key");
        }
        std::string key(m_buf.data() + m_pos + 1, keyEnd - 2);
        m_pos += keyEnd;
        skipWs();
        if (peek() != ':') return failAtBuffer(m_pos, "expected ':' after key \"" + key + "\"");
        ++m_pos;
        skipWs();
        if (eq(key, "traceEvents") && peek() == '[') {
            ++m_pos;
            m_sawEvents = true;
            Status st = readEvents();
            if (st != Status::Ok) return st;
            if (m_b.stats().truncated) return Status::Ok;
            continue;
        }
        if (!readTopLevelValue(key)) {
            if (m_error.reason.size()) return Status::Error;
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : failAtBuffer(m_pos, "the file ends inside the value of \"" + key + "\"");
        }
    }
}

bool Reader::readTopLevelValue(std::string_view key) {
    std::size_t end = 0;
    for (std::size_t want = 64 * 1024;; want *= 2) {
        end = json::scanValue(m_buf.data() + m_pos, m_len - m_pos);
        if (end || m_eof) break;
        if (want > m_opt.maxEventBytes) {
            failAtBuffer(m_pos, "the value of \"" + std::string(key) + "\" is larger than the limit of " +
                                    std::to_string(m_opt.maxEventBytes >> 20) + " MB");
            return false;
        }
        fill(want);
    }
    if (!end) return false;
    std::string_view text = trimView(std::string_view(m_buf.data() + m_pos, end));
    if (eq(key, "schemaVersion") || eq(key, "deviceProperties") || eq(key, "distributedInfo") ||
        eq(key, "computeProperties") || eq(key, "traceName"))
        m_kinetoHints = true;
    if (eq(key, "baseTimeNanoseconds")) {
        m_kinetoHints = true;
        if (auto v = parseInt(text)) m_b.setBaseTime(*v);
        else warn("baseTimeNanoseconds is not an integer", streamOffset(m_pos));
    } else if (eq(key, "displayTimeUnit") && text.size() >= 2 && text.front() == '"') {
        m_b.setDisplayTimeUnit(std::string(text.substr(1, text.size() - 2)));
    } else if (eq(key, "traceEvents")) {
        warn("traceEvents is not an array", streamOffset(m_pos));
    }
    m_pos += end;
    return true;
}

Status Reader::readEvents() {
    const std::size_t chunk = std::max<std::size_t>(m_opt.chunkBytes, 4096);
    std::size_t want = chunk;
    for (;;) {
        if (!progress()) return Status::Cancelled;
        fill(want);
        skipWs();
        if (peek() == ']') {  // empty array, or the end right after a boundary
            ++m_pos;
            return Status::Ok;
        }
        const std::size_t avail = m_len - m_pos;
        if (!m_exact && !m_eof) {
            std::size_t next = 0;
            std::size_t cut = json::findEventBoundaryBackward(m_buf.data() + m_pos, avail, &next);
            if (cut == kNpos) {
                if (avail >= m_opt.maxEventBytes)
                    return failAtBuffer(m_pos, "an event is larger than the limit of " +
                                                   std::to_string(m_opt.maxEventBytes >> 20) + " MB");
                want = avail * 2;
                continue;
            }
            std::size_t arrayEnd = kNpos;
            Status st = parseRange(m_pos, m_pos + cut + 1, &arrayEnd);
            if (st != Status::Ok) return st;
            if (arrayEnd != kNpos) {
                m_pos = arrayEnd + 1;
                return Status::Ok;
            }
            m_pos += next;
            want = chunk;
            continue;
        }
        // Exact: find element boundaries byte by byte.
        json::ElementScan scan = json::scanElements(m_buf.data() + m_pos, avail);
        if (scan.badStructure) {
            // Let simdjson describe the problem in the elements up to here.
            std::size_t upto = scan.elements ? scan.lastElementEnd : 0;
            if (upto) {
                Status st = parseRange(m_pos, m_pos + upto, nullptr);
                if (st != Status::Ok) return st;
            }
            return failAtBuffer(m_pos + upto, "unbalanced brackets in the events array");
        }
        if (scan.arrayClosed) {
            if (scan.elements) {
                Status st = parseRange(m_pos, m_pos + scan.lastElementEnd, nullptr);
                if (st != Status::Ok) return st;
            }
            m_pos += scan.closePos + 1;
            return Status::Ok;
        }
        if (m_eof) {
            // Truncated: keep every complete event.
            if (scan.elements) {
                Status st = parseRange(m_pos, m_pos + scan.lastElementEnd, nullptr);
                if (st != Status::Ok) return st;
            }
            m_b.stats().truncated = true;
            m_b.warn("file truncated", "the events array is cut off after byte " +
                                            std::to_string(streamOffset(m_pos + (scan.elements ? scan.lastElementEnd : 0))));
            m_pos = m_len;
            return Status::Ok;
        }
        if (scan.elements == 0) {
            if (avail >= m_opt.maxEventBytes)
                return failAtBuffer(m_pos, "an event is larger than the limit of " +
                                               std::to_string(m_opt.maxEventBytes >> 20) + " MB");
            want = avail * 2;
            continue;
        }
        Status st = parseRange(m_pos, m_pos + scan.lastElementEnd, nullptr);
        if (st != Status::Ok) return st;
        m_pos += scan.lastElementEnd + 1;  // past the ','
        want = chunk;
    }
}

// Parses buffer bytes [a, b) as the elements of an array. With arrayEnd non-null the range may
// run past the end of the events array (optimistic cut); *arrayEnd then receives the buffer index
// of the closing ']' if it lies inside.
Status Reader::parseRange(std::size_t a, std::size_t b, std::size_t* arrayEnd) {
    const std::size_t len = b - a;
    m_chunk.resize(len + 2 + simdjson::SIMDJSON_PADDING);
    m_chunk[0] = '[';
    std::memcpy(m_chunk.data() + 1, m_buf.data() + a, len);
    m_chunk[len + 1] = ']';
    std::memset(m_chunk.data() + len + 2, 0, simdjson::SIMDJSON_PADDING);
    // Stream offset of m_chunk[j] for j >= 1 is chunkBase + j.
    const std::uint64_t chunkBase = streamOffset(a) - 1;
    auto onError = [&](simdjson::error_code ec, const char* where) -> Status {
        if (!m_exact) return Status::Restart;
        std::uint64_t off = streamOffset(a);
        if (where && where >= m_chunk.data() && where < m_chunk.data() + len + 2)
            off = chunkBase + static_cast<std::uint64_t>(where - m_chunk.data());
        std::string msg = simdjson::error_message(ec);
        if (ec == simdjson::UNCLOSED_STRING) msg = "a string is not closed";
        else if (ec == simdjson::TAPE_ERROR || ec == simdjson::INCOMPLETE_ARRAY_OR_OBJECT)
            msg = "malformed JSON: expected ',' or '}' / ']'";
        else if (ec == simdjson::UTF8_ERROR) msg = "invalid UTF-8";
        else if (ec == simdjson::NUMBER_ERROR) msg = "malformed number";
        else if (ec == simdjson::T_ATOM_ERROR || ec == simdjson::F_ATOM_ERROR || ec == simdjson::N_ATOM_ERROR)
            msg = "malformed literal (expected true, false or null)";
        return fail(off, msg);
    };
    od::document doc;
    auto ec = m_parser.iterate(m_chunk.data(), len + 2, m_chunk.size()).get(doc);
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
        ++m_events;
        od::object obj;
        ec = v.get_object().get(obj);
        if (ec == simdjson::INCORRECT_TYPE) {
            warn("event is not an object", off);
            continue;
        }
        if (ec) return onError(ec, loc);
        Status st = handleEvent(obj, off);
        if (st != Status::Ok) return st;
    }
    if (arrayEnd) {
        // Did the root array end before our appended ']'? Then the events array ended inside.
        const char* at = nullptr;
        if (!doc.current_location().get(at) && at < m_chunk.data() + len + 1) {
            // `at` points past the ']' that closed the array; find it.
            const char* p = at;
            while (p > m_chunk.data() && *(p - 1) != ']') --p;
            std::size_t chunkIndex = static_cast<std::size_t>(p - 1 - m_chunk.data());
            *arrayEnd = a + chunkIndex - 1;
        }
    }
    return Status::Ok;
}

Status Reader::handleEvent(od::object obj, std::uint64_t offset) {
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
                    if (eq(k, "acc_id")) counterId = std::to_string(static_cast<long long>(d));
                    else m_counterValues.push_back({std::move(k), d});
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
                    if (auto i = parseInt(text)) info.stream = static_cast<std::int32_t>(*i);
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
                if (textOf(v, text, nullptr)) info.taskType = m_b.intern(text);
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
                        if (!v.get_double().get(d)) m_metrics.emplace_back(m_b.intern(key), static_cast<float>(d));
                    }
                }
                break;
            }
        }
        return true;
    };

    auto malformed = [&](simdjson::error_code ec) {
        if (!m_exact) return Status::Restart;
        return fail(offset, std::string("malformed JSON in the event that starts here (") +
                                simdjson::error_message(ec) + ")");
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
            if (textOf(v, s, nullptr)) (key[0] == 'p' ? m_pid : m_tid).assign(s);
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
        return Status::Ok;
    }
    const char p0 = ph[0];
    if (ph.size() == 1 && static_cast<unsigned char>(p0) < 128) m_phaseCounts[static_cast<unsigned char>(p0)]++;
    else m_otherPhases[std::string(ph)]++;
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
    if (!cat.empty() && !m_kinetoHints && isKinetoCategory(cat)) m_kinetoHints = true;
    if (tsIsString) m_ascendHints = true;

    if (p0 == 'M') {
        // Labels "CPU"/"NPU" only name the kind of processor: Kineto puts them on host processes
        // and Ascend on every process, where they would hide "Ascend Hardware". Keep the name.
        const bool classLabel = eq(name, "process_labels") && (eq(metaName, "CPU") || eq(metaName, "NPU"));
        if (eq(name, "process_name") || (eq(name, "process_labels") && !metaName.empty() && !classLabel)) {
            if (eq(name, "process_name") || !metaName.empty()) m_b.setProcessName(m_pid, metaName);
            if (eq(metaName, "Ascend Hardware")) m_ascendHints = true;
        } else if (eq(name, "thread_name")) {
            m_b.setThreadName(m_pid, m_tid, metaName);
        } else if (eq(name, "process_sort_index") && haveSortIndex) {
            m_b.setProcessSortIndex(m_pid, sortIndex);
        } else if (eq(name, "thread_sort_index") && haveSortIndex) {
            m_b.setThreadSortIndex(m_pid, m_tid, sortIndex);
        }
        return Status::Ok;
    }
    const bool needsTs = p0 == 'X' || p0 == 'B' || p0 == 'E' || p0 == 'i' || p0 == 'I' || p0 == 'C' ||
                         p0 == 's' || p0 == 'f';
    if (!needsTs) return Status::Ok;  // async, object and other phases are counted only
    if (!haveTs) {
        warn("missing ts", offset);
        return Status::Ok;
    }
    std::optional<TimeNs> ts;
    if (!tsBad) ts = parseMicrosToNs(tsText);
    if (!ts) {
        warn(!tsBad && parseDouble(tsText) ? "ts out of range" : "ts is not a number", offset);
        return Status::Ok;
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
                return Status::Ok;
            }
            std::optional<TimeNs> d;
            if (!durBad) d = parseMicrosToNs(durText);
            if (!d) {
                warn(!durBad && parseDouble(durText) ? "dur out of range" : "dur is not a number", offset);
                return Status::Ok;
            }
            if (*d < 0) {
                warn("negative dur", offset);
                return Status::Ok;
            }
            if (*d > kMaxDurNs) {
                warn("dur out of range", offset);
                return Status::Ok;
            }
            dur = *d;
        }
        Slice s;
        s.start = *ts;
        s.dur = dur;
        s.name = m_b.intern(name);
        s.category = m_b.intern(cat);
        s.track = m_b.track(m_pid, m_tid);
        s.phase = (p0 == 'i' || p0 == 'I') ? 'i' : 'X';
        if (isDeviceCategory(cat)) s.flags |= kSliceDevice;
        if (isMemoryCategory(cat)) s.flags |= kSliceMemory;
        if (isLaunchCategory(cat)) s.flags |= kSliceLaunch;
        if (cat == "cuda_sync") s.flags |= kSliceWait;
        info.srcOffset = offset;
        if (!m_shape.empty()) info.shape = m_b.intern(m_shape);
        if (p0 == 'B') {
            m_b.addBegin(s, info);
        } else {
            std::uint32_t idx = m_b.addSlice(s, info);
            for (auto& [k, val] : m_metrics) m_b.addMetric(idx, k, val);
        }
        return Status::Ok;
    }
    case 'E':
        m_b.addEnd(m_b.track(m_pid, m_tid), *ts, offset);
        return Status::Ok;
    case 'C':
        if (m_counterValues.empty()) {
            warn("counter event without numeric args", offset);
            return Status::Ok;
        }
        if (counterId.empty()) counterId = m_id;
        for (auto& cv : m_counterValues) m_b.addCounter(m_pid, name, counterId, cv.key, *ts, cv.value);
        return Status::Ok;
    case 's':
    case 'f':
        if (m_id.empty()) {
            warn("flow event without id", offset);
            return Status::Ok;
        }
        if (p0 == 's') m_b.addFlowStart(cat, name, m_id, m_b.track(m_pid, m_tid), *ts);
        else m_b.addFlowEnd(cat, name, m_id, m_b.track(m_pid, m_tid), *ts, eq(bp, "e"));
        return Status::Ok;
    default:
        return Status::Ok;
    }
}

// Fills line and column of an error by reading the source again up to its offset.
void locate(const SourceFactory& open, LoadError& e) {
    std::string ignored;
    auto src = open(ignored);
    if (!src) return;
    std::vector<char> buf(1 << 20);
    std::uint64_t pos = 0;
    std::int64_t line = 1;
    std::uint64_t lineStart = 0;
    const auto target = static_cast<std::uint64_t>(e.offset);
    while (pos < target) {
        std::size_t n = src->read(buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), target - pos)));
        if (n == 0) break;
        for (std::size_t k = 0; k < n; ++k) {
            if (buf[k] == '\n') {
                ++line;
                lineStart = pos + k + 1;
            }
        }
        pos += n;
    }
    e.line = line;
    e.column = static_cast<std::int64_t>(target - lineStart) + 1;
}

}  // namespace

std::optional<LoadError> readChromeJson(const SourceFactory& open, const std::string& name,
                                        TraceBuilder& builder, const LoadOptions& options,
                                        bool* cancelled) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool exact = attempt == 1;
        std::string openError;
        auto src = open(openError);
        if (!src) {
            LoadError e;
            e.file = name;
            e.reason = openError;
            return e;
        }
        Reader reader(*src, name, builder, options, exact);
        Status st = reader.run();
        if (st == Status::Ok) return std::nullopt;
        if (st == Status::Cancelled) {
            if (cancelled) *cancelled = true;
            LoadError e;
            e.file = name;
            e.reason = "cancelled";
            return e;
        }
        if (st == Status::Error) {
            LoadError e = reader.error();
            if (e.offset >= 0) locate(open, e);
            return e;
        }
        // Restart: the optimistic chunking hit something it could not verify; start over with a
        // fresh model and exact boundaries.
        builder = TraceBuilder("chrome");
    }
    LoadError e;
    e.file = name;
    e.reason = "internal error: the exact reader asked for a restart";
    return e;
}

}  // namespace contend
