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

QueueSeries seriesOf(std::vector<std::pair<TimeNs, int>>& events, Ties ties) {
    if (ties == Ties::DecreaseFirst)
        std::sort(events.begin(), events.end());
    else
        std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
    QueueSeries s;
    s.times.reserve(events.size());
    s.lengths.reserve(events.size());
    std::int32_t len = 0;
    for (const auto& [t, d] : events) {
        len += d;
        s.times.push_back(t);
        s.lengths.push_back(len);
    }
    return s;
}

// The summary of one stream's series over a range: every sample in it counts once; the time at
// a full queue is clipped to the range (the length in effect when it begins counts from there).
// Samples: [k0, k1), at least one.
StreamQueue summarise(const QueueSeries& s, std::size_t k0, std::size_t k1, const TimeRange& range) {
    StreamQueue q;
    std::vector<std::uint64_t> hist;
    double sum = 0;
    for (std::size_t k = k0; k < k1; ++k) {
        const std::int64_t len = s.lengths[k];
        // A start before its launch (clock skew between host and device) would go below zero;
        // HTA keeps the negative sample, and so do the statistics here but the histogram.
        const auto v = static_cast<std::size_t>(std::max<std::int64_t>(len, 0));
        if (hist.size() <= v) hist.resize(v + 1, 0);
        ++hist[v];
        sum += static_cast<double>(len);
        q.max = k == k0 ? len : std::max(q.max, len);
    }
    // Each step [times[k], times[k + 1]) that may reach into the range, the one in effect at its
    // start included; the last sample starts no step.
    const std::size_t n = s.lengths.size();
    for (std::size_t k = k0 > 0 ? k0 - 1 : 0; k < std::min(k1, n - 1); ++k)
        if (s.lengths[k] >= kFullQueue) q.blockedOnFullQueueNs += range.inside(s.times[k], s.times[k + 1]);
    q.samples = k1 - k0;
    q.mean = sum / static_cast<double>(q.samples);
    q.p25 = histQuantile(hist, q.samples, 0.25);
    q.p50 = histQuantile(hist, q.samples, 0.50);
    q.p75 = histQuantile(hist, q.samples, 0.75);
    return q;
}

}  // namespace

std::vector<QueueSeries> queueLengthSeries(const Trace& trace, const Scope& scope, Ties ties) {
    std::vector<QueueSeries> out;
    const std::vector<Slice>& slices = trace.slices();
    std::vector<std::pair<TimeNs, int>> events;
    for (const Scope::Stream& st : scope.streams) {
        events.clear();
        for (std::uint32_t i : st.ops) {
            const std::uint32_t launch = scope.enqueueCallOf(i);
            if (launch == kNone) continue;
            events.emplace_back(slices[launch].start, +1);
            events.emplace_back(slices[i].start, -1);
        }
        if (events.empty()) continue;
        QueueSeries s = seriesOf(events, ties);
        s.stream = st.stream;
        s.track = slices[st.ops.front()].track;
        s.firstStart = slices[st.ops.front()].start;
        for (std::uint32_t i : st.ops) s.lastEnd = std::max(s.lastEnd, slices[i].start + slices[i].dur);
        out.push_back(std::move(s));
    }
    return out;
}

const QueueSeries* seriesOfStream(const std::vector<QueueSeries>& all, std::int32_t stream) {
    for (const QueueSeries& s : all)
        if (s.stream == stream) return &s;
    return nullptr;
}

std::int32_t queueLengthAt(const QueueSeries& s, TimeNs t) {
    const auto it = std::upper_bound(s.times.begin(), s.times.end(), t);
    return it == s.times.begin() ? 0 : s.lengths[static_cast<std::size_t>(it - s.times.begin()) - 1];
}

std::int32_t queueLengthMedianOver(const QueueSeries& s, TimeNs t0, TimeNs t1) {
    if (t1 <= t0) return queueLengthAt(s, t0);
    // Each length in effect over [t0, t1) with how long it lasted.
    std::vector<std::pair<std::int32_t, TimeNs>> held;
    auto k = static_cast<std::size_t>(std::upper_bound(s.times.begin(), s.times.end(), t0) - s.times.begin());
    TimeNs from = t0;
    std::int32_t len = k == 0 ? 0 : s.lengths[k - 1];
    for (; k < s.times.size() && s.times[k] < t1; ++k) {
        held.emplace_back(len, s.times[k] - from);
        from = s.times[k];
        len = s.lengths[k];
    }
    held.emplace_back(len, t1 - from);
    std::sort(held.begin(), held.end());
    TimeNs seen = 0;
    for (const auto& [l, d] : held) {
        seen += d;
        if (2 * seen >= t1 - t0) return l;
    }
    return held.back().first;
}

BreakdownSection<StreamQueue> queueLength(const Trace& trace, const Scope& scope, Ties ties) {
    return queueLength(trace, queueLengthSeries(trace, scope, ties));
}

BreakdownSection<StreamQueue> queueLength(const Trace& trace, const std::vector<QueueSeries>& all,
                                          const TimeRange& range) {
    BreakdownSection<StreamQueue> out;
    for (const QueueSeries& series : all) {
        const auto& t = series.times;
        const auto k0 = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), range.begin) - t.begin());
        const auto k1 = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), range.end) - t.begin());
        if (k1 <= k0) continue;  // no sample in the range
        StreamQueue q = summarise(series, k0, k1, range);
        q.stream = series.stream;
        q.rank = trace.rank();
        out.rows.push_back(q);
    }
    if (out.rows.empty())
        out.notComputed = all.empty() ? "no device operation is linked to the host call that enqueued it "
                                        "(cudaLaunchKernel, cudaMemcpyAsync, ...)"
                                      : "no operation launched or started in the range";
    return out;
}

}  // namespace contend::breakdowns
