#include "core/analysis/inputs/resource_timeline.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <numeric>
#include <string>

namespace contend {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

namespace {
TimeNs medianGap(const std::vector<TimeNs>& times) {
    std::vector<TimeNs> gaps;
    gaps.reserve(times.size());
    for (std::size_t k = 1; k < times.size(); ++k)
        if (times[k] > times[k - 1]) gaps.push_back(times[k] - times[k - 1]);
    if (gaps.empty()) return 0;
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
    return gaps[gaps.size() / 2];
}
}  // namespace

ResourceTimeline::ResourceTimeline(std::vector<TimeNs> times, std::vector<float> values, TimeNs end, double high,
                                   TimeNs spacing)
    : m_times(std::move(times)), m_values(std::move(values)), m_threshold(high) {
    const std::size_t n = m_times.size();
    m_end = n ? std::max(end, m_times.back()) : end;
    m_integral.assign(n, 0.0);
    m_highAt.assign(n, 0);
    for (std::size_t k = 1; k < n; ++k) {
        const TimeNs dt = m_times[k] - m_times[k - 1];
        m_integral[k] = m_integral[k - 1] + static_cast<double>(m_values[k - 1]) * static_cast<double>(dt);
        m_highAt[k] = m_highAt[k - 1] + (m_values[k - 1] >= m_threshold ? dt : 0);
    }
    m_spacing = spacing >= 0 ? spacing : medianGap(m_times);
    m_tree.assign(2 * n, 0.0f);
    for (std::size_t k = 0; k < n; ++k) m_tree[n + k] = m_values[k];
    for (std::size_t k = n - 1; k >= 1 && n > 1; --k) m_tree[k] = std::max(m_tree[2 * k], m_tree[2 * k + 1]);
    for (float v : m_values) m_capacity = std::max(m_capacity, static_cast<double>(v));
}

TimeNs ResourceTimeline::clampT(TimeNs t) const { return std::clamp(t, m_times.front(), m_end); }

double ResourceTimeline::integral(TimeNs t) const {
    t = clampT(t);
    const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin()) - 1;
    return m_integral[k] + static_cast<double>(m_values[k]) * static_cast<double>(t - m_times[k]);
}

TimeNs ResourceTimeline::highPrefix(TimeNs t) const {
    t = clampT(t);
    const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin()) - 1;
    return m_highAt[k] + (m_values[k] >= m_threshold ? t - m_times[k] : 0);
}

std::size_t ResourceTimeline::segmentOf(TimeNs t) const {
    return static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin()) - 1;
}

ResourceTimeline::Stats ResourceTimeline::stats(TimeNs a, TimeNs b) const {
    std::size_t hint = 0;
    return stats(a, b, hint);
}

ResourceTimeline::Stats ResourceTimeline::stats(TimeNs a, TimeNs b, std::size_t& hint) const {
    if (empty() || b <= a) return {empty() || b < a ? kNaN : at(a), 0};
    const TimeNs ca = clampT(a), cb = clampT(b);
    if (cb <= ca) return {kNaN, 0};
    std::size_t ka;
    if (hint < m_times.size() && m_times[hint] <= ca) {
        // Gallop forward from the hint, then bisect the last stride.
        std::size_t lo = hint, step = 1;
        while (lo + step < m_times.size() && m_times[lo + step] <= ca) {
            lo += step;
            step *= 2;
        }
        const std::size_t hi = std::min(m_times.size(), lo + step);
        ka = static_cast<std::size_t>(std::upper_bound(m_times.begin() + static_cast<std::ptrdiff_t>(lo),
                                                       m_times.begin() + static_cast<std::ptrdiff_t>(hi), ca) -
                                      m_times.begin()) -
             1;
    } else {
        ka = segmentOf(ca);
    }
    hint = ka;
    // The end is usually a few samples after the start: gallop from ka before bisecting.
    std::size_t kb = ka;
    while (kb + 1 < m_times.size() && m_times[kb + 1] <= cb && kb < ka + 8) ++kb;
    if (kb + 1 < m_times.size() && m_times[kb + 1] <= cb) kb = segmentOf(cb);
    auto integralAt = [&](std::size_t k, TimeNs t) {
        return m_integral[k] + static_cast<double>(m_values[k]) * static_cast<double>(t - m_times[k]);
    };
    auto highAt = [&](std::size_t k, TimeNs t) {
        return m_highAt[k] + (m_values[k] >= m_threshold ? t - m_times[k] : 0);
    };
    return {(integralAt(kb, cb) - integralAt(ka, ca)) / static_cast<double>(cb - ca), highAt(kb, cb) - highAt(ka, ca)};
}

double ResourceTimeline::mean(TimeNs a, TimeNs b) const {
    if (empty() || b <= a) return empty() || b < a ? kNaN : at(a);
    const TimeNs ca = clampT(a), cb = clampT(b);
    if (cb <= ca) return kNaN;
    return (integral(cb) - integral(ca)) / static_cast<double>(cb - ca);
}

TimeNs ResourceTimeline::highTime(TimeNs a, TimeNs b) const {
    if (empty() || b <= a) return 0;
    return highPrefix(b) - highPrefix(a);
}

double ResourceTimeline::at(TimeNs t) const {
    if (empty() || t < m_times.front()) return kNaN;
    const auto k = static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin()) - 1;
    return m_values[k];
}

ResourceTimeline::Bounded ResourceTimeline::bounded(TimeNs a, TimeNs b) const {
    Bounded r;
    if (empty() || b <= a) return r;
    const TimeNs ca = clampT(a), cb = clampT(b);
    if (cb <= ca) return r;
    double lo = 0, hi = 0;
    for (std::size_t k = segmentOf(ca); k < m_times.size() && m_times[k] < cb; ++k) {
        const TimeNs s = m_times[k], e = k + 1 < m_times.size() ? m_times[k + 1] : m_end;
        const TimeNs part = std::min(cb, e) - std::max(ca, s);
        if (part <= 0 || e <= s) continue;
        const double f = static_cast<double>(part) / static_cast<double>(e - s);
        const double m = m_values[k];
        const double klo = std::clamp((m - (1 - f) * m_capacity) / f, 0.0, m_capacity);
        const double khi = std::clamp(m / f, 0.0, m_capacity);
        ++r.samples;
        if (part < e - s) r.partial = true;
        lo += klo * static_cast<double>(part);
        hi += khi * static_cast<double>(part);
        r.covered += part;
        if (klo >= m_threshold) {
            r.high += part;
            ++r.highSamples;
        }
    }
    if (r.covered > 0) {
        r.lo = lo / static_cast<double>(r.covered);
        r.hi = hi / static_cast<double>(r.covered);
    }
    return r;
}

double ResourceTimeline::peak(TimeNs a, TimeNs b) const {
    if (empty() || b <= m_times.front() || a >= m_end) return kNaN;
    const std::size_t n = m_times.size();
    auto seg = [&](TimeNs t) {
        return static_cast<std::size_t>(std::upper_bound(m_times.begin(), m_times.end(), t) - m_times.begin()) - 1;
    };
    std::size_t lo = a <= m_times.front() ? 0 : seg(a);
    std::size_t hi = seg(std::max(a, b - 1)) + 1;  // exclusive
    float best = -std::numeric_limits<float>::infinity();
    for (lo += n, hi += n; lo < hi; lo >>= 1, hi >>= 1) {
        if (lo & 1) best = std::max(best, m_tree[lo++]);
        if (hi & 1) best = std::max(best, m_tree[--hi]);
    }
    return best;
}

double ResourceTimeline::quantile(double q) const {
    if (empty()) return kNaN;
    // A time-weighted histogram of the values (0..1 here, clamped) in 4096 bins: linear, and
    // finer than any counter's precision.
    constexpr std::size_t kBins = 4096;
    std::vector<double> weight(kBins, 0.0);
    const std::size_t n = m_times.size();
    double total = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const auto w = static_cast<double>((k + 1 < n ? m_times[k + 1] : m_end) - m_times[k]);
        const auto bin = static_cast<std::size_t>(std::clamp(static_cast<double>(m_values[k]), 0.0, 1.0) * (kBins - 1));
        weight[bin] += w;
        total += w;
    }
    if (total <= 0) return m_values[(n - 1) / 2];
    double acc = 0;
    for (std::size_t bin = 0; bin < kBins; ++bin) {
        acc += weight[bin];
        if (acc >= q * total) return static_cast<double>(bin) / (kBins - 1);
    }
    return 1.0;
}

bool ResourceTimelines::any() const {
    return std::any_of(std::begin(pressure), std::end(pressure), [](const ResourceTimeline& t) { return !t.empty(); });
}

double ResourceTimelines::highShare(Resource r, TimeNs a, TimeNs b) const {
    if (b <= a || pressureIndex(r) < 0) return std::numeric_limits<double>::quiet_NaN();
    const ResourceTimeline& t = of(r);
    if (t.empty()) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(t.highTime(a, b)) / static_cast<double>(b - a);
}

namespace {

enum class Combine { Max, Mean };

// Merges the given series (each value times its scale) into one step function.
struct Combined {
    std::vector<TimeNs> times;
    std::vector<float> values;
    TimeNs spacing = 0;  // median gap between the raw sample times
};

// Two directions of one bus, each a percent of the same peak (Nsight's "DRAM Read Bandwidth" and
// "DRAM Write Bandwidth [Throughput %]"): the bus carries their sum. Series of one resource and
// process whose names differ only by "read" / "write" get one group id and are summed before the
// maximum over groups; every other series is a group of its own. Throughput series are left
// alone (each is scaled by its own peak, so their sum is not a share of one capacity).
std::vector<int> directionGroups(const Trace& trace, const std::vector<const CounterMapping*>& maps) {
    std::vector<int> group(maps.size());
    std::vector<std::string> keys(maps.size());
    for (std::size_t j = 0; j < maps.size(); ++j) {
        group[j] = static_cast<int>(j);
        if (maps[j]->kind != CounterKind::Utilization) continue;
        const CounterSeries& c = trace.counters()[maps[j]->series];
        std::string n;
        for (char ch : c.name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
        bool direction = false;
        for (const char* word : {"read", "write"}) {
            const auto at = n.find(word);
            if (at == std::string::npos) continue;
            n.erase(at, std::char_traits<char>::length(word));
            direction = true;
        }
        if (!direction) continue;
        keys[j] = c.pid + '\n' + n + '\n' + c.key;
        for (std::size_t i = 0; i < j; ++i)
            if (keys[i] == keys[j]) {
                group[j] = group[i];
                break;
            }
    }
    return group;
}

Combined combine(const Trace& trace, const std::vector<const CounterMapping*>& maps, Combine how) {
    if (maps.size() == 1) {
        // One series: already in time order; scale, clamp and drop repeated values.
        const CounterMapping& m = *maps[0];
        const CounterSeries& c = trace.counters()[m.series];
        Combined out;
        out.spacing = medianGap(c.times);
        for (std::size_t k = 0; k < c.times.size(); ++k) {
            const double v = c.values[k] * m.scale;
            if (!std::isfinite(v)) continue;
            const auto value = static_cast<float>(std::clamp(v, 0.0, 1.0));
            if (!out.values.empty() && (out.values.back() == value || out.times.back() == c.times[k])) {
                if (out.times.back() == c.times[k]) out.values.back() = value;  // same instant: last wins
                continue;
            }
            out.times.push_back(c.times[k]);
            out.values.push_back(value);
        }
        return out;
    }
    struct Ev {
        TimeNs t;
        std::uint32_t series;  // index into maps
        std::uint32_t sample;
    };
    std::vector<Ev> evs;
    for (std::uint32_t j = 0; j < maps.size(); ++j) {
        const CounterSeries& c = trace.counters()[maps[j]->series];
        for (std::uint32_t k = 0; k < c.times.size(); ++k) evs.push_back({c.times[k], j, k});
    }
    // One series is already in time order; several are merged by a stable sort.
    auto byTime = [](const Ev& x, const Ev& y) { return x.t < y.t; };
    if (!std::is_sorted(evs.begin(), evs.end(), byTime)) std::stable_sort(evs.begin(), evs.end(), byTime);
    const std::vector<int> group = directionGroups(trace, maps);
    std::vector<double> cur(maps.size(), kNaN);
    std::vector<double> groupSum(maps.size());
    std::vector<TimeNs> raw;
    raw.reserve(evs.size());
    for (const Ev& e : evs) raw.push_back(e.t);
    Combined out;
    out.spacing = medianGap(raw);
    std::vector<TimeNs>& times = out.times;
    std::vector<float>& values = out.values;
    for (std::size_t i = 0; i < evs.size();) {
        const TimeNs t = evs[i].t;
        for (; i < evs.size() && evs[i].t == t; ++i) {
            const CounterMapping& m = *maps[evs[i].series];
            double v = trace.counters()[m.series].values[evs[i].sample] * m.scale;
            cur[evs[i].series] = std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : kNaN;
        }
        double acc = how == Combine::Max ? -1.0 : 0.0;
        int known = 0;
        std::fill(groupSum.begin(), groupSum.end(), 0.0);
        for (std::size_t j = 0; j < cur.size(); ++j) {
            const double v = cur[j];
            if (std::isnan(v)) continue;
            ++known;
            if (how == Combine::Mean) {
                acc += v;
                continue;
            }
            double& g = groupSum[static_cast<std::size_t>(group[j])];
            g = std::min(1.0, g + v);
            acc = std::max(acc, g);
        }
        if (known == 0) continue;
        const float value = static_cast<float>(how == Combine::Max ? acc : acc / known);
        if (!values.empty() && values.back() == value) continue;  // same step, fewer samples
        times.push_back(t);
        values.push_back(value);
    }
    return out;
}

}  // namespace

ResourceTimelines buildTimelines(const Trace& trace, const ResourceMap& map) {
    ResourceTimelines out;
    const TimeNs end = trace.end();
    for (std::size_t p = 0; p < kPressureResources; ++p) {
        const Resource r = kPressureResource[p];
        std::vector<const CounterMapping*> hits, plain;
        for (const auto& m : map.counters) {
            if (m.resource != r) continue;
            (m.kind == CounterKind::HitRate ? hits : plain).push_back(&m);
        }
        if (r == Resource::Cache && !hits.empty()) {
            Combined c = combine(trace, hits, Combine::Mean);
            out.hitRate = ResourceTimeline(c.times, c.values, end, 1.0, c.spacing);
            out.healthyHitRate = out.hitRate.quantile(0.90);
            const double ref = out.healthyHitRate;
            for (float& x : c.values) x = ref > 0 ? static_cast<float>(std::clamp(1.0 - x / ref, 0.0, 1.0)) : 0.0f;
            out.pressure[p] =
                ResourceTimeline(std::move(c.times), std::move(c.values), end, kHighCachePressure, c.spacing);
            continue;
        }
        plain.insert(plain.end(), hits.begin(), hits.end());  // hit rates for non-cache: treat as plain
        if (plain.empty()) continue;
        Combined c = combine(trace, plain, Combine::Max);
        out.pressure[p] = ResourceTimeline(std::move(c.times), std::move(c.values), end, kHighUtilization, c.spacing);
    }
    return out;
}

}  // namespace contend
