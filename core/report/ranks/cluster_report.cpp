#include "core/report/ranks/cluster_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/producer_json.h"
#include "core/report/single/report_json.h"
#include "core/trace/time_format.h"

namespace contend {

using nlohmann::json;

namespace {

json findingJson(const RankFinding& f) {
    return {{"kind", f.window ? "window" : "anomaly"},
            {"op", f.op},
            {"resource", resourceName(f.resource)},
            {"provenance", provenanceName(f.provenance)},
            {"start_ns", f.startNs},
            {"end_ns", f.endNs},
            {"extra_wait_ns", f.extraWaitNs}};
}

std::string us(TimeNs ns) {
    char b[48];
    std::snprintf(b, sizeof b, "%.1f us", static_cast<double>(ns) / 1e3);
    return b;
}

// HTA's per-rank temporal breakdown and overlap, one row a rank.
void writeRankTemporal(std::ostream& o, const ClusterReport& c) {
    if (c.temporal.empty()) return;
    o << "\n## Breakdowns per rank (HTA's figures)\n\n| rank | idle | compute | non-compute | kernel time | "
         "comm/compute overlap |\n|---|---|---|---|---|---|\n";
    for (const RankTemporal& t : c.temporal) {
        char b[160];
        const double k = t.kernelNs > 0 ? 100.0 / static_cast<double>(t.kernelNs) : 0.0;
        std::snprintf(b, sizeof b, "| %d | %.2f%% | %.2f%% | %.2f%% | %s |", t.rank, k * static_cast<double>(t.idleNs),
                      k * static_cast<double>(t.computeNs), k * static_cast<double>(t.nonComputeNs),
                      us(t.kernelNs).c_str());
        o << b;
        const auto ov = std::find_if(c.commCompOverlap.begin(), c.commCompOverlap.end(),
                                     [&t](const RankOverlap& x) { return x.rank == t.rank; });
        if (ov != c.commCompOverlap.end()) {
            std::snprintf(b, sizeof b, " %.2f%% |\n", 100.0 * ov->fraction);
            o << b;
        } else {
            o << " - |\n";
        }
    }
}

// HTA's idle time and queue length per stream of each rank, the ranks' report rows as they are.
// Idle % is the stream's idle time (host wait + kernel wait + other) over its rank's kernel time
// (the temporal breakdown's span); "-" when a figure is not in the rank's report.
void writeRankStreams(std::ostream& o, const ClusterReport& c) {
    if (c.idle.empty() && c.queueLength.empty()) return;
    using Key = std::pair<int, std::int32_t>;  // rank, stream
    struct Row {
        const StreamIdle* idle = nullptr;
        const StreamQueue* queue = nullptr;
    };
    std::map<Key, Row> rows;
    for (const StreamIdle& s : c.idle) rows[{s.rank, s.stream}].idle = &s;
    for (const StreamQueue& q : c.queueLength) rows[{q.rank, q.stream}].queue = &q;
    std::map<int, TimeNs> kernelNs;
    for (const RankTemporal& t : c.temporal) kernelNs[t.rank] = t.kernelNs;
    o << "\n## Idle time and queue length per stream (HTA's figures)\n\nIdle % is the stream's idle time (host wait + "
         "kernel wait + other) over its rank's kernel time.\n\n| rank | stream | idle % | host wait | kernel wait | "
         "queue p50 / max | blocked on full queue |\n|---|---|---|---|---|---|---|\n";
    for (const auto& [key, row] : rows) {
        o << "| " << key.first << " | " << key.second << " | ";
        if (const StreamIdle* idle = row.idle) {
            const TimeNs total = idle->hostWaitNs + idle->kernelWaitNs + idle->otherNs;
            const auto span = kernelNs.find(key.first);
            char b[32] = "-";
            if (span != kernelNs.end() && span->second > 0)
                std::snprintf(b, sizeof b, "%.2f%%",
                              100.0 * static_cast<double>(total) / static_cast<double>(span->second));
            o << b << " | " << formatDuration(idle->hostWaitNs) << " | " << formatDuration(idle->kernelWaitNs) << " | ";
        } else {
            o << "- | - | - | ";
        }
        if (const StreamQueue* queue = row.queue) {
            char b[64];
            std::snprintf(b, sizeof b, "%g / %lld", queue->p50, static_cast<long long>(queue->max));
            o << b << " | " << formatDuration(queue->blockedOnFullQueueNs) << " |\n";
        } else {
            o << "- | - |\n";
        }
    }
}

// Per rank, the sections its report did not compute and why.
void writeRankNotComputed(std::ostream& o, const ClusterReport& c) {
    if (c.breakdownsNotComputed.empty()) return;
    o << "\n## Breakdowns not computed, per rank\n\n";
    for (const RankNotComputed& r : c.breakdownsNotComputed) {
        o << "- rank " << r.rank << ": ";
        for (std::size_t i = 0; i < r.sections.size(); ++i)
            o << (i ? "; " : "") << r.sections[i].first << ": " << r.sections[i].second;
        o << "\n";
    }
}

void writeRankBreakdowns(std::ostream& o, const ClusterReport& c) {
    writeRankTemporal(o, c);
    writeRankStreams(o, c);
    writeRankNotComputed(o, c);
}

}  // namespace

json clusterToJson(const ClusterReport& c) {
    json j;
    j["schema"] = kClusterSchema;
    j["producer"] = producerJson();  // this build, never c.producer: the file is its writing
    j["settings"] = {{"k", c.settings.k}, {"min_excess", c.settings.minExcess}};
    json ranks = json::array();
    for (std::size_t r = 0; r < c.ranks.size(); ++r) {
        json x = {{"rank", c.ranks[r]}, {"report", c.sources[r]}, {"collectives", c.collectivesPerRank[r]}};
        // Where the rank's trace is, for the app's drill-down (absent in reports before it).
        if (r < c.traces.size() && !c.traces[r].empty()) x["trace"] = c.traces[r];
        // Its report's note that its input was partial (truncated-input, damaged-input); absent
        // for a whole rank.
        if (r < c.partial.size() && !c.partial[r].empty()) x["partial"] = c.partial[r];
        ranks.push_back(std::move(x));
    }
    j["ranks"] = std::move(ranks);
    json its = json::array();
    for (const ClusterIteration& it : c.iterations) {
        json per = json::array();
        for (const RankStep& s : it.ranks)
            per.push_back({{"rank", s.rank},
                           {"step_ns", s.stepNs},
                           {"wait_ns", s.waitNs},
                           {"compute_ns", s.computeNs},
                           {"slow_compute", s.slowCompute},
                           {"slow", s.slow}});
        its.push_back({{"index", it.index},
                       {"median_compute_ns", it.medianComputeNs},
                       {"mad_compute_ns", it.madComputeNs},
                       {"threshold_ns", it.thresholdNs},
                       {"spread", it.spread},
                       {"ranks", std::move(per)}});
    }
    j["iterations"] = std::move(its);
    json slow = json::array();
    for (const SlowRank& s : c.slowRanks)
        slow.push_back({{"rank", s.rank}, {"iterations", s.iterations}, {"excess_ns", s.excessNs}});
    j["slow_ranks"] = std::move(slow);
    json cols = json::array();
    std::size_t heldUp = 0, explained = 0;
    for (const ClusterCollective& k : c.collectives) {
        json x = {{"iteration", k.iteration},
                  {"name", k.name},
                  {"key", k.key},
                  {"ordinal", k.ordinal},
                  {"ranks", k.ranks},
                  {"late_rank", k.lateRank},
                  {"late_by_ns", k.lateByNs},
                  {"late_start_ns", k.lateStartNs},
                  {"max_wait_ns", k.maxWaitNs},
                  {"mean_wait_ns", k.meanWaitNs},
                  {"spread_ns", k.spreadNs},
                  {"held_up", k.heldUp}};
        if (k.heldUp) {
            ++heldUp;
            x["text"] = k.cause.text;
            x["cause"] = k.hasCause ? findingJson(k.cause.finding) : json(nullptr);
            explained += k.hasCause;
        }
        cols.push_back(std::move(x));
    }
    j["collectives"] = std::move(cols);
    json notes = json::array();
    for (const ClusterNote& n : c.notes) notes.push_back({{"kind", n.kind}, {"text", n.text}});
    j["notes"] = std::move(notes);
    j["breakdowns"] = rankBreakdownsToJson({c.temporal, c.commCompOverlap, c.idle, c.queueLength});
    json notComputed = json::array();  // per rank, why a section is absent
    for (const RankNotComputed& r : c.breakdownsNotComputed) {
        json sections = json::object();
        for (const auto& [section, why] : r.sections) sections[section] = why;
        notComputed.push_back({{"rank", r.rank}, {"sections", std::move(sections)}});
    }
    j["breakdowns"]["not_computed"] = std::move(notComputed);
    j["summary"] = {{"ranks", c.ranks.size()},
                    {"iterations", c.iterations.size()},
                    {"collectives", c.collectives.size()},
                    {"held_up", heldUp},
                    {"explained", explained},
                    {"slow_ranks", c.slowRanks.size()}};
    return j;
}

std::string clusterToMarkdown(const ClusterReport& c) {
    std::ostringstream o;
    o << "# Cluster report\n\n";
    o << c.ranks.size() << " ranks, " << c.iterations.size() << " steps, " << c.collectives.size()
      << " collectives matched across ranks.\n\n";
    for (const ClusterNote& n : c.notes)
        if (n.kind == "partial-rank") o << "> **Warning (partial rank):** " << n.text << "\n\n";
    o << "Slow rank test, per step: compute time (step span less the rank's waits in collectives) beyond the median "
         "by more than "
      << c.settings.k << " x 1.4826 x max(MAD, " << c.settings.minExcess * 100
      << "% of the median), or the rank held up a collective: it arrived later than the next rank by more than "
      << c.settings.k << " x 1.4826 x the MAD of the others' waits (and " << c.settings.minExcess * 100
      << "% of the median compute).\n\n";
    o << "## Slow ranks\n\n";
    if (c.slowRanks.empty()) {
        o << "No rank is slow in any step.\n\n";
    } else {
        o << "| rank | slow steps | excess compute |\n|---|---|---|\n";
        for (const SlowRank& s : c.slowRanks) {
            o << "| " << s.rank << " | " << s.iterations.size() << " (";
            for (std::size_t i = 0; i < s.iterations.size() && i < 12; ++i) o << (i ? ", " : "") << s.iterations[i];
            if (s.iterations.size() > 12) o << ", ...";
            o << ") | " << us(s.excessNs) << " |\n";
        }
        o << "\n";
    }
    o << "## Collectives held up by a slow rank\n\n";
    std::size_t shown = 0;
    for (const ClusterCollective& k : c.collectives) {
        if (!k.heldUp) continue;
        if (++shown > 50) break;
        o << "- " << k.cause.text << "; the others waited up to " << us(k.maxWaitNs) << " (mean " << us(k.meanWaitNs)
          << ")";
        if (k.hasCause)
            o << ": window " << k.cause.finding.startNs << "-" << k.cause.finding.endNs << " ns on its clock";
        o << "\n";
    }
    if (shown == 0) o << "None.\n";
    o << "\n## Steps\n\n| step | median compute | MAD | spread (max-min)/mean | slow ranks |\n|---|---|---|---|---|\n";
    for (const ClusterIteration& it : c.iterations) {
        std::string slow;
        for (const RankStep& s : it.ranks)
            if (s.slow) slow += (slow.empty() ? "" : ", ") + std::to_string(s.rank);
        char spread[32];
        std::snprintf(spread, sizeof spread, "%.2f%%", it.spread * 100);
        o << "| " << it.index << " | " << us(it.medianComputeNs) << " | " << us(it.madComputeNs) << " | " << spread
          << " | " << (slow.empty() ? "-" : slow) << " |\n";
    }
    writeRankBreakdowns(o, c);
    if (!c.notes.empty()) {
        o << "\n## Notes\n\n";
        for (const ClusterNote& n : c.notes) o << "- " << n.text << "\n";
    }
    return o.str();
}

Result<RankInput> readRankReport(const std::string& path) {
    auto fail = [&](Failure::Kind kind, std::string why) { return Failure::of(kind, std::move(why), path); };
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(Failure::Kind::Unreadable, "cannot open the report");
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        return fail(Failure::Kind::Malformed, "not JSON (expected a report written by contend-cli analyze --json)");
    Result<Report> report = reportFromJson(j);
    j = json();
    if (!report) return fail(Failure::Kind::Malformed, report.failure().reason);
    return rankInputFromReport(report.value(), path);
}

}  // namespace contend
