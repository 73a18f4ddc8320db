#include "core/report/single/report_json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>

#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/producer_json.h"
#include "core/report/ranks/distributed_json.h"
#include "core/report/single/json_writer.h"
#include "core/report/single/report_sections.h"

namespace contend {

std::string jsonText(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

using nlohmann::json;

namespace {

// Fields the what-if adds to an item ("gain_ns", "slack_ns", "critical_path_ns", ...).
void addGain(json& item, TimeNs gain) { item["gain_ns"] = optionalNs(gain); }
void addSlack(json& item, TimeNs slack) { item["slack_ns"] = optionalNs(slack); }

// --- writing: one function per item, one per section --------------------------------------
// A section is a top-level key. Sections are visited in the order nlohmann::json keeps object
// keys (alphabetical), so the streaming writer emits the same bytes as dumping the whole
// document; a new section goes in its alphabetical place in forEachSection.

json anomalyJson(const Anomaly& a, const Trace* t) {
    SliceText fb = a.name.empty() ? sliceText(t, a.slice) : SliceText{};
    const bool useFb = a.name.empty() && !fb.name.empty();
    json j = {{"id", a.id},
              {"slice", a.slice},
              {"signature", a.signature},
              {"name", useFb ? fb.name : a.name},
              {"pid", idJson(useFb ? fb.pid : a.pid)},
              {"tid", idJson(useFb ? fb.tid : a.tid)},
              {"track", useFb ? fb.label : a.trackLabel},
              {"track_index", a.track},
              {"start_ns", useFb ? fb.start : a.startNs},
              {"dur_ns", useFb ? fb.dur : a.durNs},
              {"baseline_ns", a.baselineNs},
              {"excess_ns", a.excessNs},
              {"score", finite(a.score)},
              {"cause", resourceName(a.cause)},
              {"provenance", provenanceName(a.provenance)},
              {"evidence", a.evidence},
              {"windows", a.windows},
              {"breakdown", breakdownJson(a.breakdown)}};
    addGain(j, a.gainNs);
    addSlack(j, a.slackNs);
    return j;
}

json windowOpJson(const WindowOp& o, const Trace* t) {
    SliceText fb = o.name.empty() ? sliceText(t, o.slice) : SliceText{};
    const bool useFb = o.name.empty() && !fb.name.empty();
    json j = {{"slice", o.slice},
              {"name", useFb ? fb.name : o.name.str()},
              {"pid", idJson(useFb ? fb.pid : o.pid.str())},
              {"tid", idJson(useFb ? fb.tid : o.tid.str())},
              {"start_ns", useFb ? fb.start : o.startNs},
              {"dur_ns", useFb ? fb.dur : o.durNs},
              {"extra_wait_ns", o.extraWaitNs}};
    addSlack(j, o.slackNs);
    return j;
}

json windowJson(const ContentionWindow& w, const Trace* t) {
    json ops = json::array();
    for (const WindowOp& o : w.ops) ops.push_back(windowOpJson(o, t));
    json j = {{"id", w.id},
              {"resource", resourceName(w.resource)},
              {"start_ns", w.start},
              {"end_ns", w.end},
              {"overlap_ratio", finite(w.overlapRatio)},
              {"peak_utilization", finite(w.peakUtilization)},
              {"from_counters", w.fromCounters},
              {"provenance", provenanceName(w.provenance)},
              {"evidence", w.evidence},
              {"ops", std::move(ops)}};
    addGain(j, w.gainNs);
    return j;
}

// The same text as anomalyJson and windowJson, written directly (json_writer.h): the members in
// nlohmann's (sorted) order. The streamed report writes its findings with these.
void writeBreakdown(JsonWriter& w, const Breakdown& b) {
    w.beginObject();
    w.member("compute_ns", b.computeNs);
    w.member("data_wait_ns", b.dataWaitNs);
    w.key("measured");
    w.beginObject();
    w.member("data", b.measuredData);
    w.member("queue", b.measuredQueue);
    w.member("sync", b.measuredSync);
    w.endObject();
    w.member("queue_ns", b.queueNs);
    w.member("sync_ns", b.syncNs);
    w.key("wait_before_ns");
    b.waitBeforeNs >= 0 ? w.value(b.waitBeforeNs) : w.null();
    w.endObject();
}

void writeOptionalNs(JsonWriter& w, std::string_view key, TimeNs v) {
    w.key(key);
    v >= 0 ? w.value(v) : w.null();
}

void writeAnomaly(JsonWriter& w, const Anomaly& a, const Trace* t) {
    SliceText fb = a.name.empty() ? sliceText(t, a.slice) : SliceText{};
    const bool useFb = a.name.empty() && !fb.name.empty();
    w.beginObject();
    w.member("baseline_ns", a.baselineNs);
    w.key("breakdown");
    writeBreakdown(w, a.breakdown);
    w.member("cause", resourceName(a.cause));
    w.member("dur_ns", useFb ? fb.dur : a.durNs);
    w.member("evidence", a.evidence);
    w.member("excess_ns", a.excessNs);
    writeOptionalNs(w, "gain_ns", a.gainNs);
    w.member("id", a.id);
    w.member("name", useFb ? fb.name : a.name);
    w.key("pid");
    w.id(useFb ? fb.pid : a.pid);
    w.member("provenance", provenanceName(a.provenance));
    w.member("score", finite(a.score));
    w.member("signature", a.signature);
    writeOptionalNs(w, "slack_ns", a.slackNs);
    w.member("slice", a.slice);
    w.member("start_ns", useFb ? fb.start : a.startNs);
    w.key("tid");
    w.id(useFb ? fb.tid : a.tid);
    w.member("track", useFb ? fb.label : a.trackLabel);
    w.member("track_index", a.track);
    w.key("windows");
    w.beginArray();
    for (std::uint32_t id : a.windows) w.value(id);
    w.endArray();
    w.endObject();
}

void writeWindowOp(JsonWriter& w, const WindowOp& o, const Trace* t) {
    SliceText fb = o.name.empty() ? sliceText(t, o.slice) : SliceText{};
    const bool useFb = o.name.empty() && !fb.name.empty();
    w.beginObject();
    w.member("dur_ns", useFb ? fb.dur : o.durNs);
    w.member("extra_wait_ns", o.extraWaitNs);
    w.member("name", useFb ? fb.name : o.name.str());
    w.key("pid");
    w.id(useFb ? fb.pid : o.pid.str());
    writeOptionalNs(w, "slack_ns", o.slackNs);
    w.member("slice", o.slice);
    w.member("start_ns", useFb ? fb.start : o.startNs);
    w.key("tid");
    w.id(useFb ? fb.tid : o.tid.str());
    w.endObject();
}

void writeWindow(JsonWriter& w, const ContentionWindow& win, const Trace* t) {
    w.beginObject();
    w.member("end_ns", win.end);
    w.member("evidence", win.evidence);
    w.member("from_counters", win.fromCounters);
    writeOptionalNs(w, "gain_ns", win.gainNs);
    w.member("id", win.id);
    w.key("ops");
    w.beginArray();
    for (const WindowOp& o : win.ops) writeWindowOp(w, o, t);
    w.endArray();
    w.member("overlap_ratio", finite(win.overlapRatio));
    w.member("peak_utilization", finite(win.peakUtilization));
    w.member("provenance", provenanceName(win.provenance));
    w.member("resource", resourceName(win.resource));
    w.member("start_ns", win.start);
    w.endObject();
}

json clusterJson(const Cluster& c, const Trace* t) {
    std::string pid = c.pid, tid = c.tid, label = c.trackLabel;
    if (pid.empty() && t && c.track < t->tracks().size()) {
        pid = t->tracks()[c.track].pid;
        tid = t->tracks()[c.track].tid;
        label = t->tracks()[c.track].label();
    }
    json j = {{"id", c.id},
              {"pid", idJson(pid)},
              {"tid", idJson(tid)},
              {"track", label},
              {"track_index", c.track},
              {"first_slice", c.firstSlice},
              {"last_slice", c.lastSlice},
              {"start_ns", c.start},
              {"end_ns", c.end},
              {"ops", c.ops},
              {"busy_ns", c.busyNs},
              {"wait_ns", c.waitNs},
              {"estimated_saving_ns", c.savingNs},
              {"provenance", provenanceName(c.provenance)},
              {"sync_gaps", c.syncGaps},
              {"evidence", c.evidence}};
    addGain(j, c.gainNs);
    return j;
}

json patternJson(const ContentionPattern& p) {
    json runs = json::array();
    for (const PatternRun& run : p.runs)
        runs.push_back({{"slice", run.slice},
                        {"start_ns", run.startNs},
                        {"dur_ns", run.durNs},
                        {"excess_ns", run.excessNs},
                        {"counted", run.counted}});
    json j = {
        {"id", p.id},
        {"victim", p.victim},
        {"partner", p.partner},
        {"factor", p.factor},
        {"runs_beside", p.runsBeside},
        {"runs_apart", p.runsApart},
        {"signature", p.signature},
        {"slowdown", finite(p.slowdown)},
        {"slowdown_ci", json::array({finite(p.slowdownLow), finite(p.slowdownHigh)})},
        {"p_value", finite(p.pValue)},
        {"cost_ns", p.costNs},
        {"counted_cost_ns", p.countedCostNs},
        {"unflagged_cost_ns", p.unflaggedCostNs},
        {"cause",
         {{"resource", resourceName(p.cause)}, {"provenance", provenanceName(p.provenance)}, {"evidence", p.evidence}}},
        {"concurrency", p.concurrency},
        {"runs", std::move(runs)}};
    if (p.lostShare >= 0) j["lost_share"] = finite(p.lostShare);
    return j;
}

void writePattern(JsonWriter& w, const ContentionPattern& p) {
    w.beginObject();
    w.key("cause");
    w.beginObject();
    w.member("evidence", p.evidence);
    w.member("provenance", provenanceName(p.provenance));
    w.member("resource", resourceName(p.cause));
    w.endObject();
    w.member("concurrency", p.concurrency);
    w.member("cost_ns", p.costNs);
    w.member("counted_cost_ns", p.countedCostNs);
    w.member("factor", p.factor);
    w.member("id", p.id);
    if (p.lostShare >= 0) w.member("lost_share", finite(p.lostShare));
    w.member("p_value", finite(p.pValue));
    w.member("partner", p.partner);
    w.key("runs");
    w.beginArray();
    for (const PatternRun& run : p.runs) {
        w.beginObject();
        w.member("counted", run.counted);
        w.member("dur_ns", run.durNs);
        w.member("excess_ns", run.excessNs);
        w.member("slice", run.slice);
        w.member("start_ns", run.startNs);
        w.endObject();
    }
    w.endArray();
    w.member("runs_apart", p.runsApart);
    w.member("runs_beside", p.runsBeside);
    w.member("signature", p.signature);
    w.member("slowdown", finite(p.slowdown));
    w.key("slowdown_ci");
    w.beginArray();
    w.value(finite(p.slowdownLow));
    w.value(finite(p.slowdownHigh));
    w.endArray();
    w.member("unflagged_cost_ns", p.unflaggedCostNs);
    w.member("victim", p.victim);
    w.endObject();
}

// Calls v.value(key, json) for a section that is one small value and v.array(key, items, fn)
// for a list, where fn(item) makes one element, in alphabetical key order.
// Anomalies, windows and patterns, the sections that grow with the findings, also give v.direct(key,
// items, fn, write) the writer of one element straight to text (write(JsonWriter&, item)).
template <typename Visitor>
void forEachSection(const Report& r, const Trace* t, Visitor& v) {
    v.direct(
        "anomalies", r.anomalies, [t](const Anomaly& a) { return anomalyJson(a, t); },
        [t](JsonWriter& w, const Anomaly& a) { writeAnomaly(w, a, t); });
    if (!r.breakdowns.empty()) v.value("breakdowns", breakdownsToJson(r.breakdowns));
    v.array("clusters", r.clusters, [t](const Cluster& c) { return clusterJson(c, t); });
    if (!r.distributed.empty()) v.value("distributed", distributedToJson(r.distributed));
    v.array("iterations", r.iterations, iterationJson);
    v.array("notes", r.notes, noteJson);
    v.array("operators", r.operators, operatorJson);
    v.direct("patterns", r.patterns, patternJson, writePattern);
    v.value("producer", producerJson());  // this build, never r.producer: the file is its writing
    v.value("schema", json(kReportSchemaV2));
    v.value("settings", settingsJson(r));
    v.value("summary", summaryJson(r));
    v.array("threads", r.threads, threadJson);
    v.value("trace", traceJson(r));
    v.array("types", r.types, typeJson);
    v.value("what_if", whatIfJson(r.whatIf));
    v.direct(
        "windows", r.windows, [t](const ContentionWindow& w) { return windowJson(w, t); },
        [t](JsonWriter& w, const ContentionWindow& win) { writeWindow(w, win, t); });
}

// The whole document in memory (reportToJson).
struct DomVisitor {
    json doc = json::object();
    void value(const char* key, json v) { doc[key] = std::move(v); }
    template <typename Items, typename Fn>
    void array(const char* key, const Items& items, Fn fn) {
        json a = json::array();
        for (const auto& x : items) a.push_back(fn(x));
        doc[key] = std::move(a);
    }
    template <typename Items, typename Fn, typename Write>
    void direct(const char* key, const Items& items, Fn fn, Write) {
        array(key, items, fn);
    }
};

json toJsonV2(const Report& r, const Trace* t) {
    DomVisitor v;
    forEachSection(r, t, v);
    return std::move(v.doc);
}

// The same text as jsonText(toJson(...)), one element at a time: each element is dumped on its
// own (at depth 0) and re-indented to its depth, which is exactly how nlohmann::json indents
// nested values (raw newlines only come from the indentation: strings escape theirs).
class StreamVisitor {
  public:
    explicit StreamVisitor(std::ostream& out) : m_out(out) {}
    void value(const char* key, const json& v) {
        openKey(key);
        writeIndented(v, "  ");
    }
    template <typename Items, typename Fn>
    void array(const char* key, const Items& items, Fn fn) {
        openKey(key);
        if (items.empty()) {
            m_out << "[]";
            return;
        }
        m_out << "[\n";
        bool first = true;
        for (const auto& x : items) {
            if (!first) m_out << ",\n";
            first = false;
            m_out << "    ";
            writeIndented(fn(x), "    ");
        }
        m_out << "\n  ]";
    }
    // As array(), each element written straight to text (json_writer.h), to the stream in blocks
    // of about JsonWriter::kFlushBytes.
    template <typename Items, typename Fn, typename Write>
    void direct(const char* key, const Items& items, Fn, Write write) {
        openKey(key);
        std::string text;
        JsonWriter w(text, 1, &m_out);  // the array is a member of the document (depth 0)
        w.beginArray();
        for (const auto& x : items) write(w, x);
        w.endArray();
        m_out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    void finish() { m_out << (m_keys ? "\n}\n" : "{}\n"); }

  private:
    void openKey(const char* key) { m_out << (m_keys++ ? ",\n  " : "{\n  ") << json(key).dump() << ": "; }
    void writeIndented(const json& v, const char* indent) {
        const std::string text = v.dump(2, ' ', false, json::error_handler_t::replace);
        std::size_t from = 0;
        for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
            m_out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
            m_out << indent;
        }
        m_out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
    }

    std::ostream& m_out;
    std::size_t m_keys = 0;
};

}  // namespace

void writeReportJson(std::ostream& out, const Report& report, const Trace* trace, ReportSchemaVersion version) {
    if (version != ReportSchemaVersion::V2) return writeReportJsonV3(out, report, trace, static_cast<int>(version));
    StreamVisitor v(out);
    forEachSection(report, trace, v);
    v.finish();
}

std::string reportJsonText(const Report& report, const Trace* trace, ReportSchemaVersion version) {
    std::ostringstream out;
    writeReportJson(out, report, trace, version);
    return std::move(out).str();
}

json reportToJson(const Report& report, const Trace& trace, ReportSchemaVersion version) {
    if (version == ReportSchemaVersion::V2) return toJsonV2(report, &trace);
    return json::parse(reportJsonText(report, &trace, version));
}

json reportToJson(const Report& report, ReportSchemaVersion version) {
    if (version == ReportSchemaVersion::V2) return toJsonV2(report, nullptr);
    return json::parse(reportJsonText(report, nullptr, version));
}

}  // namespace contend
