#pragma once
// The chunk parser's insides, shared by chunk_parser.cpp (the chunk: simdjson over its text,
// element by element) and chunk_event.cpp (one event: its fields and args, then the slice,
// counter, flow or metadata it adds). Both are compiled for AVX2 (core/CMakeLists.txt): simdjson
// On-Demand chooses its kernel from the compile-time target. Not for use outside core/io.
#include <array>
#include <cstring>
#include <simdjson.h>
#include <string>
#include <vector>

#include "core/io/json/chunk_parser.h"
#include "core/io/json/json_scan.h"

namespace contend::detail {

namespace od = simdjson::ondemand;
using contend::kMaxDurNs;  // core/trace/types.h: longer is not an operator

// Size first, then bytes: std::string_view's == goes through compare() and memcmp even when the
// sizes differ, which profiled as ~8% of load time here.
template <std::size_t N>
inline bool eq(std::string_view a, const char (&lit)[N]) {
    return a.size() == N - 1 && std::memcmp(a.data(), lit, N - 1) == 0;
}

// Per-op hardware metrics worth keeping from args (Kineto/CUPTI); the rest stay in the file.
bool isMetricKeyUncached(std::string_view k);

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
ArgKind argKind(std::string_view k);

inline std::string_view trimView(std::string_view s) {
    while (!s.empty() && json::isSpace(s.back())) s.remove_suffix(1);
    while (!s.empty() && json::isSpace(s.front())) s.remove_prefix(1);
    return s;
}

// The per-event steps below run for every event and arg: forced inline into handleEvent, where
// they began as lambdas. Values are passed by reference: a by-value od::value is copied through
// the stack (rep movs, then store-forwarding stalls), which cost the load about a fifth of its
// speed.
#define CONTEND_EVENT_STEP [[gnu::always_inline]] inline

struct ChunkParser::Impl {
    // The event being read, a local of handleEvent (so that it can live in registers): views
    // into the parser's buffers.
    struct Event {
        std::string_view ph, name, cat, bp;
        std::string_view tsText, durText;
        bool haveTs = false, haveDur = false, tsBad = false, durBad = false, tsIsString = false;
        bool argsDeferred = false;
        SliceInfo info;
        std::string_view metaName;
        std::int64_t sortIndex = 0;
        bool haveSortIndex = false;
        std::string counterId;
        char p0() const { return ph.empty() ? '\0' : ph[0]; }
    };
    // Parses the `len` bytes at `text` as the elements of an array. `text` has kChunkHead
    // writable bytes before it and kChunkTail after (Chunk), where the framing is written.
    ParseStatus parse(char* text, std::size_t len, std::uint64_t textOffset, bool exact, bool findArrayEnd,
                      ChunkResult& result);

    // --- one event, in the order handleEvent runs them -----------------------------------------
    ParseStatus handleEvent(od::object obj, std::uint64_t offset);
    // The event's top-level keys into m_ev (args once ph is known: they may come first).
    CONTEND_EVENT_STEP ParseStatus readFields(Event& ev, od::object& obj, std::uint64_t offset);
    CONTEND_EVENT_STEP bool readArgs(Event& ev, od::value& argsValue);
    CONTEND_EVENT_STEP bool readCounterArg(Event& ev, std::string_view key, od::value& v);
    CONTEND_EVENT_STEP void readMetadataArg(Event& ev, std::string_view key, od::value& v);
    CONTEND_EVENT_STEP bool readSliceArg(Event& ev, std::string_view key, od::value& v);
    CONTEND_EVENT_STEP void addMetadata(const Event& ev);
    // X, B, i/I: the slice with its args; false when the event was dropped (with a warning).
    CONTEND_EVENT_STEP void addSliceEvent(Event& ev, TimeNs ts, std::uint64_t offset);
    CONTEND_EVENT_STEP void addCounterEvent(Event& ev, TimeNs ts, std::uint64_t offset);
    CONTEND_EVENT_STEP void addFlowEvent(const Event& ev, TimeNs ts, std::uint64_t offset);

    ParseStatus fail(std::uint64_t offset, std::string reason) {
        m_error->offset = static_cast<std::int64_t>(offset);
        m_error->reason = std::move(reason);
        m_error->kind = Failure::Kind::Malformed;
        return ParseStatus::Error;
    }
    ParseStatus malformed(std::uint64_t offset, simdjson::error_code ec) {
        if (!m_exact) return ParseStatus::Restart;
        return fail(offset,
                    std::string("malformed JSON in the event that starts here (") + simdjson::error_message(ec) + ")");
    }
    void warn(ImportProblem problem, std::uint64_t offset) { m_b->warn(problem, "byte " + std::to_string(offset)); }

    // Set per call.
    TraceBuilder* m_b = nullptr;
    ChunkCounts* m_counts = nullptr;
    Failure* m_error = nullptr;
    bool m_exact = false;

    std::vector<char> m_repaired;  // a chunk with invalid UTF-8, repaired in a copy of its own
    od::parser m_parser;

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

}  // namespace contend::detail
