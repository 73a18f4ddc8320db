#include "core/analysis/breakdowns/memory_bandwidth.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "core/analysis/breakdowns/hta_rules.h"

namespace contend::breakdowns {

namespace {

struct Change {
    TimeNs t = 0;
    double gbps = 0;  // + at a start, - at an end
};

// GB/s of one copy; NaN when the trace gives neither its bandwidth nor its bytes.
double copyGbps(const Trace& trace, std::uint32_t i) {
    const float bw = trace.metric(i, kBandwidthArg);
    if (!std::isnan(bw)) return bw;
    const float bytes = trace.metric(i, kBytesArg);
    const TimeNs dur = trace.slices()[i].dur;
    if (std::isnan(bytes) || dur <= 0) return std::nan("");
    return static_cast<double>(bytes) / static_cast<double>(dur);  // bytes per ns = GB/s
}

// HTA's samples of the summed bandwidth, those at a time in the range.
void summarise(std::vector<Change>& changes, Ties ties, const TimeRange& range, CopyBandwidth& row) {
    std::sort(changes.begin(), changes.end(), [ties](const Change& a, const Change& b) {
        if (a.t != b.t) return a.t < b.t;
        const bool aDown = a.gbps < 0, bDown = b.gbps < 0;
        return ties == Ties::DecreaseFirst ? (aDown && !bDown) : (!aDown && bDown);
    });
    std::vector<double> samples;
    double sum = 0;
    std::int64_t running = 0;
    for (const Change& c : changes) {
        sum += c.gbps;
        running += c.gbps < 0 ? -1 : 1;
        if (running == 0) sum = 0;  // no copy runs: exactly zero, not a rounding residue
        if (sum > 0 && range.holds(c.t)) samples.push_back(sum);
    }
    std::sort(samples.begin(), samples.end());
    row.count = samples.size();
    row.meanGbps = mean(samples);
    row.p50Gbps = quantile(samples, 0.5);
    row.maxGbps = samples.empty() ? 0 : samples.back();
}

}  // namespace

BreakdownSection<CopyBandwidth> memoryBandwidth(const Trace& trace, const Scope& scope, Ties ties,
                                                const TimeRange& range) {
    BreakdownSection<CopyBandwidth> out;
    struct Kind {
        std::vector<Change> changes;
        std::vector<double> perCopy;
    };
    std::map<std::string, Kind> kinds;
    bool anyCopy = false;
    for (std::uint32_t i : scope.ops) {
        const Slice& s = trace.slices()[i];
        if (scope.type(s.name) != KernelType::Memory) continue;
        const std::string_view name = trace.str(s.name);
        const bool runs = range.runs(s.start, s.end());
        anyCopy = anyCopy || runs;
        const double gbps = copyGbps(trace, i);
        if (std::isnan(gbps)) continue;
        // Every copy's changes make the running sum; the range picks its samples and its copies.
        Kind& k = kinds[copyKind(name)];
        const TimeNs dur = s.dur > 0 ? s.dur : 1000;  // HTA: a 0 us copy lasts 1 us
        k.changes.push_back({s.start, gbps});
        k.changes.push_back({s.start + dur, -gbps});
        if (runs) k.perCopy.push_back(gbps);
    }
    for (auto& [kind, k] : kinds) {
        if (k.perCopy.empty()) continue;  // none of its copies runs in the range
        CopyBandwidth row;
        row.rank = trace.rank();
        row.kind = kind;
        summarise(k.changes, ties, range, row);
        std::sort(k.perCopy.begin(), k.perCopy.end());
        row.copies = k.perCopy.size();
        row.copyP50Gbps = quantile(k.perCopy, 0.5);
        row.copyMaxGbps = k.perCopy.back();
        row.histogram = copyHistogram(k.perCopy);
        out.rows.push_back(std::move(row));
    }
    if (out.rows.empty())
        out.notComputed = anyCopy ? inRange("no copy or fill carries its bandwidth or byte count", range)
                                  : inRange("no copy or fill (Memcpy*, Memset*) on a stream", range);
    return out;
}

namespace {

double edgeAt(int k) { return std::pow(10.0, static_cast<double>(k) / kBinsPerDecade); }

// The k of the edge at or below x (x > 0), corrected for pow/log rounding at an exact edge.
int edgeBelow(double x) {
    int k = static_cast<int>(std::floor(std::log10(x) * kBinsPerDecade));
    if (edgeAt(k + 1) <= x) ++k;
    if (edgeAt(k) > x) --k;
    return k;
}

}  // namespace

CopyHistogram copyHistogram(const std::vector<double>& sortedGbps) {
    CopyHistogram h;
    if (sortedGbps.empty()) return h;
    const auto firstPositive = std::upper_bound(sortedGbps.begin(), sortedGbps.end(), 0.0);
    if (firstPositive == sortedGbps.end()) {  // every copy at 0 GB/s
        h.edgesGbps = {0.0, 1.0};
        h.counts = {sortedGbps.size()};
        return h;
    }
    const int k0 = edgeBelow(*firstPositive);
    const int k1 = edgeBelow(sortedGbps.back()) + 1;
    for (int k = k0; k <= k1; ++k) h.edgesGbps.push_back(edgeAt(k));
    h.counts.assign(h.edgesGbps.size() - 1, 0);
    for (double g : sortedGbps) ++h.counts[binOf(h, g)];
    return h;
}

std::size_t binOf(const CopyHistogram& h, double gbps) {
    if (h.counts.empty()) return 0;
    // The last edge at or below gbps.
    const auto it = std::upper_bound(h.edgesGbps.begin(), h.edgesGbps.end(), gbps);
    if (it == h.edgesGbps.begin()) return 0;
    return std::min<std::size_t>(static_cast<std::size_t>(it - h.edgesGbps.begin()) - 1, h.counts.size() - 1);
}

std::pair<std::size_t, std::size_t> medianBins(const CopyHistogram& h) {
    const std::uint64_t n = std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0});
    if (n == 0) return {0, 0};
    // The middle copies' ranks (0-based): (n - 1) / 2 and n / 2.
    const std::uint64_t lower = (n - 1) / 2, upper = n / 2;
    std::pair<std::size_t, std::size_t> out{0, 0};
    std::uint64_t before = 0;  // copies in the bins before i
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        if (before <= lower && lower < before + h.counts[i]) out.first = i;
        if (before <= upper && upper < before + h.counts[i]) {
            out.second = i;
            break;
        }
        before += h.counts[i];
    }
    return out;
}

}  // namespace contend::breakdowns
