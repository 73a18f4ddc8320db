// reportToMarkdown / writeReportMarkdown (declared in report_json.h): the report a person reads,
// in Markdown, one function per section.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/report/breakdowns/breakdowns_text.h"
#include "core/report/single/advice.h"
#include "core/report/single/report_json.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

constexpr std::size_t kTop = kMarkdownTop;

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

// The line under a table that shows the first kTop of `total` rows: where the rest are.
void writeMore(std::ostream& o, std::size_t total, const std::string& jsonFile) {
    if (total <= kTop) return;
    o << "\n... and " << formatCount(total - kTop) << " more: see the JSON report ("
      << (jsonFile.empty() ? std::string("`contend-cli analyze --json FILE` lists every one") : "`" + jsonFile + "`")
      << ").\n";
}

std::string gainCell(TimeNs gain, std::size_t iterations) {
    if (gain < 0) return "not computed";
    std::string t = formatDuration(gain);
    if (iterations > 1) t += " (" + formatDuration(gain / static_cast<TimeNs>(iterations)) + "/it)";
    return t;
}

// The finding tables' heading suffix for the order they are in.
const char* rankedBy(FindingRank rank) { return rank == FindingRank::Gain ? " (by predicted gain)" : ""; }

void writeHeader(std::ostream& o, const Report& r) {
    o << "# Contention report\n\n";
    o << "- Trace: `" << r.trace.path << "` (" << r.trace.format << ", " << r.trace.operators << " " << r.trace.scope
      << " operators, " << r.trace.tracks << " tracks, span " << formatDuration(r.trace.spanNs) << ")\n";
    o << "- Settings: anomaly coefficient " << r.settings.coefficient << ", overlap ratio " << r.settings.overlapRatio
      << "\n";
    if (r.trace.counters.empty())
        o << "- Counters: none mapped to resources; causes are estimated (which partners go with each operator's slow "
             "runs, and what the operators lean on), none measured\n";
    else
        o << "- Counters: " << r.trace.counters.size() << " series mapped to resources\n";
    // The input's own notes (truncated-input, damaged-input, stream-overlap) head the report, as
    // a warning, besides their place among the notes.
    for (const ReportNote& n : r.notes)
        if (isStrictNote(n.kind)) o << "\n> **Warning (" << n.kind << "):** " << n.text << "\n";
}

void writeSummary(std::ostream& o, const Report& r) {
    o << "\n## Summary\n\n";
    o << "| span | operator time | anomalies | extra wait in them | windows | clusters | gaps in clusters | bottleneck "
         "|\n"
         "|---|---|---|---|---|---|---|---|\n";
    const double share = r.summary.operatorTimeNs > 0 ? static_cast<double>(r.summary.anomalyWaitNs) /
                                                            static_cast<double>(r.summary.operatorTimeNs)
                                                      : 0.0;
    o << "| " << formatDuration(r.summary.endToEndNs) << " | " << formatDuration(r.summary.operatorTimeNs) << " | "
      << r.summary.anomalies << " | " << formatDuration(r.summary.anomalyWaitNs) << " (" << pct(share)
      << " of operator time) | " << r.summary.windows << " | " << r.summary.clusters << " | "
      << formatDuration(r.summary.clusterWaitNs) << " | "
      << (r.summary.bottleneck == Resource::None
              ? std::string("none shown by the evidence")
              : std::string(resourceName(r.summary.bottleneck)) + " (" + pct(r.summary.bottleneckShare) + " of the " +
                    formatDuration(r.summary.explainedWaitNs) + " extra wait with a measured or estimated cause)")
      << " |\n\n";
}

// Only when the analysis found some: reports of traces without patterns read as before.
void writePatterns(std::ostream& o, const Report& r, const std::string& json) {
    if (r.patterns.empty()) return;
    o << "## Contention patterns (by cost)\n\n";
    o << "Runs of an operator beside a partner against its runs apart, whether or not any single run is an "
         "anomaly. Their runs that are not anomalies add "
      << formatDuration(r.summary.patternWaitNs) << " to the extra wait (each run counted once).\n\n";
    o << "| # | operator | beside | runs beside / apart | slowdown (95% CI) | p | cost | cause | how it is known |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < std::min(kTop, r.patterns.size()); ++i) {
        const ContentionPattern& p = r.patterns[i];
        char p10[32];
        std::snprintf(p10, sizeof p10, "%.1g", p.pValue);
        o << "| " << p.id << " | " << cell(p.victim) << " | " << cell(p.partner) << " | " << p.runsBeside << " / "
          << p.runsApart << " | " << pct(p.slowdown) << " (" << pct(p.slowdownLow) << " to " << pct(p.slowdownHigh)
          << ") | " << p10 << " | " << formatDuration(p.costNs) << " | " << resourceName(p.cause) << " ("
          << provenanceName(p.provenance) << ") | " << cell(p.evidence) << " |\n";
    }
    writeMore(o, r.patterns.size(), json);
    o << "\n";
}

void writeNotes(std::ostream& o, const Report& r) {
    if (!r.notes.empty()) {
        o << "## What this capture can and cannot tell\n\n";
        for (const ReportNote& n : r.notes) o << "- " << n.text << "\n";
        o << "\n";
    }
    if (r.summary.bottleneck != Resource::None)
        o << "**What to try first:** " << adviceFor(r.summary.bottleneck) << ".\n\n";
}

// The what-if's headline (whatif.h): the critical path and each resource's predicted gain.
void writeWhatIf(std::ostream& o, const Report& r) {
    const WhatIfSummary& w = r.whatIf;
    if (!w.computed) return;
    o << "## What fixing it would save end to end\n\n";
    o << "Predicted by re-scheduling the dependency graph (" << w.nodes << " nodes, " << w.edges
      << " edges) with the operators at their baseline: " << w.iterations << " iterations, "
      << formatDuration(w.totalNs) << " in all; the critical path runs mostly on "
      << (w.criticalTrack.empty() ? std::string("-") : "`" + w.criticalTrack + "`") << ".\n\n";
    if (!w.resources.empty()) {
        o << "| fix all of | extra wait | predicted gain | share of the run |\n|---|---|---|---|\n";
        for (const ResourceGain& g : w.resources)
            o << "| " << resourceName(g.resource) << " | " << formatDuration(g.extraWaitNs) << " | "
              << gainCell(g.gainNs, w.iterations) << " | "
              << pct(w.totalNs > 0 ? static_cast<double>(g.gainNs) / static_cast<double>(w.totalNs) : 0.0) << " |\n";
        o << "\n";
        // A gain above the extra wait is not a slip of the arithmetic: say where it comes from.
        bool any = false;
        for (const ResourceGain& g : w.resources)
            if (const std::string why = gainAboveWait(r, g); !why.empty()) {
                o << "- " << resourceName(g.resource) << ": " << why << ".\n";
                any = true;
            }
        if (any) o << "\n";
    }
}

void writeAnomalies(std::ostream& o, const Report& r, FindingRank rank, const std::string& json) {
    const std::size_t iters = r.whatIf.iterations;
    o << "## Top anomalies" << rankedBy(rank) << "\n\n";
    if (r.anomalies.empty()) {
        o << "None above the coefficient.\n\n";
    } else {
        o << "| # | operator | track | start (ns) | duration | baseline | excess | score | cause | known | gain | "
             "evidence |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        const std::vector<std::size_t> order = anomalyOrder(r, rank, kTop);
        for (std::size_t i = 0; i < std::min(kTop, r.anomalies.size()); ++i) {
            const Anomaly& a = r.anomalies[order[i]];
            char score[32];
            std::snprintf(score, sizeof score, "%.1f", a.score);
            o << "| " << a.id << " | " << cell(a.name) << " | " << cell(a.trackLabel) << " | " << a.startNs << " | "
              << formatDuration(a.durNs) << " | " << formatDuration(a.baselineNs) << " | " << formatDuration(a.excessNs)
              << " | " << score << " | " << resourceName(a.cause) << " | " << provenanceName(a.provenance) << " | "
              << gainCell(a.gainNs, iters) << " | " << cell(a.evidence) << " |\n";
        }
        writeMore(o, r.anomalies.size(), json);
        o << "\n";
    }
}

void writeWindows(std::ostream& o, const Report& r, FindingRank rank, const std::string& json) {
    const std::size_t iters = r.whatIf.iterations;
    o << "## Contention windows" << rankedBy(rank) << "\n\n";
    if (r.windows.empty()) {
        o << "None at this overlap ratio.\n\n";
    } else {
        const std::vector<std::size_t> order = windowOrder(r, rank, kTop);
        auto cost = [&](std::size_t i) { return windowExtraWait(r.windows[i]); };
        o << "| # | resource | known | span | overlap ratio | peak | operators | extra wait | gain | evidence |\n"
             "|---|---|---|---|---|---|---|---|---|---|\n";
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
              << formatDuration(cost(order[k])) << " | " << gainCell(w.gainNs, iters) << " | " << cell(w.evidence)
              << " |\n";
        }
        writeMore(o, r.windows.size(), json);
        o << "\n";
    }
}

void writeClusters(std::ostream& o, const Report& r, FindingRank rank, const std::string& json) {
    const std::size_t iters = r.whatIf.iterations;
    o << "## Clusters of tiny operators" << rankedBy(rank) << "\n\n";
    if (r.clusters.empty()) {
        o << "None.\n\n";
    } else {
        o << "| # | track | span | operators | busy | waiting | saving if fused | end-to-end gain | why it waited |\n"
             "|---|---|---|---|---|---|---|---|---|\n";
        const std::vector<std::size_t> order = clusterOrder(r, rank, kTop);
        for (std::size_t i = 0; i < std::min(kTop, r.clusters.size()); ++i) {
            const Cluster& c = r.clusters[order[i]];
            o << "| " << c.id << " | " << cell(c.trackLabel) << " | " << formatDuration(c.end - c.start) << " | "
              << c.ops << " | " << formatDuration(c.busyNs) << " | " << formatDuration(c.waitNs) << " | "
              << formatDuration(c.savingNs) << " | " << gainCell(c.gainNs, iters) << " | " << cell(c.evidence)
              << " |\n";
        }
        writeMore(o, r.clusters.size(), json);
        o << "\n" << clusterAdvice() << ".\n\n";
    }
}

void writeOperators(std::ostream& o, const Report& r, const std::string& json) {
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
        writeMore(o, sigs.size(), json);
        o << "\n";
    }
}

void writeAdvice(std::ostream& o, const Report& r) {
    // Advice per cause that appears.
    std::array<bool, kResourceCount> seen{};
    for (std::size_t k = 0; k < r.anomalies.size(); ++k) seen[static_cast<std::size_t>(r.anomalies.cause(k))] = true;
    for (const auto& w : r.windows) seen[static_cast<std::size_t>(w.resource)] = true;
    for (const auto& p : r.patterns) seen[static_cast<std::size_t>(p.cause)] = true;
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

void writeReportMarkdown(std::ostream& o, const Report& r, const Trace& /*trace: the report carries its own names*/,
                         FindingRank rank, const std::string& json) {
    writeHeader(o, r);
    writeSummary(o, r);
    writeNotes(o, r);
    writeWhatIf(o, r);
    writePatterns(o, r, json);
    writeAnomalies(o, r, rank, json);
    writeWindows(o, r, rank, json);
    writeClusters(o, r, rank, json);
    writeOperators(o, r, json);
    writeBreakdownsMarkdown(o, r.breakdowns);
    writeAdvice(o, r);
}

std::string reportToMarkdown(const Report& r, const Trace& trace, FindingRank rank, const std::string& json) {
    std::ostringstream o;
    writeReportMarkdown(o, r, trace, rank, json);
    return o.str();
}

}  // namespace contend
