#include "python/src/report_tables.h"

#include <cmath>
#include <functional>
#include <pybind11/stl.h>
#include <stdexcept>
#include <vector>

#include "python/src/table.h"

namespace contend::py {

namespace pyb = pybind11;

namespace {

// The JSON writes 0 for a value that is not finite; so does the table.
double finite(double v) { return std::isfinite(v) ? v : 0.0; }

void breakdown(Table& t, const Breakdown& b) {
    t.integer("compute_ns", b.computeNs);
    t.integer("data_wait_ns", b.dataWaitNs);
    t.integer("queue_ns", b.queueNs);
    t.integer("sync_ns", b.syncNs);
    t.boolean("measured_data", b.measuredData);
    t.boolean("measured_queue", b.measuredQueue);
    t.boolean("measured_sync", b.measuredSync);
    t.optionalInteger("wait_before_ns", b.waitBeforeNs);
}

void anomalyRow(Table& t, const Anomaly& a) {
    t.integer("id", a.id);
    t.integer("slice", a.slice);
    t.integer("signature", a.signature);
    t.text("name", a.name);
    t.text("pid", a.pid);
    t.text("tid", a.tid);
    t.text("track", a.trackLabel);
    t.integer("track_index", a.track);
    t.integer("start_ns", a.startNs);
    t.integer("dur_ns", a.durNs);
    t.integer("baseline_ns", a.baselineNs);
    t.integer("excess_ns", a.excessNs);
    t.real("score", finite(a.score));
    t.text("cause", resourceName(a.cause));
    t.text("provenance", provenanceName(a.provenance));
    t.text("evidence", a.evidence);
    t.integer("window_count", static_cast<std::int64_t>(a.windows.size()));
    breakdown(t, a.breakdown);
    t.optionalInteger("gain_ns", a.gainNs);
    t.optionalInteger("slack_ns", a.slackNs);
}

void windowRow(Table& t, const ContentionWindow& w) {
    t.integer("id", w.id);
    t.text("resource", resourceName(w.resource));
    t.integer("start_ns", w.start);
    t.integer("end_ns", w.end);
    t.real("overlap_ratio", finite(w.overlapRatio));
    t.real("peak_utilization", finite(w.peakUtilization));
    t.boolean("from_counters", w.fromCounters);
    t.text("provenance", provenanceName(w.provenance));
    t.text("evidence", w.evidence);
    t.integer("ops", static_cast<std::int64_t>(w.ops.size()));
    t.optionalInteger("gain_ns", w.gainNs);
}

void windowOpRow(Table& t, std::uint32_t window, const WindowOp& o) {
    t.integer("window", window);
    t.integer("slice", o.slice);
    t.text("name", o.name.view());
    t.text("pid", o.pid.view());
    t.text("tid", o.tid.view());
    t.integer("start_ns", o.startNs);
    t.integer("dur_ns", o.durNs);
    t.integer("extra_wait_ns", o.extraWaitNs);
    t.optionalInteger("slack_ns", o.slackNs);
}

void clusterRow(Table& t, const Cluster& c) {
    t.integer("id", c.id);
    t.text("pid", c.pid);
    t.text("tid", c.tid);
    t.text("track", c.trackLabel);
    t.integer("track_index", c.track);
    t.integer("first_slice", c.firstSlice);
    t.integer("last_slice", c.lastSlice);
    t.integer("start_ns", c.start);
    t.integer("end_ns", c.end);
    t.integer("ops", c.ops);
    t.integer("busy_ns", c.busyNs);
    t.integer("wait_ns", c.waitNs);
    t.integer("estimated_saving_ns", c.savingNs);
    t.text("provenance", provenanceName(c.provenance));
    t.integer("sync_gaps", c.syncGaps);
    t.text("evidence", c.evidence);
    t.optionalInteger("gain_ns", c.gainNs);
}

void patternRow(Table& t, const ContentionPattern& p) {
    t.integer("id", p.id);
    t.integer("signature", p.signature);
    t.text("victim", p.victim);
    t.text("partner", p.partner);
    t.text("factor", p.factor);
    t.integer("runs_beside", p.runsBeside);
    t.integer("runs_apart", p.runsApart);
    t.real("slowdown", finite(p.slowdown));
    t.real("slowdown_low", finite(p.slowdownLow));
    t.real("slowdown_high", finite(p.slowdownHigh));
    t.real("p_value", finite(p.pValue));
    t.integer("cost_ns", p.costNs);
    t.integer("counted_cost_ns", p.countedCostNs);
    t.integer("unflagged_cost_ns", p.unflaggedCostNs);
    t.text("cause", resourceName(p.cause));
    t.text("provenance", provenanceName(p.provenance));
    t.text("evidence", p.evidence);
    t.integer("concurrency", p.concurrency);
    // Not judged: NaN (the JSON leaves the field out).
    t.real("lost_share", p.lostShare >= 0 ? finite(p.lostShare) : std::nan(""));
}

void patternRunRow(Table& t, std::uint32_t pattern, const PatternRun& r) {
    t.integer("pattern", pattern);
    t.integer("slice", r.slice);
    t.integer("start_ns", r.startNs);
    t.integer("dur_ns", r.durNs);
    t.integer("excess_ns", r.excessNs);
    t.boolean("counted", r.counted);
}

void operatorRow(Table& t, const SignatureStats& s) {
    t.integer("id", s.id);
    t.text("signature", s.signature);
    t.text("name", s.name);
    t.text("type", s.opType);
    t.integer("count", static_cast<std::int64_t>(s.count));
    t.integer("total_ns", s.totalNs);
    t.integer("baseline_ns", s.baselineNs);
    t.boolean("baseline_from_solo", s.baselineFromSolo);
    t.text("baseline_rule", s.baselineRule);
    t.integer("p50_ns", s.p50Ns);
    t.integer("p95_ns", s.p95Ns);
    t.integer("max_ns", s.maxNs);
    t.real("mean_ns", finite(s.meanNs));
    t.integer("anomalies", s.anomalies);
    t.integer("extra_wait_ns", s.extraWaitNs);
    t.text("dominant_cause", resourceName(s.dominantCause));
    breakdown(t, s.breakdown);
}

void iterationRow(Table& t, const IterationStats& s) {
    t.integer("index", s.index);
    t.integer("start_ns", s.start);
    t.integer("end_ns", s.end);
    t.integer("anomalies", s.anomalies);
    t.integer("extra_wait_ns", s.extraWaitNs);
    t.boolean("cut", s.cut);
    t.optionalInteger("critical_path_ns", s.criticalPathNs);
    t.text("critical_track", s.criticalTrack);
}

void threadRow(Table& t, const TrackStats& s) {
    t.integer("track_index", s.track);
    t.text("pid", s.pid);
    t.text("tid", s.tid);
    t.text("track", s.label);
    t.integer("operators", static_cast<std::int64_t>(s.operators));
    t.integer("busy_ns", s.busyNs);
    t.integer("anomalies", s.anomalies);
    t.integer("extra_wait_ns", s.extraWaitNs);
}

void typeRow(Table& t, const TypeStats& s) {
    t.text("type", s.type);
    t.integer("count", static_cast<std::int64_t>(s.count));
    t.integer("total_ns", s.totalNs);
    t.integer("anomalies", s.anomalies);
    t.integer("extra_wait_ns", s.extraWaitNs);
    t.text("dominant_cause", resourceName(s.dominantCause));
}

void noteRow(Table& t, const ReportNote& n) {
    t.text("kind", n.kind);
    t.text("text", n.text);
}

// One row per item; with none, the columns of a default item (a table without rows still has
// its columns).
template <class Items, class Item, class Row>
pyb::list tableOf(const Items& items, Row row) {
    Table t;
    if (items.empty()) {
        row(t, Item{});
        t.clearRows();
    }
    for (const auto& x : items) row(t, x);
    return t.release();
}

// A table of the lists inside items: `rows` adds them and says how many; with none, `columns`
// adds one default row to name the columns, which is dropped.
template <class Rows, class Columns>
pyb::list nestedTable(Rows rows, Columns columns) {
    Table t;
    if (rows(t) == 0) {
        columns(t);
        t.clearRows();
    }
    return t.release();
}

void membershipRow(Table& t, std::uint32_t anomaly, std::uint32_t window) {
    t.integer("anomaly", anomaly);
    t.integer("window", window);
}

pyb::list anomalyWindows(const Report& r) {
    return nestedTable(
        [&](Table& t) {
            std::size_t n = 0;
            for (std::size_t k = 0; k < r.anomalies.size(); ++k) {
                if (r.anomalies.windowCount(k) == 0) continue;
                const Anomaly& a = r.anomalies[k];
                for (std::uint32_t w : a.windows) membershipRow(t, a.id, w), ++n;
            }
            return n;
        },
        [](Table& t) { membershipRow(t, 0, 0); });
}

pyb::list windowOps(const Report& r) {
    return nestedTable(
        [&](Table& t) {
            std::size_t n = 0;
            for (const ContentionWindow& w : r.windows)
                for (const WindowOp& o : w.ops) windowOpRow(t, w.id, o), ++n;
            return n;
        },
        [](Table& t) { windowOpRow(t, 0, WindowOp{}); });
}

pyb::list patternRuns(const Report& r) {
    return nestedTable(
        [&](Table& t) {
            std::size_t n = 0;
            for (const ContentionPattern& p : r.patterns)
                for (const PatternRun& run : p.runs) patternRunRow(t, p.id, run), ++n;
            return n;
        },
        [](Table& t) { patternRunRow(t, 0, PatternRun{}); });
}

}  // namespace

pyb::list reportTableNames() {
    pyb::list names;
    for (const char* n : {"anomalies", "anomaly_windows", "clusters", "iterations", "notes", "operators", "patterns",
                          "pattern_runs", "threads", "types", "windows", "window_ops"})
        names.append(n);
    return names;
}

pyb::list reportTable(const Report& r, const std::string& name) {
    if (name == "anomalies") return tableOf<AnomalyList, Anomaly>(r.anomalies, anomalyRow);
    if (name == "anomaly_windows") return anomalyWindows(r);
    if (name == "windows") return tableOf<WindowList, ContentionWindow>(r.windows, windowRow);
    if (name == "window_ops") return windowOps(r);
    if (name == "clusters") return tableOf<std::vector<Cluster>, Cluster>(r.clusters, clusterRow);
    if (name == "patterns") return tableOf<std::vector<ContentionPattern>, ContentionPattern>(r.patterns, patternRow);
    if (name == "pattern_runs") return patternRuns(r);
    if (name == "operators") return tableOf<std::vector<SignatureStats>, SignatureStats>(r.operators, operatorRow);
    if (name == "iterations") return tableOf<std::vector<IterationStats>, IterationStats>(r.iterations, iterationRow);
    if (name == "threads") return tableOf<std::vector<TrackStats>, TrackStats>(r.threads, threadRow);
    if (name == "types") return tableOf<std::vector<TypeStats>, TypeStats>(r.types, typeRow);
    if (name == "notes") return tableOf<std::vector<ReportNote>, ReportNote>(r.notes, noteRow);
    throw std::invalid_argument("no table '" + name + "' in a report");
}

pyb::dict reportHeader(const Report& r) {
    pyb::dict trace;
    trace["path"] = r.trace.path;
    trace["format"] = r.trace.format;
    trace["events"] = r.trace.events;
    trace["operators"] = r.trace.operators;
    trace["tracks"] = r.trace.tracks;
    trace["span_ns"] = r.trace.spanNs;
    trace["counters"] = r.trace.counters;
    trace["scope"] = r.trace.scope;

    pyb::dict settings;
    settings["coefficient"] = r.settings.coefficient;
    settings["overlap_ratio"] = r.settings.overlapRatio;
    if (!r.settings.configPath.empty()) settings["config"] = r.settings.configPath;

    const ReportSummary& s = r.summary;
    pyb::dict byResource;
    for (std::size_t i = 0; i < kResourceCount; ++i)
        if (s.extraWaitByResource[i] > 0) byResource[resourceName(static_cast<Resource>(i))] = s.extraWaitByResource[i];
    pyb::dict bottleneck;
    bottleneck["resource"] = resourceName(s.bottleneck);
    bottleneck["share"] = finite(s.bottleneckShare);
    pyb::dict summary;
    summary["end_to_end_ns"] = s.endToEndNs;
    summary["anomalies"] = s.anomalies;
    summary["windows"] = s.windows;
    summary["clusters"] = s.clusters;
    summary["extra_wait_ns"] = s.extraWaitNs;
    summary["operator_time_ns"] = s.operatorTimeNs;
    summary["explained_wait_ns"] = s.explainedWaitNs;
    summary["anomaly_wait_ns"] = s.anomalyWaitNs;
    summary["cluster_wait_ns"] = s.clusterWaitNs;
    summary["pattern_wait_ns"] = s.patternWaitNs;
    summary["bottleneck"] = bottleneck;
    summary["extra_wait_by_resource"] = byResource;

    const WhatIfSummary& w = r.whatIf;
    pyb::list gains;
    for (const ResourceGain& g : w.resources) {
        pyb::dict d;
        d["resource"] = resourceName(g.resource);
        d["extra_wait_ns"] = g.extraWaitNs;
        d["gain_ns"] = g.gainNs;
        gains.append(d);
    }
    pyb::dict whatIf;
    whatIf["computed"] = w.computed;
    whatIf["total_ns"] = w.totalNs;
    whatIf["iterations"] = w.iterations;
    whatIf["nodes"] = w.nodes;
    whatIf["edges"] = w.edges;
    whatIf["critical_track"] = w.criticalTrack;
    whatIf["critical_device_ns"] = w.criticalDeviceNs;
    whatIf["replayed"] = w.replayed;
    whatIf["off_path"] = w.offPath;
    whatIf["skipped"] = w.skipped;
    whatIf["resources"] = gains;
    whatIf["all_gain_ns"] = w.allGainNs >= 0 ? pyb::object(pyb::int_(w.allGainNs)) : pyb::object(pyb::none());

    pyb::dict out;
    out["trace"] = trace;
    out["settings"] = settings;
    out["summary"] = summary;
    out["what_if"] = whatIf;
    return out;
}

}  // namespace contend::py
