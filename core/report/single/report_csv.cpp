#include "core/report/single/report_csv.h"

#include <cstdio>
#include <filesystem>
#include <initializer_list>

#include "core/common/atomic_write.h"
#include "core/report/breakdowns/breakdowns_text.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

std::string cell(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

void line(std::string& out, std::initializer_list<std::string> cells) {
    bool first = true;
    for (const std::string& c : cells) {
        if (!first) out += ',';
        out += cell(c);
        first = false;
    }
    out += "\r\n";
}

std::string num(long long v) { return std::to_string(v); }
std::string num(unsigned long long v) { return std::to_string(v); }
std::string num(std::uint32_t v) { return std::to_string(v); }
std::string real(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}
std::string flag(bool b) { return b ? "true" : "false"; }
std::string dur(TimeNs ns) { return formatDuration(ns); }

// How a part of a breakdown is known: the report marks measured parts; the rest are estimated.
std::string partProvenance(bool measured) { return measured ? "measured" : "estimated"; }

std::string anomaliesCsv(const Report& r) {
    std::string s;
    line(s, {"id", "name", "pid", "tid", "track", "start_ns", "dur_ns", "dur", "baseline_ns", "excess_ns", "excess",
             "score", "cause", "provenance", "evidence", "windows", "signature_id", "wait_before_ns"});
    for (const Anomaly& a : r.anomalies) {
        std::string windows;
        for (std::uint32_t w : a.windows) windows += (windows.empty() ? "" : " ") + std::to_string(w);
        line(s, {num(a.id), a.name, a.pid, a.tid, a.trackLabel, num(static_cast<long long>(a.startNs)),
                 num(static_cast<long long>(a.durNs)), dur(a.durNs), num(static_cast<long long>(a.baselineNs)),
                 num(static_cast<long long>(a.excessNs)), dur(a.excessNs), real(a.score), resourceName(a.cause),
                 provenanceName(a.provenance), a.evidence, windows, num(a.signature),
                 a.breakdown.waitBeforeNs >= 0 ? num(static_cast<long long>(a.breakdown.waitBeforeNs)) : ""});
    }
    return s;
}

std::string windowsCsv(const Report& r) {
    std::string s;
    line(s, {"id", "resource", "start_ns", "end_ns", "duration", "overlap_ratio", "peak_utilization", "from_counters",
             "ops", "operators", "extra_wait_ns", "extra_wait", "provenance", "evidence"});
    for (const ContentionWindow& w : r.windows) {
        TimeNs extra = 0;
        std::string names;
        for (const WindowOp& op : w.ops) {
            extra += op.extraWaitNs;
            names += (names.empty() ? "" : " + ") + op.name;
        }
        line(s, {num(w.id), resourceName(w.resource), num(static_cast<long long>(w.start)),
                 num(static_cast<long long>(w.end)), dur(w.end - w.start), real(w.overlapRatio),
                 real(w.peakUtilization), flag(w.fromCounters), num(static_cast<unsigned long long>(w.ops.size())),
                 names, num(static_cast<long long>(extra)), dur(extra), provenanceName(w.provenance), w.evidence});
    }
    return s;
}

std::string clustersCsv(const Report& r) {
    std::string s;
    line(s, {"id", "pid", "tid", "track", "start_ns", "end_ns", "duration", "ops", "busy_ns", "wait_ns", "wait",
             "estimated_saving_ns", "estimated_saving", "sync_gaps", "provenance", "evidence"});
    for (const Cluster& c : r.clusters)
        line(s, {num(c.id), c.pid, c.tid, c.trackLabel, num(static_cast<long long>(c.start)),
                 num(static_cast<long long>(c.end)), dur(c.end - c.start), num(c.ops),
                 num(static_cast<long long>(c.busyNs)), num(static_cast<long long>(c.waitNs)), dur(c.waitNs),
                 num(static_cast<long long>(c.savingNs)), dur(c.savingNs), num(c.syncGaps),
                 provenanceName(c.provenance), c.evidence});
    return s;
}

std::string patternsCsv(const Report& r) {
    std::string s;
    line(s, {"id", "victim", "partner", "factor", "runs_beside", "runs_apart", "slowdown", "slowdown_low",
             "slowdown_high", "p_value", "cost_ns", "cost", "counted_cost_ns", "unflagged_cost_ns", "resource",
             "provenance", "concurrency", "lost_share", "evidence"});
    for (const ContentionPattern& p : r.patterns)
        line(s, {num(p.id), p.victim, p.partner, p.factor, num(p.runsBeside), num(p.runsApart), real(p.slowdown),
                 real(p.slowdownLow), real(p.slowdownHigh), real(p.pValue), num(static_cast<long long>(p.costNs)),
                 dur(p.costNs), num(static_cast<long long>(p.countedCostNs)),
                 num(static_cast<long long>(p.unflaggedCostNs)), resourceName(p.cause), provenanceName(p.provenance),
                 num(p.concurrency), p.lostShare >= 0 ? real(p.lostShare) : std::string(), p.evidence});
    return s;
}

std::string operatorsCsv(const Report& r) {
    std::string s;
    line(s, {"id",
             "signature",
             "name",
             "type",
             "count",
             "total_ns",
             "total",
             "baseline_ns",
             "baseline",
             "baseline_rule",
             "baseline_from_solo",
             "p50_ns",
             "p95_ns",
             "max_ns",
             "mean_ns",
             "anomalies",
             "extra_wait_ns",
             "extra_wait",
             "dominant_cause",
             "compute_ns",
             "data_wait_ns",
             "data_wait_provenance",
             "queue_ns",
             "queue_provenance",
             "sync_ns",
             "sync_provenance"});
    for (const SignatureStats& o : r.operators) {
        const Breakdown& b = o.breakdown;
        line(s, {num(o.id),
                 o.signature,
                 o.name,
                 o.opType,
                 num(static_cast<unsigned long long>(o.count)),
                 num(static_cast<long long>(o.totalNs)),
                 dur(o.totalNs),
                 num(static_cast<long long>(o.baselineNs)),
                 dur(o.baselineNs),
                 o.baselineRule,
                 flag(o.baselineFromSolo),
                 num(static_cast<long long>(o.p50Ns)),
                 num(static_cast<long long>(o.p95Ns)),
                 num(static_cast<long long>(o.maxNs)),
                 real(o.meanNs),
                 num(o.anomalies),
                 num(static_cast<long long>(o.extraWaitNs)),
                 dur(o.extraWaitNs),
                 resourceName(o.dominantCause),
                 num(static_cast<long long>(b.computeNs)),
                 num(static_cast<long long>(b.dataWaitNs)),
                 partProvenance(b.measuredData),
                 num(static_cast<long long>(b.queueNs)),
                 partProvenance(b.measuredQueue),
                 num(static_cast<long long>(b.syncNs)),
                 partProvenance(b.measuredSync)});
    }
    return s;
}

std::string notesCsv(const Report& r) {
    std::string s;
    line(s, {"kind", "text"});
    for (const ReportNote& n : r.notes) line(s, {n.kind, n.text});
    return s;
}

std::string breakdownsCsv(const Report& r) {
    std::string s;
    for (const std::vector<std::string>& row : breakdownsCsvRows(r.breakdowns)) {
        for (std::size_t i = 0; i < row.size(); ++i) s += (i ? "," : "") + cell(row[i]);
        s += "\r\n";
    }
    return s;
}

}  // namespace

std::vector<CsvFile> reportToCsv(const Report& r) {
    return {{"anomalies.csv", anomaliesCsv(r)},  {"windows.csv", windowsCsv(r)}, {"clusters.csv", clustersCsv(r)},
            {"operators.csv", operatorsCsv(r)},  {"notes.csv", notesCsv(r)},     {"patterns.csv", patternsCsv(r)},
            {"breakdowns.csv", breakdownsCsv(r)}};
}

std::optional<Failure> writeReportCsv(const Report& report, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))  // the reason names the folder: no file prefix
        return Failure::of(Failure::Kind::Unreadable,
                           "cannot create the folder " + dir + (ec ? ": " + ec.message() : ""));
    for (const CsvFile& f : reportToCsv(report)) {
        const std::string path = (std::filesystem::path(dir) / f.name).string();
        if (auto failed = writeFileAtomically(path, f.text)) return failed;
    }
    return std::nullopt;
}

}  // namespace contend
