// reportToMarkdown / writeReportMarkdown (declared in report_json.h): the report a person reads,
// in Markdown, one function per section.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/report/advice.h"
#include "core/report/report_json.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

constexpr std::size_t kTop = 20;

std::string pct(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * share);
    return buf;
}

// Pipes and newlines would break a table row.
std::string cell(std::string s) {
    for (char& c : s)
        if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
}

// The line under a table that shows the first kTop of `total` rows.
void writeMore(std::ostream& o, std::size_t total) {
    if (total > kTop) o << "\n... and " << formatCount(total - kTop) << " more (all in the JSON report).\n";
}

void writeHeader(std::ostream& o, const Report& r) {
    o << "# Contention report\n\n";
    o << "- Trace: `" << r.trace.path << "` (" << r.trace.format << ", " << r.trace.operators << " "
      << r.trace.scope << " operators, " << r.trace.tracks << " tracks, span " << formatDuration(r.trace.spanNs) << ")\n";
    o << "- Settings: anomaly coefficient " << r.settings.coefficient << ", overlap ratio " << r.settings.overlapRatio << "\n";
    if (r.trace.counters.empty())
        o << "- Counters: none mapped to resources; causes are estimated (which partners go with each operator's slow "
             "runs, and what the operators lean on), none measured\n";
    else
        o << "- Counters: " << r.trace.counters.size() << " series mapped to resources\n";
}

void writeSummary(std::ostream& o, const Report& r) {
    o << "\n## Summary\n\n";
    o << "| span | operator time | anomalies | extra wait in them | windows | clusters | gaps in clusters | bottleneck |\n"
         "|---|---|---|---|---|---|---|---|\n";
    const double share = r.summary.operatorTimeNs > 0 ? static_cast<double>(r.summary.anomalyWaitNs) /
                                                            static_cast<double>(r.summary.operatorTimeNs)
                                                      : 0.0;
    o << "| " << formatDuration(r.summary.endToEndNs) << " | " << formatDuration(r.summary.operatorTimeNs) << " | "
      << r.summary.anomalies << " | " << formatDuration(r.summary.anomalyWaitNs) << " (" << pct(share)
      << " of operator time) | " << r.summary.windows << " | " << r.summary.clusters << " | "
      << formatDuration(r.summary.clusterWaitNs) << " | "
      << (r.summary.bottleneck == Resource::None ? std::string("none shown by the evidence")
                                                 : std::string(resourceName(r.summary.bottleneck)) + " (" +
                                                       pct(r.summary.bottleneckShare) + " of the " +
                                                       formatDuration(r.summary.explainedWaitNs) +
                                                       " extra wait with a measured or estimated cause)")
      << " |\n\n";
}

void writeNotes(std::ostream& o, const Report& r) {
    if (!r.notes.empty()) {
        o << "## What this capture can and cannot tell\n\n";
        for (const ReportNote& n : r.notes) o << "- " << n.text << "\n";
        o << "\n";
    }
    if (r.summary.bottleneck != Resource::None) o << "**What to try first:** " << adviceFor(r.summary.bottleneck) << ".\n\n";
}

void writeAnomalies(std::ostream& o, const Report& r) {
    o << "## Top anomalies\n\n";
    if (r.anomalies.empty()) {
        o << "None above the coefficient.\n\n";
    } else {
        o << "| # | operator | track | start (ns) | duration | baseline | excess | score | cause | known | evidence |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < std::min(kTop, r.anomalies.size()); ++i) {
            const Anomaly& a = r.anomalies[i];
            char score[32];
            std::snprintf(score, sizeof score, "%.1f", a.score);
            o << "| " << a.id << " | " << cell(a.name) << " | " << cell(a.trackLabel) << " | " << a.startNs << " | "
              << formatDuration(a.durNs) << " | " << formatDuration(a.baselineNs) << " | " << formatDuration(a.excessNs)
              << " | " << score << " | " << resourceName(a.cause) << " | " << provenanceName(a.provenance) << " | "
              << cell(a.evidence) << " |\n";
        }
        writeMore(o, r.anomalies.size());
        o << "\n";
    }
}

void writeWindows(std::ostream& o, const Report& r) {
    o << "## Contention windows\n\n";
    if (r.windows.empty()) {
        o << "None at this overlap ratio.\n\n";
    } else {
        // The kTop costliest, ties in id order (a partial sort: there may be a million).
        std::vector<TimeNs> costs(r.windows.size(), 0);
        for (std::size_t i = 0; i < costs.size(); ++i)
            for (const auto& op : r.windows[i].ops) costs[i] += op.extraWaitNs;
        auto cost = [&](std::size_t i) { return costs[i]; };
        std::vector<std::size_t> order(r.windows.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        const auto shown = static_cast<std::ptrdiff_t>(std::min(kTop, order.size()));
        std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](std::size_t a, std::size_t b) {
            return costs[a] != costs[b] ? costs[a] > costs[b] : a < b;
        });
        o << "| # | resource | known | span | overlap ratio | peak | operators | extra wait | evidence |\n"
             "|---|---|---|---|---|---|---|---|---|\n";
        for (std::size_t k = 0; k < std::min(kTop, order.size()); ++k) {
            const ContentionWindow& w = r.windows[order[k]];
            std::string names;
            for (std::size_t j = 0; j < w.ops.size() && j < 4; ++j) names += (j ? ", " : "") + w.ops[j].name;
            if (w.ops.size() > 4) names += ", +" + std::to_string(w.ops.size() - 4);
            char ratio[16];
            std::snprintf(ratio, sizeof ratio, "%.2f", w.overlapRatio);
            o << "| " << w.id << " | " << resourceName(w.resource) << " | " << provenanceName(w.provenance) << " | "
              << formatDuration(w.end - w.start) << " | " << ratio << " | "
              << (w.fromCounters ? pct(w.peakUtilization) : std::string("n/a")) << " | " << cell(names) << " | "
              << formatDuration(cost(order[k])) << " | " << cell(w.evidence) << " |\n";
        }
        writeMore(o, r.windows.size());
        o << "\n";
    }
}

void writeClusters(std::ostream& o, const Report& r) {
    o << "## Clusters of tiny operators\n\n";
    if (r.clusters.empty()) {
        o << "None.\n\n";
    } else {
        o << "| # | track | span | operators | busy | waiting | saving if fused | why it waited |\n"
             "|---|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < std::min(kTop, r.clusters.size()); ++i) {
            const Cluster& c = r.clusters[i];
            o << "| " << c.id << " | " << cell(c.trackLabel) << " | " << formatDuration(c.end - c.start) << " | " << c.ops
              << " | " << formatDuration(c.busyNs) << " | " << formatDuration(c.waitNs) << " | " << formatDuration(c.savingNs)
              << " | " << cell(c.evidence) << " |\n";
        }
        writeMore(o, r.clusters.size());
        o << "\n" << clusterAdvice() << ".\n\n";
    }
}

void writeOperators(std::ostream& o, const Report& r) {
    o << "## Operators by extra wait\n\n";
    std::vector<const SignatureStats*> sigs;
    for (const auto& s : r.operators)
        if (s.extraWaitNs > 0) sigs.push_back(&s);
    std::stable_sort(sigs.begin(), sigs.end(), [](auto* a, auto* b) { return a->extraWaitNs > b->extraWaitNs; });
    if (sigs.empty()) {
        o << "No operator paid extra time above the coefficient.\n\n";
    } else {
        o << "| signature | count | baseline | p50 | p95 | anomalies | extra wait | dominant cause |\n"
             "|---|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < std::min(kTop, sigs.size()); ++i) {
            const SignatureStats& s = *sigs[i];
            o << "| " << cell(s.signature) << " | " << s.count << " | " << formatDuration(s.baselineNs) << " | "
              << formatDuration(s.p50Ns) << " | " << formatDuration(s.p95Ns) << " | " << s.anomalies << " | "
              << formatDuration(s.extraWaitNs) << " | " << resourceName(s.dominantCause) << " |\n";
        }
        writeMore(o, sigs.size());
        o << "\n";
    }
}

void writeAdvice(std::ostream& o, const Report& r) {
    // Advice per cause that appears.
    std::array<bool, kResourceCount> seen{};
    for (const auto& a : r.anomalies) seen[static_cast<std::size_t>(a.cause)] = true;
    for (const auto& w : r.windows) seen[static_cast<std::size_t>(w.resource)] = true;
    bool any = false;
    for (std::size_t i = 0; i < kResourceCount; ++i) {
        if (!seen[i] || static_cast<Resource>(i) == Resource::None) continue;
        if (!any) o << "## What to try\n\n";
        any = true;
        o << "- " << adviceFor(static_cast<Resource>(i)) << ".\n";
    }
    if (!r.clusters.empty()) {
        if (!any) o << "## What to try\n\n";
        o << "- " << clusterAdvice() << ".\n";
    }
}

}  // namespace

void writeReportMarkdown(std::ostream& o, const Report& r, const Trace& trace) {
    (void)trace;   // the report carries its own names
    writeHeader(o, r);
    writeSummary(o, r);
    writeNotes(o, r);
    writeAnomalies(o, r);
    writeWindows(o, r);
    writeClusters(o, r);
    writeOperators(o, r);
    writeAdvice(o, r);
}

std::string reportToMarkdown(const Report& r, const Trace& trace) {
    std::ostringstream o;
    writeReportMarkdown(o, r, trace);
    return o.str();
}

}  // namespace contend
