#include "core/report/breakdowns/breakdowns_json.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace contend {

using nlohmann::json;

namespace {

json rankJson(int rank) { return rank >= 0 ? json(rank) : json(nullptr); }
double finite(double v) { return std::isfinite(v) ? v : 0.0; }

template <typename Row, typename Fn>
json rowsJson(const BreakdownSection<Row>& s, Fn fn) {
    json a = json::array();
    for (const Row& r : s.rows) a.push_back(fn(r));
    return a;
}

// Reading: a field of a row, by name, with the place named when it is wrong.
struct RowReader {
    const json& row;
    std::string at;
    double number(const char* key) const {
        if (!row.contains(key) || !row[key].is_number())
            throw Failure::of(Failure::Kind::Malformed, at + ": " + key + " is missing or not a number");
        return row[key].get<double>();
    }
    // A whole number in int64's range (a float where one belongs is rounded).
    double whole(const char* key) const {
        const double v = number(key);
        if (!(std::fabs(v) < 9.2e18)) throw Failure::of(Failure::Kind::Malformed, at + ": " + key + " is out of range");
        return v;
    }
    TimeNs ns(const char* key) const { return static_cast<TimeNs>(std::llround(whole(key))); }
    std::uint64_t count(const char* key) const {
        const double v = whole(key);
        if (v < 0) throw Failure::of(Failure::Kind::Malformed, at + ": " + key + " is negative");
        return static_cast<std::uint64_t>(std::llround(v));
    }
    int rank() const {
        if (!row.contains("rank") || row["rank"].is_null()) return -1;
        const double v = number("rank");
        if (v < 0 || v > (1 << 30)) throw Failure::of(Failure::Kind::Malformed, at + ": rank is out of range");
        return static_cast<int>(v);
    }
    std::int32_t stream() const {
        const double v = number("stream");
        if (v < -1 || v > 2147483647.0) throw Failure::of(Failure::Kind::Malformed, at + ": stream is out of range");
        return static_cast<std::int32_t>(v);
    }
    std::string text(const char* key) const {
        if (!row.contains(key) || !row[key].is_string())
            throw Failure::of(Failure::Kind::Malformed, at + ": " + key + " is missing or not a string");
        return row[key].get<std::string>();
    }
};

// A copy kind's histogram (older reports have none: empty).
CopyHistogram readHistogram(const RowReader& r) {
    CopyHistogram h;
    if (!r.row.contains("copy_histogram")) return h;
    const json& o = r.row["copy_histogram"];
    const auto bad = [&] {
        return Failure::of(Failure::Kind::Malformed, r.at +
                                                         ": copy_histogram needs edges_gbps (one more than counts) "
                                                         "and counts, as numbers");
    };
    if (!o.is_object() || !o.contains("edges_gbps") || !o.contains("counts") || !o["edges_gbps"].is_array() ||
        !o["counts"].is_array())
        throw bad();
    for (const json& e : o["edges_gbps"]) {
        if (!e.is_number()) throw bad();
        h.edgesGbps.push_back(e.get<double>());
    }
    for (const json& c : o["counts"]) {
        if (!c.is_number_unsigned()) throw bad();
        h.counts.push_back(c.get<std::uint64_t>());
    }
    if (h.edgesGbps.size() != (h.counts.empty() ? 0 : h.counts.size() + 1)) throw bad();
    return h;
}

template <typename Row, typename Fn>
void readRows(const json& j, const char* key, BreakdownSection<Row>& s, Fn fn) {
    const std::string where = std::string("breakdowns/") + key;
    if (j.contains("not_computed") && j["not_computed"].is_object() && j["not_computed"].contains(key)) {
        const json& why = j["not_computed"][key];
        if (!why.is_string())
            throw Failure::of(Failure::Kind::Malformed,
                              "breakdowns/not_computed/" + std::string(key) + ": not a string");
        s.notComputed = why.get<std::string>();
    }
    if (!j.contains(key)) return;
    if (!j[key].is_array()) throw Failure::of(Failure::Kind::Malformed, where + ": not an array");
    std::size_t i = 0;
    for (const json& row : j[key]) {
        const std::string at = where + "/" + std::to_string(i++);
        if (!row.is_object()) throw Failure::of(Failure::Kind::Malformed, at + ": not an object");
        s.rows.push_back(fn(RowReader{row, at}));
    }
}

json temporalJson(const RankTemporal& r) {
    return json{{"rank", rankJson(r.rank)},
                {"idle_ns", r.idleNs},
                {"compute_ns", r.computeNs},
                {"non_compute_ns", r.nonComputeNs},
                {"kernel_ns", r.kernelNs}};
}
json overlapJson(const RankOverlap& r) {
    return json{{"rank", rankJson(r.rank)},
                {"fraction", finite(r.fraction)},
                {"comm_ns", r.commNs},
                {"overlap_ns", r.overlapNs}};
}
json idleJson(const StreamIdle& r) {
    return json{{"rank", rankJson(r.rank)},
                {"stream", r.stream},
                {"host_wait_ns", r.hostWaitNs},
                {"kernel_wait_ns", r.kernelWaitNs},
                {"other_ns", r.otherNs}};
}
json queueJson(const StreamQueue& r) {
    return json{{"rank", rankJson(r.rank)},
                {"stream", r.stream},
                {"samples", r.samples},
                {"mean", finite(r.mean)},
                {"p25", r.p25},
                {"p50", r.p50},
                {"p75", r.p75},
                {"max", r.max},
                {"blocked_on_full_queue_ns", r.blockedOnFullQueueNs}};
}
StreamIdle readIdle(const RowReader& r) {
    return StreamIdle{r.rank(), r.stream(), r.ns("host_wait_ns"), r.ns("kernel_wait_ns"), r.ns("other_ns")};
}
StreamQueue readQueue(const RowReader& r) {
    return StreamQueue{r.rank(),
                       r.stream(),
                       r.count("samples"),
                       r.number("mean"),
                       r.number("p25"),
                       r.number("p50"),
                       r.number("p75"),
                       static_cast<std::int64_t>(r.whole("max")),
                       r.ns("blocked_on_full_queue_ns")};
}
RankTemporal readTemporal(const RowReader& r) {
    return RankTemporal{r.rank(), r.ns("idle_ns"), r.ns("compute_ns"), r.ns("non_compute_ns"), r.ns("kernel_ns")};
}
RankOverlap readOverlap(const RowReader& r) {
    return RankOverlap{r.rank(), r.number("fraction"), r.ns("comm_ns"), r.ns("overlap_ns")};
}

}  // namespace

json breakdownsToJson(const TraceBreakdowns& b) {
    json j = json::object();
    j["scope"] = b.scope;
    j["device_ops"] = b.deviceOps;
    j["in_scope"] = b.inScope;
    j["temporal"] = rowsJson(b.temporal, temporalJson);
    j["idle"] = rowsJson(b.idle, idleJson);
    j["comm_comp_overlap"] = rowsJson(b.commCompOverlap, overlapJson);
    j["queue_length"] = rowsJson(b.queueLength, queueJson);
    j["memory_bandwidth"] = rowsJson(b.memoryBandwidth, [](const CopyBandwidth& r) {
        return json{{"rank", rankJson(r.rank)},
                    {"kind", r.kind},
                    {"count", r.count},
                    {"mean_gbps", finite(r.meanGbps)},
                    {"p50_gbps", finite(r.p50Gbps)},
                    {"max_gbps", finite(r.maxGbps)},
                    {"copies", r.copies},
                    {"copy_p50_gbps", finite(r.copyP50Gbps)},
                    {"copy_max_gbps", finite(r.copyMaxGbps)},
                    {"copy_histogram", {{"edges_gbps", r.histogram.edgesGbps}, {"counts", r.histogram.counts}}}};
    });
    j["launch"] = rowsJson(b.launch, [](const KernelLaunch& r) {
        return json{{"name", r.name},
                    {"runs", r.runs},
                    {"cpu_p50_ns", r.cpuP50Ns},
                    {"cpu_p95_ns", r.cpuP95Ns},
                    {"gpu_p50_ns", r.gpuP50Ns},
                    {"gpu_p95_ns", r.gpuP95Ns},
                    {"delay_p50_ns", r.delayP50Ns},
                    {"delay_p95_ns", r.delayP95Ns},
                    {"shorter_than_launch", r.shorterThanLaunch},
                    {"gpu_total_ns", r.gpuTotalNs}};
    });
    j["annotations"] = rowsJson(b.annotations, [](const AnnotationTime& r) {
        return json{{"name", r.name}, {"kernels", r.kernels}, {"kernel_ns", r.kernelNs}};
    });
    json why = json::object();
    for (const auto& [key, text] : b.reasons())
        if (!text->empty()) why[key] = *text;
    j["not_computed"] = std::move(why);
    return j;
}

Result<TraceBreakdowns> breakdownsFromJson(const json& j) {
    if (!j.is_object()) return Failure::of(Failure::Kind::Malformed, "breakdowns: not an object");
    TraceBreakdowns b;
    try {
        const RowReader top{j, "breakdowns"};
        b.scope = top.text("scope");
        b.deviceOps = top.count("device_ops");
        b.inScope = top.count("in_scope");
        readRows(j, "temporal", b.temporal, readTemporal);
        readRows(j, "idle", b.idle, readIdle);
        readRows(j, "comm_comp_overlap", b.commCompOverlap, readOverlap);
        readRows(j, "queue_length", b.queueLength, readQueue);
        readRows(j, "memory_bandwidth", b.memoryBandwidth, [](const RowReader& r) {
            return CopyBandwidth{r.rank(),
                                 r.text("kind"),
                                 r.count("count"),
                                 r.number("mean_gbps"),
                                 r.number("p50_gbps"),
                                 r.number("max_gbps"),
                                 r.count("copies"),
                                 r.number("copy_p50_gbps"),
                                 r.number("copy_max_gbps"),
                                 readHistogram(r)};
        });
        readRows(j, "launch", b.launch, [](const RowReader& r) {
            return KernelLaunch{r.text("name"),           r.count("runs"),          r.number("cpu_p50_ns"),
                                r.number("cpu_p95_ns"),   r.number("gpu_p50_ns"),   r.number("gpu_p95_ns"),
                                r.number("delay_p50_ns"), r.number("delay_p95_ns"), r.count("shorter_than_launch"),
                                r.ns("gpu_total_ns")};
        });
        readRows(j, "annotations", b.annotations, [](const RowReader& r) {
            return AnnotationTime{r.text("name"), r.count("kernels"), r.ns("kernel_ns")};
        });
    } catch (const Failure& f) {
        return f;
    }
    return b;
}

json rankBreakdownsToJson(const RankBreakdownRows& b) {
    json t = json::array(), o = json::array(), idle = json::array(), queue = json::array();
    for (const RankTemporal& r : b.temporal) t.push_back(temporalJson(r));
    for (const RankOverlap& r : b.commCompOverlap) o.push_back(overlapJson(r));
    for (const StreamIdle& r : b.idle) idle.push_back(idleJson(r));
    for (const StreamQueue& r : b.queueLength) queue.push_back(queueJson(r));
    return {{"temporal", std::move(t)},
            {"comm_comp_overlap", std::move(o)},
            {"idle", std::move(idle)},
            {"queue_length", std::move(queue)}};
}

Result<RankBreakdownRows> rankBreakdownsFromJson(const json& j) {
    if (!j.is_object()) return Failure::of(Failure::Kind::Malformed, "breakdowns: not an object");
    try {
        BreakdownSection<RankTemporal> t;
        BreakdownSection<RankOverlap> o;
        BreakdownSection<StreamIdle> idle;    // absent before the cluster report had them
        BreakdownSection<StreamQueue> queue;  // likewise
        readRows(j, "temporal", t, readTemporal);
        readRows(j, "comm_comp_overlap", o, readOverlap);
        readRows(j, "idle", idle, readIdle);
        readRows(j, "queue_length", queue, readQueue);
        return RankBreakdownRows{std::move(t.rows), std::move(o.rows), std::move(idle.rows), std::move(queue.rows)};
    } catch (const Failure& f) {
        return f;
    }
}

}  // namespace contend
