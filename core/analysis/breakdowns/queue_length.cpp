#include "core/analysis/breakdowns/queue_length.h"

#include <algorithm>
#include <utility>

#include "core/analysis/breakdowns/hta_rules.h"

namespace contend::breakdowns {

namespace {

// The k-th smallest (0-based) sample from a histogram of sample values.
double kth(const std::vector<std::uint64_t>& hist, std::uint64_t k) {
    std::uint64_t seen = 0;
    for (std::size_t v = 0; v < hist.size(); ++v) {
        seen += hist[v];
        if (seen > k) return static_cast<double>(v);
    }
    return hist.empty() ? 0.0 : static_cast<double>(hist.size() - 1);
}

// describe()'s quantile of the samples counted in `hist`.
double histQuantile(const std::vector<std::uint64_t>& hist, std::uint64_t n, double q) {
    const double pos = q * static_cast<double>(n - 1);
    const auto lo = static_cast<std::uint64_t>(pos);
    const double a = kth(hist, lo);
    const double b = lo + 1 < n ? kth(hist, lo + 1) : a;
    return a + (b - a) * (pos - static_cast<double>(lo));
}

StreamQueue summarise(std::vector<std::pair<TimeNs, int>>& events, Ties ties) {
    if (ties == Ties::DecreaseFirst)
        std::sort(events.begin(), events.end());
    else
        std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
    StreamQueue q;
    std::vector<std::uint64_t> hist;
    std::int64_t len = 0;
    double sum = 0;
    for (std::size_t k = 0; k < events.size(); ++k) {
        len += events[k].second;
        // A start before its launch (clock skew between host and device) would go below zero;
        // HTA keeps the negative sample, and so do the statistics here but the histogram.
        const auto v = static_cast<std::size_t>(std::max<std::int64_t>(len, 0));
        if (hist.size() <= v) hist.resize(v + 1, 0);
        ++hist[v];
        sum += static_cast<double>(len);
        q.max = k == 0 ? len : std::max(q.max, len);
        if (len >= kFullQueue && k + 1 < events.size()) q.blockedOnFullQueueNs += events[k + 1].first - events[k].first;
    }
    q.samples = events.size();
    q.mean = sum / static_cast<double>(q.samples);
    q.p25 = histQuantile(hist, q.samples, 0.25);
    q.p50 = histQuantile(hist, q.samples, 0.50);
    q.p75 = histQuantile(hist, q.samples, 0.75);
    return q;
}

}  // namespace

BreakdownSection<StreamQueue> queueLength(const Trace& trace, const Scope& scope, Ties ties) {
    BreakdownSection<StreamQueue> out;
    const std::vector<Slice>& slices = trace.slices();
    for (const Scope::Stream& st : scope.streams) {
        std::vector<std::pair<TimeNs, int>> events;
        for (std::uint32_t i : st.ops) {
            const std::uint32_t launch = scope.enqueueCallOf(i);
            if (launch == kNone) continue;
            const Slice& l = slices[launch];
            events.emplace_back(l.start, +1);
            events.emplace_back(slices[i].start, -1);
        }
        if (events.empty()) continue;
        StreamQueue q = summarise(events, ties);
        q.rank = trace.rank();
        q.stream = st.stream;
        out.rows.push_back(q);
    }
    if (out.rows.empty())
        out.notComputed =
            "no device operation is linked to the host call that enqueued it (cudaLaunchKernel, "
            "cudaMemcpyAsync, ...)";
    return out;
}

}  // namespace contend::breakdowns
