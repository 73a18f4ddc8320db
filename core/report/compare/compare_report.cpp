#include "core/report/compare/compare_report.h"

#include <cmath>
#include <cstdio>

#include "core/report/producer_json.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

using nlohmann::json;

json anomalySide(const Anomaly& a) {
    return {{"score", a.score},
            {"start_ns", a.startNs},
            {"dur_ns", a.durNs},
            {"baseline_ns", a.baselineNs},
            {"excess_ns", a.excessNs},
            {"cause", resourceName(a.cause)},
            {"track", a.trackLabel},
            {"pid", a.pid},
            {"tid", a.tid}};
}

json windowSide(const ContentionWindow& w) {
    TimeNs extra = 0;
    for (const auto& op : w.ops) extra += op.extraWaitNs;
    return {{"start_ns", w.start},
            {"end_ns", w.end},
            {"overlap_ratio", w.overlapRatio},
            {"peak_utilization", w.peakUtilization},
            {"extra_wait_ns", extra}};
}

json clusterSide(const Cluster& c) {
    return {{"start_ns", c.start},  {"end_ns", c.end},     {"ops", c.ops},
            {"busy_ns", c.busyNs},  {"wait_ns", c.waitNs}, {"estimated_saving_ns", c.savingNs},
            {"track", c.trackLabel}};
}

json placeJson(const RunPlace& p) {
    json j = {{"offset_ns", p.offsetNs}};
    j["iteration"] = p.iteration >= 0 ? json(p.iteration) : json(nullptr);
    return j;
}

template <typename Diff, typename F>
json partitionJson(const Partition<Diff>& p, F item) {
    json out = {{"resolved", json::array()}, {"persisting", json::array()}, {"new", json::array()}};
    for (const auto& d : p.resolved) out["resolved"].push_back(item(d));
    for (const auto& d : p.persisting) out["persisting"].push_back(item(d));
    for (const auto& d : p.added) out["new"].push_back(item(d));
    return out;
}

json sigSide(const SignatureStats& s) {
    return {{"count", s.count},
            {"total_ns", s.totalNs},
            {"baseline_ns", s.baselineNs},
            {"mean_ns", s.meanNs},
            {"p95_ns", s.p95Ns},
            {"anomalies", s.anomalies},
            {"extra_wait_ns", s.extraWaitNs},
            {"dominant_cause", resourceName(s.dominantCause)}};
}

std::string pct(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f%%", x * 100);
    return b;
}

json gainCheckJson(const GainCheck& g) {
    json byRes = json::object();
    for (std::size_t k = 0; k < kResourceCount; ++k)
        if (g.predictedByResource[k] > 0) byRes[resourceName(static_cast<Resource>(k))] = g.predictedByResource[k];
    return {{"available", g.available},
            {"predicted_ns", g.predictedNs},
            {"realised_ns", g.realisedNs},
            {"base_total_ns", g.baseTotalNs},
            {"new_total_ns", g.newTotalNs},
            {"base_iterations", g.baseIterations},
            {"new_iterations", g.newIterations},
            {"predicted_per_iteration_ns", g.predictedPerIterationNs},
            {"realised_per_iteration_ns", g.realisedPerIterationNs},
            {"predicted_by_resource", byRes},
            {"resolved",
             {{"windows", g.resolvedWindows}, {"clusters", g.resolvedClusters}, {"anomalies", g.resolvedAnomalies}}},
            {"new_critical_track", g.newCriticalTrack},
            {"not_faster", g.notFaster},
            {"text", g.text}};
}

// HTA's breakdowns side by side: the figures whose value changed or that one side lacks (a
// trace_diff in HTA's sense), up to 40 of them.
void writeBreakdownChanges(std::string& m, const std::vector<BreakdownChange>& changes) {
    std::vector<const BreakdownChange*> shown;
    for (const BreakdownChange& c : changes)
        if (!c.inBase || !c.inNow || c.now != c.base.value) shown.push_back(&c);
    if (shown.empty()) return;
    m += "\n## Breakdowns (HTA's figures)\n\n| section | subject | figure | base | new |\n|---|---|---|---|---|\n";
    char b[64];
    auto num = [&b](bool has, double v, const std::string& figure) {
        if (!has) return std::string("-");
        const bool ns = figure.size() > 3 && figure.compare(figure.size() - 3, 3, "_ns") == 0;
        if (ns) return formatDuration(static_cast<TimeNs>(std::llround(v)));
        std::snprintf(b, sizeof b, "%.4g", v);
        return std::string(b);
    };
    for (std::size_t i = 0; i < shown.size() && i < 40; ++i) {
        const BreakdownChange& c = *shown[i];
        m += "| " + c.base.section + " | " + c.base.subject + " | " + c.base.figure + " | " +
             num(c.inBase, c.base.value, c.base.figure) + " | " + num(c.inNow, c.now, c.base.figure) + " |\n";
    }
    if (shown.size() > 40) m += "\n" + std::to_string(shown.size() - 40) + " more in the JSON.\n";
}

}  // namespace

json compareToJson(const CompareResult& r) {
    json j;
    j["schema"] = kCompareSchema;
    j["producer"] = producerJson();
    j["base"] = r.basePath;
    j["new"] = r.newPath;
    // The side whose input was partial (its truncated-input or damaged-input note); absent when whole.
    if (!r.basePartial.empty()) j["base_partial"] = r.basePartial;
    if (!r.newPartial.empty()) j["new_partial"] = r.newPartial;
    json byRes = json::object();
    for (std::size_t k = 0; k < kResourceCount; ++k) {
        if (r.baseByResource[k] == 0 && r.newByResource[k] == 0) continue;
        byRes[resourceName(static_cast<Resource>(k))] = {{"base", r.baseByResource[k]}, {"new", r.newByResource[k]}};
    }
    j["summary"] = {
        {"end_to_end_ns", {{"base", r.baseEndToEnd}, {"new", r.newEndToEnd}, {"change", r.endToEndChange}}},
        {"extra_wait_ns", {{"base", r.baseExtraWait}, {"new", r.newExtraWait}}},
        {"extra_wait_by_resource", byRes},
        {"bottleneck",
         {{"base", {{"resource", resourceName(r.bottleneck.baseResource)}, {"share", r.bottleneck.baseShare}}},
          {"new", {{"resource", resourceName(r.bottleneck.newResource)}, {"share", r.bottleneck.newShare}}},
          {"shifted", r.bottleneck.shifted},
          {"text", r.bottleneck.text}}},
        {"verdict", r.verdict},
        {"predicted_vs_realised", gainCheckJson(r.gain)},
        {"counts",
         {{"anomalies",
           {{"resolved", r.anomalies.resolved.size()},
            {"persisting", r.anomalies.persisting.size()},
            {"new", r.anomalies.added.size()}}},
          {"windows",
           {{"resolved", r.windows.resolved.size()},
            {"persisting", r.windows.persisting.size()},
            {"new", r.windows.added.size()}}},
          {"clusters",
           {{"resolved", r.clusters.resolved.size()},
            {"persisting", r.clusters.persisting.size()},
            {"new", r.clusters.added.size()}}}}}};
    j["anomalies"] = partitionJson(r.anomalies, [](const AnomalyDiff& d) {
        json x = {{"signature", d.signature}, {"name", d.name}, {"place", placeJson(d.place)}};
        if (d.inBase) x["base"] = anomalySide(d.base);
        if (d.inNew) x["new"] = anomalySide(d.now);
        if (d.inBase && d.inNew) x["score_change"] = d.scoreChange;
        return x;
    });
    j["windows"] = partitionJson(r.windows, [](const WindowDiff& d) {
        json x = {{"resource", resourceName(d.resource)}, {"ops", d.ops}, {"place", placeJson(d.place)}};
        if (d.inBase) x["base"] = windowSide(d.base);
        if (d.inNew) x["new"] = windowSide(d.now);
        return x;
    });
    j["clusters"] = partitionJson(r.clusters, [](const ClusterDiff& d) {
        json x = {{"tid", d.tid}, {"place", placeJson(d.place)}};
        if (d.inBase) x["base"] = clusterSide(d.base);
        if (d.inNew) x["new"] = clusterSide(d.now);
        return x;
    });
    j["patterns"] = partitionJson(r.patterns, [](const PatternDiff& d) {
        auto side = [](const ContentionPattern& p) {
            return json{{"runs_beside", p.runsBeside},
                        {"slowdown", std::isfinite(p.slowdown) ? p.slowdown : 0.0},
                        {"cost_ns", p.costNs},
                        {"cause", resourceName(p.cause)},
                        {"provenance", provenanceName(p.provenance)}};
        };
        json x = {{"victim", d.victim}, {"partner", d.partner}};
        if (d.inBase) x["base"] = side(d.base);
        if (d.inNew) x["new"] = side(d.now);
        return x;
    });
    json ops = json::array();
    for (const auto& d : r.operators) {
        json x = {{"signature", d.signature},
                  {"name", d.name},
                  {"change", opChangeSymbol(d.change)},
                  {"mean_change", d.meanChange}};
        if (d.inBase) x["base"] = sigSide(d.base);
        if (d.inNew) x["new"] = sigSide(d.now);
        ops.push_back(x);
    }
    j["operators"] = ops;
    json figures = json::array();
    for (const BreakdownChange& c : r.breakdowns)
        figures.push_back({{"section", c.base.section},
                           {"subject", c.base.subject},
                           {"figure", c.base.figure},
                           {"base", c.inBase ? json(c.base.value) : json(nullptr)},
                           {"new", c.inNow ? json(c.now) : json(nullptr)}});
    j["breakdowns"] = std::move(figures);
    return j;
}

std::string compareToMarkdown(const CompareResult& r) {
    std::string m;
    m += "# Contend compare\n\n";
    m += "- base: `" + r.basePath + "`\n- new: `" + r.newPath + "`\n\n";
    if (!r.basePartial.empty()) m += "> **Warning: BASE is partial** (" + r.basePartial + ")\n\n";
    if (!r.newPartial.empty()) m += "> **Warning: NEW is partial** (" + r.newPartial + ")\n\n";
    m += "**Verdict:** " + r.verdict + "\n\n";
    if (r.gain.available) m += "**Predicted vs realised:** " + r.gain.text + "\n\n";
    m += "| | base | new | change |\n|---|---|---|---|\n";
    m += "| end-to-end | " + formatDuration(r.baseEndToEnd) + " | " + formatDuration(r.newEndToEnd) + " | " +
         pct(r.endToEndChange) + " |\n";
    m += "| extra wait | " + formatDuration(r.baseExtraWait) + " | " + formatDuration(r.newExtraWait) + " | |\n";
    // "same" only when it is the same resource: a bottleneck that went away is "gone", not "same".
    const BottleneckShift& bs = r.bottleneck;
    // A remainder too small to count (compare.h) is gone too, whatever resource holds it.
    const char* how = bs.shifted                          ? "shifted"
                      : bs.wentAway                       ? "gone"
                      : bs.baseResource == bs.newResource ? "same"
                      : bs.newResource == Resource::None  ? "gone"
                                                          : "appeared";
    m += "| bottleneck | " + std::string(resourceName(bs.baseResource)) + " | " + resourceName(bs.newResource) + " | " +
         how + " |\n";
    for (std::size_t k = 0; k < kResourceCount; ++k) {
        if (r.baseByResource[k] == 0 && r.newByResource[k] == 0) continue;
        m += std::string("| extra wait: ") + resourceName(static_cast<Resource>(k)) + " | " +
             formatDuration(r.baseByResource[k]) + " | " + formatDuration(r.newByResource[k]) + " | |\n";
    }
    auto counts = [&](const char* what, std::size_t a, std::size_t b, std::size_t c) {
        m += std::string("| ") + what + " resolved / persisting / new | " + std::to_string(a) + " | " +
             std::to_string(b) + " | " + std::to_string(c) + " |\n";
    };
    m += "\n| item | resolved | persisting | new |\n|---|---|---|---|\n";
    counts("anomalies", r.anomalies.resolved.size(), r.anomalies.persisting.size(), r.anomalies.added.size());
    counts("windows", r.windows.resolved.size(), r.windows.persisting.size(), r.windows.added.size());
    counts("clusters", r.clusters.resolved.size(), r.clusters.persisting.size(), r.clusters.added.size());
    if (!r.anomalies.added.empty()) {
        m += "\n## New anomalies\n\n| score | operator | track | start | excess | cause |\n|---|---|---|---|---|---|\n";
        for (const auto& d : r.anomalies.added) {
            char s[32];
            std::snprintf(s, sizeof s, "%.1f", d.now.score);
            m += std::string("| ") + s + " | `" + d.name + "` | " + d.now.trackLabel + " | " +
                 std::to_string(d.now.startNs) + " | " + formatDuration(d.now.excessNs) + " | " +
                 resourceName(d.now.cause) + " |\n";
        }
    }
    if (!r.windows.resolved.empty() || !r.windows.added.empty()) {
        m += "\n## Contention windows\n\n| status | resource | operators |\n|---|---|---|\n";
        for (const auto& d : r.windows.resolved)
            m += std::string("| resolved | ") + resourceName(d.resource) + " | " + d.ops + " |\n";
        for (const auto& d : r.windows.added)
            m += std::string("| new | ") + resourceName(d.resource) + " | " + d.ops + " |\n";
    }
    if (!r.patterns.resolved.empty() || !r.patterns.persisting.empty() || !r.patterns.added.empty()) {
        m += "\n## Contention patterns\n\n| status | operator | beside | cost base | cost new | cause |\n"
             "|---|---|---|---|---|---|\n";
        auto row = [&](const char* status, const PatternDiff& d) {
            const ContentionPattern& p = d.inNew ? d.now : d.base;
            m += std::string("| ") + status + " | `" + d.victim + "` | `" + d.partner + "` | " +
                 (d.inBase ? formatDuration(d.base.costNs) : std::string("-")) + " | " +
                 (d.inNew ? formatDuration(d.now.costNs) : std::string("-")) + " | " + resourceName(p.cause) + " |\n";
        };
        for (const auto& d : r.patterns.resolved) row("resolved", d);
        for (const auto& d : r.patterns.persisting) row("persisting", d);
        for (const auto& d : r.patterns.added) row("new", d);
    }
    writeBreakdownChanges(m, r.breakdowns);
    m += "\n## Operators (largest change in total time first)\n\n| change | operator | count | mean base | mean new | "
         "anomalies |\n|---|---|---|---|---|---|\n";
    std::size_t shown = 0;
    for (const auto& d : r.operators) {
        if (shown++ == 25) break;
        auto mean = [](const SignatureStats& s) { return formatDuration(static_cast<TimeNs>(std::llround(s.meanNs))); };
        m += std::string("| ") + opChangeSymbol(d.change) + (d.inBase && d.inNew ? " " + pct(d.meanChange) : "") +
             " | `" + d.signature + "` | " + (d.inBase ? std::to_string(d.base.count) : "-") + " -> " +
             (d.inNew ? std::to_string(d.now.count) : "-") + " | " + (d.inBase ? mean(d.base) : "-") + " | " +
             (d.inNew ? mean(d.now) : "-") + " | " + (d.inBase ? std::to_string(d.base.anomalies) : "-") + " -> " +
             (d.inNew ? std::to_string(d.now.anomalies) : "-") + " |\n";
    }
    return m;
}

nlohmann::json trendToJson(const Trend& t) {
    json j;
    j["schema"] = "contend.trend/1";
    j["producer"] = producerJson();
    json runs = json::array();
    for (const auto& r : t.runs)
        runs.push_back({{"path", r.path},
                        {"end_to_end_ns", r.endToEndNs},
                        {"anomalies", r.anomalies},
                        {"windows", r.windows},
                        {"clusters", r.clusters},
                        {"extra_wait_ns", r.extraWaitNs},
                        {"bottleneck", {{"resource", resourceName(r.bottleneck)}, {"share", r.bottleneckShare}}}});
    j["runs"] = runs;
    json sigs = json::array();
    for (const auto& s : t.signatures) {
        json scores = json::array();
        for (double v : s.maxScore) scores.push_back(std::isnan(v) ? json(nullptr) : json(v));
        sigs.push_back({{"signature", s.signature}, {"max_score", scores}});
    }
    j["signatures"] = sigs;
    return j;
}

std::string trendToText(const Trend& t) {
    std::string s = "run  end-to-end    anomalies windows clusters  bottleneck\n";
    for (std::size_t k = 0; k < t.runs.size(); ++k) {
        const auto& r = t.runs[k];
        char line[256];
        std::snprintf(line, sizeof line, "%-4zu %-13s %9zu %7zu %8zu  %s %.0f%%   %s\n", k + 1,
                      formatDuration(r.endToEndNs).c_str(), r.anomalies, r.windows, r.clusters,
                      resourceName(r.bottleneck), r.bottleneckShare * 100, r.path.c_str());
        s += line;
    }
    if (!t.signatures.empty()) {
        s += "\nhighest anomaly score per run:\n";
        for (const auto& sig : t.signatures) {
            s += "  ";
            for (double v : sig.maxScore) {
                char b[32];
                if (std::isnan(v))
                    std::snprintf(b, sizeof b, "%7s", "-");
                else
                    std::snprintf(b, sizeof b, "%7.1f", v);
                s += b;
            }
            s += "  " + sig.signature + "\n";
        }
    }
    return s;
}

}  // namespace contend
