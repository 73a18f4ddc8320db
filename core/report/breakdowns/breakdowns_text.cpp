#include "core/report/breakdowns/breakdowns_text.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/analysis/breakdowns/figures.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

std::string pct(TimeNs part, TimeNs whole) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return b;
}

std::string real(double v, const char* fmt = "%.4g") {
    char b[32];
    std::snprintf(b, sizeof b, fmt, v);
    return b;
}

std::string rankText(int rank) { return rank >= 0 ? std::to_string(rank) : "?"; }

// A name in a table cell: pipes escaped, long kernel names cut.
std::string cell(std::string s) {
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

void writeNotComputed(std::ostream& o, const TraceBreakdowns& b) {
    for (const auto& [name, why] : b.reasons())
        if (!why->empty()) o << "- " << name << ": not computed: " << *why << "\n";
}

}  // namespace

void writeBreakdownsMarkdown(std::ostream& o, const TraceBreakdowns& b) {
    if (b.empty() || b.deviceOps == 0) return;  // an old report, or nothing on a device to break down
    o << "## Breakdowns (HTA's figures)\n\nOver " << b.inScope << " of " << b.deviceOps
      << " device operations: " << b.scope << ".\n\n";
    for (const RankTemporal& t : b.temporal.rows)
        o << "- rank " << rankText(t.rank) << ": idle " << pct(t.idleNs, t.kernelNs) << ", compute "
          << pct(t.computeNs, t.kernelNs) << ", non-compute " << pct(t.nonComputeNs, t.kernelNs) << " of "
          << formatDuration(t.kernelNs) << " kernel time\n";
    for (const RankOverlap& v : b.commCompOverlap.rows)
        o << "- rank " << rankText(v.rank) << ": " << real(100.0 * v.fraction, "%.2f")
          << "% of communication overlaps compute\n";
    if (!b.idle.rows.empty() || !b.queueLength.rows.empty()) {
        o << "\n| stream | host wait | kernel wait | other | queue mean | queue p50 | queue max |\n"
             "|---|---|---|---|---|---|---|\n";
        std::vector<std::int32_t> streams;
        for (const StreamIdle& s : b.idle.rows) streams.push_back(s.stream);
        for (const StreamQueue& q : b.queueLength.rows) streams.push_back(q.stream);
        std::sort(streams.begin(), streams.end());
        streams.erase(std::unique(streams.begin(), streams.end()), streams.end());
        for (std::int32_t st : streams) {
            o << "| " << st;
            const auto idle = std::find_if(b.idle.rows.begin(), b.idle.rows.end(),
                                           [st](const StreamIdle& s) { return s.stream == st; });
            if (idle != b.idle.rows.end())
                o << " | " << formatDuration(idle->hostWaitNs) << " | " << formatDuration(idle->kernelWaitNs) << " | "
                  << formatDuration(idle->otherNs);
            else
                o << " | | | ";
            const auto q = std::find_if(b.queueLength.rows.begin(), b.queueLength.rows.end(),
                                        [st](const StreamQueue& x) { return x.stream == st; });
            if (q != b.queueLength.rows.end())
                o << " | " << real(q->mean, "%.2f") << " | " << real(q->p50, "%g") << " | " << q->max << " |\n";
            else
                o << " | | | |\n";
        }
    }
    if (!b.memoryBandwidth.rows.empty()) {
        o << "\n| copy kind | HTA samples | HTA p50 GB/s | HTA max GB/s | copies | per copy p50 GB/s |\n"
             "|---|---|---|---|---|---|\n";
        for (const CopyBandwidth& c : b.memoryBandwidth.rows)
            o << "| " << c.kind << " | " << c.count << " | " << real(c.p50Gbps) << " | " << real(c.maxGbps) << " | "
              << c.copies << " | " << real(c.copyP50Gbps) << " |\n";
    }
    if (!b.launch.rows.empty()) {
        o << "\n| kernel | runs | launch p50 | GPU p50 | delay p50 | delay p95 | shorter than launch |\n"
             "|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < b.launch.rows.size() && i < 10; ++i) {
            const KernelLaunch& k = b.launch.rows[i];
            o << "| " << cell(k.name) << " | " << k.runs << " | " << formatDuration(static_cast<TimeNs>(k.cpuP50Ns))
              << " | " << formatDuration(static_cast<TimeNs>(k.gpuP50Ns)) << " | "
              << formatDuration(static_cast<TimeNs>(k.delayP50Ns)) << " | "
              << formatDuration(static_cast<TimeNs>(k.delayP95Ns)) << " | " << k.shorterThanLaunch << " |\n";
        }
    }
    if (!b.annotations.rows.empty()) {
        o << "\n| annotation | kernels | device time |\n|---|---|---|\n";
        for (std::size_t i = 0; i < b.annotations.rows.size() && i < 10; ++i) {
            const AnnotationTime& a = b.annotations.rows[i];
            o << "| " << cell(a.name) << " | " << a.kernels << " | " << formatDuration(a.kernelNs) << " |\n";
        }
    }
    o << "\n";
    writeNotComputed(o, b);
}

std::vector<std::vector<std::string>> breakdownsCsvRows(const TraceBreakdowns& b) {
    std::vector<std::vector<std::string>> rows = {{"section", "rank", "subject", "figure", "value", "note"}};
    for (const BreakdownFigure& f : breakdownFigures(b))
        rows.push_back(
            {f.section, f.rank >= 0 ? std::to_string(f.rank) : "", f.subject, f.figure, real(f.value, "%.10g"), ""});
    for (const auto& [section, why] : b.reasons())
        if (!why->empty()) rows.push_back({section, "", "", "not_computed", "", *why});
    return rows;
}

}  // namespace contend
