#include "core/analysis/scoring/pressure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>

#include "core/analysis/scoring/baseline.h"

namespace contend {

namespace {
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();

// Nearest-rank quantile of the finite values in v (reordered); NaN when none.
float finiteQuantile(std::vector<float>& v, double q) {
    v.erase(std::remove_if(v.begin(), v.end(), [](float x) { return !std::isfinite(x); }), v.end());
    if (v.empty()) return kNaNf;
    auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    k = k == 0 ? 0 : k - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// The pieces of an op's run with a constant set of other-track operators beside it.
struct Piece {
    TimeNs a, b;
    std::size_t partnersBegin, partnersEnd;  // into the scratch partner list
};

class Segmenter {
  public:
    // Cuts op's interval at its partners' boundaries. Results stay valid until the next call.
    void cut(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap, std::uint32_t op) {
        const auto& slices = trace.slices();
        const Slice& s = slices[ops.slices[op]];
        m_events.clear();
        for (std::uint32_t k = overlap.pairBegin[op]; k < overlap.pairBegin[op + 1]; ++k) {
            const std::uint32_t other = overlap.partnerOf[k];
            const auto [start, end] = pairSpan(trace, ops, op, other);
            m_events.push_back({start, other, true});
            m_events.push_back({end, other, false});
        }
        std::sort(m_events.begin(), m_events.end(), [](const Ev& x, const Ev& y) {
            return x.t != y.t ? x.t < y.t : (!x.open && y.open);  // close before open
        });
        pieces.clear();
        partners.clear();
        m_active.clear();
        TimeNs t = s.start;
        std::size_t e = 0;
        while (t < s.end()) {
            while (e < m_events.size() && m_events[e].t <= t) {
                const Ev& ev = m_events[e++];
                if (ev.open)
                    m_active.push_back(ev.op);
                else if (auto it = std::find(m_active.begin(), m_active.end(), ev.op); it != m_active.end())
                    m_active.erase(it);
            }
            const TimeNs next = e < m_events.size() ? std::min(m_events[e].t, s.end()) : s.end();
            if (next > t) {
                const std::size_t pb = partners.size();
                partners.insert(partners.end(), m_active.begin(), m_active.end());
                pieces.push_back({t, next, pb, partners.size()});
            }
            t = next;
        }
    }
    std::vector<Piece> pieces;
    std::vector<std::uint32_t> partners;

  private:
    struct Ev {
        TimeNs t;
        std::uint32_t op;
        bool open;
    };
    std::vector<Ev> m_events;
    std::vector<std::uint32_t> m_active;
};

}  // namespace

float copyBandwidthShare(const Trace& trace, std::uint32_t slice) {
    const Slice& s = trace.slices()[slice];
    if (!s.is(kSliceMemory) || s.dur <= 0 || trace.source().devices.empty()) return kNaNf;
    const SliceInfo& info = trace.infos()[slice];
    const Source::Device* dev = trace.source().device(info.device);
    if (!dev || dev->memoryBandwidth <= 0) return kNaNf;
    const std::string_view name = trace.str(s.name);
    // A device-to-device copy reads and writes its bytes; a memset writes them. Copies to or
    // from the host are held by the host link, not the device's memory.
    const double passes = name.rfind("Memcpy DtoD", 0) == 0 ? 2.0 : name.rfind("Memset", 0) == 0 ? 1.0 : 0.0;
    if (passes == 0) return kNaNf;
    for (std::uint32_t k = 0; k < info.metricsCount; ++k) {
        const Metric& m = trace.metrics()[info.metricsBegin + k];
        if (trace.str(m.key) != "bytes" || !std::isfinite(m.value) || m.value <= 0) continue;
        const double perSecond = passes * static_cast<double>(m.value) * 1e9 / static_cast<double>(s.dur);
        return static_cast<float>(std::clamp(perSecond / dev->memoryBandwidth, 0.0, 1.0));
    }
    return kNaNf;
}

PressureResult computePressure(const Trace& trace, const OperatorSet& ops, const ResourceMap& map,
                               const ResourceTimelines& timelines, const OverlapResult& overlap,
                               const std::function<bool()>& keepGoing) {
    auto stop = [&](std::uint32_t op) { return (op & 0xFFFF) == 0xFFFF && keepGoing && !keepGoing(); };
    PressureResult r;
    const std::size_t n = ops.size();
    PressureArray nan;
    nan.fill(kNaNf);
    for (std::size_t p = 0; p < kPressureResources; ++p) r.haveCounters[p] = !timelines.pressure[p].empty();
    const bool anyCounters = timelines.any();
    // The per-op arrays exist only where something fills them (pressure.h): all NaN, they were
    // 100 bytes an operator (1 GB of fresh pages at 10M Kineto kernels) for nothing.
    if (anyCounters) {
        r.mean.assign(n, nan);
        r.highFrac.assign(n, nan);
        if (!timelines.hitRate.empty()) r.hitRate.assign(n, kNaNf);
    }
    auto metricOfOp = [&](std::uint32_t op) -> PressureArray& {
        if (r.metric.empty()) r.metric.assign(n, nan);
        return r.metric[op];
    };

    std::unordered_map<StringId, const MetricMapping*> metricOf;
    for (const auto& m : map.metrics) metricOf.emplace(m.key, &m);

    const auto& slices = trace.slices();
    const auto& infos = trace.infos();
    const auto& metrics = trace.metrics();
    // Step 1 inputs, gathered in the per-op pass below (ops are in memory order there; by
    // signature they are scattered): per signature, the counter's mean over the exclusive part
    // of each occurrence that ran alone long enough, and the time-weighted sums over all.
    const std::size_t sigs = ops.signatures.size();
    struct AloneStats {
        std::array<std::vector<float>, kPressureResources> means;
        std::array<double, kPressureResources> wsum{}, w{};
        double total = 0;
    };
    std::vector<AloneStats> aloneStats(anyCounters ? sigs : 0);
    Segmenter seg;
    std::array<std::size_t, kPressureResources> hint{};  // per resource: last sample index
    for (std::uint32_t op = 0; op < n; ++op) {
        if (stop(op)) return r;
        const Slice& s = slices[ops.slices[op]];
        const TimeNs a = s.start, b = s.end();
        if (anyCounters) {
            seg.cut(trace, ops, overlap, op);
            TimeNs alone = 0;
            std::array<double, kPressureResources> integral{};
            for (const Piece& pc : seg.pieces) {
                if (pc.partnersBegin != pc.partnersEnd) continue;
                alone += pc.b - pc.a;
                for (std::size_t p = 0; p < kPressureResources; ++p) {
                    const ResourceTimeline& tl = timelines.pressure[p];
                    if (tl.empty()) continue;
                    const double m = tl.stats(pc.a, pc.b, hint[p]).mean;
                    if (std::isfinite(m)) integral[p] += m * static_cast<double>(pc.b - pc.a);
                }
            }
            const double frac = static_cast<double>(alone) / static_cast<double>(b - a);
            AloneStats& as = aloneStats[ops.signatureOf[op]];
            as.total += static_cast<double>(b - a);
            for (std::size_t p = 0; p < kPressureResources; ++p) {
                const ResourceTimeline& tl = timelines.pressure[p];
                if (tl.empty()) continue;
                if (static_cast<double>(tl.medianSpacing()) > kCoarseSampling * static_cast<double>(b - a)) continue;
                if (alone > 0) {
                    const double m = integral[p] / static_cast<double>(alone);
                    if (frac >= kExclusiveFraction) as.means[p].push_back(static_cast<float>(m));
                    as.wsum[p] += m * static_cast<double>(alone);
                    as.w[p] += static_cast<double>(alone);
                }
                const ResourceTimeline::Stats st = tl.stats(a, b, hint[p]);
                r.mean[op][p] = static_cast<float>(st.mean);
                r.highFrac[op][p] = static_cast<float>(static_cast<double>(st.high) / static_cast<double>(b - a));
            }
            if (!timelines.hitRate.empty() &&
                static_cast<double>(timelines.hitRate.medianSpacing()) <= kCoarseSampling * static_cast<double>(b - a))
                r.hitRate[op] = static_cast<float>(timelines.hitRate.mean(a, b));
        }
        const SliceInfo& info = infos[ops.slices[op]];
        if (const float share = copyBandwidthShare(trace, ops.slices[op]); std::isfinite(share)) {
            const auto bw = static_cast<std::size_t>(pressureIndex(Resource::Bandwidth));
            metricOfOp(op)[bw] = share;
            r.haveMetrics[bw] = true;
        }
        for (std::uint32_t k = 0; k < info.metricsCount; ++k) {
            const Metric& m = metrics[info.metricsBegin + k];
            auto it = metricOf.find(m.key);
            if (it == metricOf.end() || !std::isfinite(m.value)) continue;
            const int p = pressureIndex(it->second->resource);
            const float v = static_cast<float>(std::clamp(m.value * it->second->scale, 0.0, 1.0));
            // Several keys for one resource (aic_ and aiv_ pipes): the busiest one counts.
            float& slot = metricOfOp(op)[static_cast<std::size_t>(p)];
            slot = std::isnan(slot) ? v : std::max(slot, v);
            r.haveMetrics[static_cast<std::size_t>(p)] = true;
        }
    }

    r.demand.assign(sigs, nan);
    r.demandSource.assign(sigs, {});
    r.metricRef.assign(sigs, nan);
    // Step 1: alone.
    if (anyCounters) {
        for (std::size_t sg = 0; sg < sigs; ++sg) {
            AloneStats& as = aloneStats[sg];
            for (std::size_t p = 0; p < kPressureResources; ++p) {
                // Slivers of exclusive time at the edges of a run say little (the counter's
                // samples straddle them): the weighted mean needs a real share of the time.
                if (!as.means[p].empty())
                    r.demand[sg][p] = finiteQuantile(as.means[p], 0.5);
                else if (as.w[p] > 0 && as.w[p] >= kExclusiveFraction * as.total)
                    r.demand[sg][p] = static_cast<float>(as.wsum[p] / as.w[p]);
                if (std::isfinite(r.demand[sg][p])) r.demandSource[sg][p] = DemandSource::Alone;
            }
        }
        // Step 2: beside operators of known demand, where the resource was not saturated. One
        // pass over the ops (in memory order, one cut each) per round.
        // wsum/w over every piece; exactSum/exactW over the pieces no sample reaches beyond.
        std::vector<std::array<double, kPressureResources>> wsum(sigs), w(sigs), exactSum(sigs), exactW(sigs),
            resolvedNs(sigs), pinnedNs(sigs);
        std::array<std::size_t, kPressureResources> hint2{};
        for (int round = 0; round < 3; ++round) {
            auto open = [&](std::size_t sg, std::size_t p) {
                return !timelines.pressure[p].empty() && kPressureResource[p] != Resource::Cache &&
                       !std::isfinite(r.demand[sg][p]);
            };
            for (std::size_t sg = 0; sg < sigs; ++sg) {
                wsum[sg].fill(0);
                w[sg].fill(0);
                exactSum[sg].fill(0);
                exactW[sg].fill(0);
                resolvedNs[sg].fill(0);
                pinnedNs[sg].fill(0);
            }
            bool anyOpen = false;
            for (std::uint32_t op = 0; op < n; ++op) {
                if (stop(op)) return r;
                const std::uint32_t sg = ops.signatureOf[op];
                bool need = false;
                for (std::size_t p = 0; p < kPressureResources; ++p) need = need || open(sg, p);
                if (!need) continue;
                anyOpen = true;
                seg.cut(trace, ops, overlap, op);
                for (const Piece& pc : seg.pieces) {
                    if (pc.partnersBegin == pc.partnersEnd) continue;
                    for (std::size_t p = 0; p < kPressureResources; ++p) {
                        if (!open(sg, p)) continue;
                        double known = 0;
                        bool ok = true;
                        for (std::size_t j = pc.partnersBegin; j < pc.partnersEnd && ok; ++j) {
                            const float d = r.demand[ops.signatureOf[seg.partners[j]]][p];
                            ok = std::isfinite(d);
                            known += ok ? d : 0;
                        }
                        if (!ok) continue;
                        const double m = timelines.pressure[p].stats(pc.a, pc.b, hint2[p]).mean;
                        // Pinned at capacity: the counter no longer adds up the demands.
                        if (!std::isfinite(m) || m >= kSaturated) continue;
                        const auto t = static_cast<double>(pc.b - pc.a);
                        wsum[sg][p] += std::max(0.0, m - known) * t;
                        w[sg][p] += t;
                        if (!timelines.pressure[p].bounded(pc.a, pc.b).partial) {
                            exactSum[sg][p] += std::max(0.0, m - known) * t;
                            exactW[sg][p] += t;
                        }
                    }
                }
                // The samples wholly inside the run, beside others: a sampler's mean over a piece
                // mixes in what ran before or after it, and hides that the piece was pinned at
                // capacity (a 100 us mean over a saturated 60 us overlap and a light rest). When
                // the samples that do resolve the run show it pinned, the pieces' means do not
                // add up the demands: only the pieces no sample reaches beyond count (with a
                // sample at every change, all of them; at 10 kHz, few or none).
                const Slice& sl = slices[ops.slices[op]];
                for (std::size_t p = 0; p < kPressureResources; ++p) {
                    if (!open(sg, p)) continue;
                    timelines.pressure[p].forEachSample(sl.start, sl.end(), [&](TimeNs s0, TimeNs s1, double m) {
                        if (s0 < sl.start || s1 > sl.end() || !std::isfinite(m)) return;
                        bool beside = false;
                        for (const Piece& pc : seg.pieces)
                            beside = beside || (pc.partnersBegin != pc.partnersEnd && pc.a < s1 && pc.b > s0);
                        if (!beside) return;
                        resolvedNs[sg][p] += static_cast<double>(s1 - s0);
                        if (m >= kSaturated) pinnedNs[sg][p] += static_cast<double>(s1 - s0);
                    });
                }
            }
            if (!anyOpen) break;
            bool resolved = false;
            for (std::size_t sg = 0; sg < sigs; ++sg) {
                for (std::size_t p = 0; p < kPressureResources; ++p) {
                    if (!open(sg, p) || w[sg][p] <= 0) continue;
                    double sum = wsum[sg][p], weight = w[sg][p];
                    if (resolvedNs[sg][p] > 0 && pinnedNs[sg][p] >= 0.5 * resolvedNs[sg][p]) {
                        sum = exactSum[sg][p];
                        weight = exactW[sg][p];
                        if (weight <= 0) continue;
                    }
                    r.demand[sg][p] = static_cast<float>(std::clamp(sum / weight, 0.0, 1.0));
                    r.demandSource[sg][p] = DemandSource::Beside;
                    resolved = true;
                }
            }
            if (!resolved) break;
        }
    }
    // Step 3, and the per-op metrics.
    std::vector<float> all, met;
    for (std::size_t sg = 0; sg < sigs; ++sg) {
        for (std::size_t p = 0; p < kPressureResources; ++p) {
            if (!std::isfinite(r.demand[sg][p]) && !timelines.pressure[p].empty()) {
                all.clear();
                for (std::uint32_t k = ops.sigBegin[sg]; k < ops.sigBegin[sg + 1]; ++k)
                    all.push_back(r.mean[ops.sigOps[k]][p]);
                r.demand[sg][p] = finiteQuantile(all, 0.10);
                if (std::isfinite(r.demand[sg][p])) r.demandSource[sg][p] = DemandSource::LeastDisturbed;
            }
            if (!r.haveMetrics[p]) continue;
            met.clear();
            for (std::uint32_t k = ops.sigBegin[sg]; k < ops.sigBegin[sg + 1]; ++k)
                met.push_back(r.metric[ops.sigOps[k]][p]);
            const float metricMedian = finiteQuantile(met, 0.5);
            r.metricRef[sg][p] = metricMedian;
            // The cache metric is a hit rate, not a use of capacity: a reference only.
            if (kPressureResource[p] != Resource::Cache && std::isfinite(metricMedian)) {
                r.demand[sg][p] = metricMedian;
                r.demandSource[sg][p] = DemandSource::Metric;
            }
        }
    }
    // Peak load over each op's run, all resources from one cut.
    if (anyCounters) {
        r.peakLoad.assign(n, nan);
        for (std::uint32_t op = 0; op < n; ++op) {
            const PressureArray& own = r.demand[ops.signatureOf[op]];
            PressureArray& peak = r.peakLoad[op];
            for (std::size_t p = 0; p < kPressureResources; ++p)
                if (!timelines.pressure[p].empty()) peak[p] = std::isfinite(own[p]) ? own[p] : 0.0f;
            if (overlap.pairBegin[op] == overlap.pairBegin[op + 1]) continue;
            seg.cut(trace, ops, overlap, op);
            for (const Piece& pc : seg.pieces) {
                for (std::size_t p = 0; p < kPressureResources; ++p) {
                    if (timelines.pressure[p].empty()) continue;
                    double load = std::isfinite(own[p]) ? own[p] : 0.0;
                    for (std::size_t j = pc.partnersBegin; j < pc.partnersEnd; ++j) {
                        const float d = r.demand[ops.signatureOf[seg.partners[j]]][p];
                        if (std::isfinite(d)) load += d;
                    }
                    peak[p] = std::max(peak[p], static_cast<float>(load));
                }
            }
        }
    }
    return r;
}

float ownCachePressure(const PressureResult& pressure, std::uint32_t signature) {
    const auto p = static_cast<std::size_t>(pressureIndex(Resource::Cache));
    const float d = pressure.demand[signature][p];
    return pressure.demandSource[signature][p] == DemandSource::Alone && std::isfinite(d) ? d : 0.0f;
}

float usualCachePressure(const PressureResult& pressure, std::uint32_t signature) {
    const auto p = static_cast<std::size_t>(pressureIndex(Resource::Cache));
    const float d = pressure.demand[signature][p];
    const DemandSource src = pressure.demandSource[signature][p];
    return (src == DemandSource::Alone || src == DemandSource::LeastDisturbed) && std::isfinite(d) ? d : 0.0f;
}

double loadDuring(const OperatorSet& ops, const OverlapResult& overlap, const PressureResult& pressure,
                  const Trace& trace, std::uint32_t op, std::size_t p, TimeNs a, TimeNs b) {
    auto demandOf = [&](std::uint32_t o) {
        const float d = pressure.demand[ops.signatureOf[o]][p];
        return std::isfinite(d) ? static_cast<double>(d) : 0.0;
    };
    const double own = demandOf(op);
    if (overlap.pairBegin[op] == overlap.pairBegin[op + 1]) return own;
    thread_local Segmenter seg;
    seg.cut(trace, ops, overlap, op);
    double peak = own;
    for (const Piece& pc : seg.pieces) {
        if (pc.b <= a || pc.a >= b) continue;
        double load = own;
        for (std::size_t j = pc.partnersBegin; j < pc.partnersEnd; ++j) load += demandOf(seg.partners[j]);
        peak = std::max(peak, load);
    }
    return peak;
}

namespace {

// The known demands for resource index p of the partners running in piece pc (into asks, the
// positive ones) and their sum with `own`; false when some partner's demand is unknown (NaN,
// left out of the sum).
bool pieceAsks(const OperatorSet& ops, const PressureResult& pressure, const Segmenter& seg, const Piece& pc,
               std::size_t p, double own, std::vector<double>& asks, double& load) {
    bool known = true;
    load = own;
    asks.clear();
    for (std::size_t j = pc.partnersBegin; j < pc.partnersEnd; ++j) {
        const float d = pressure.demand[ops.signatureOf[seg.partners[j]]][p];
        if (!std::isfinite(d)) {
            known = false;
        } else if (d > 0) {
            load += d;
            asks.push_back(d);
        }
    }
    return known;
}

}  // namespace

double sharingLossNs(const OperatorSet& ops, const OverlapResult& overlap, const PressureResult& pressure,
                     const Trace& trace, std::uint32_t op, std::size_t p) {
    if (overlap.pairBegin[op] == overlap.pairBegin[op + 1]) return 0;
    const float ownDemand = pressure.demand[ops.signatureOf[op]][p];
    if (!std::isfinite(ownDemand)) return -1;
    if (ownDemand <= 0) return 0;
    thread_local Segmenter seg;
    thread_local std::vector<double> asks;
    seg.cut(trace, ops, overlap, op);
    double lost = 0;
    for (const Piece& pc : seg.pieces) {
        double load = 0;
        if (!pieceAsks(ops, pressure, seg, pc, p, ownDemand, asks, load)) return -1;  // an ask unknown
        if (load < 1.0 + kOverload) continue;
        lost += (1.0 - sharedRate(ownDemand, asks, load)) * static_cast<double>(pc.b - pc.a);
    }
    return lost;
}

double sharedRate(double own, std::vector<double>& others, double load) {
    // Max-min fair: the water level where everybody asking less gets its ask and the rest get
    // the level each; the op progresses at min(1, level / own).
    others.push_back(own);
    std::sort(others.begin(), others.end());
    const std::size_t n = others.size();
    double left = 1.0;
    double level = left / static_cast<double>(n);
    for (std::size_t k = 0; k + 1 < n && others[k] <= level; ++k) {
        left -= others[k];
        level = left / static_cast<double>(n - k - 1);
    }
    const double fair = own > 0 ? std::min(1.0, level / own) : 1.0;
    // Proportional: everybody at 1 / load.
    const double proportional = load > 0 ? 1.0 / load : 1.0;
    return std::max(fair, proportional);
}

std::vector<TimeNs> soloEstimates(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                                  const PressureResult& pressure, const ResourceTimelines& timelines) {
    std::vector<TimeNs> out(ops.size(), -1);
    if (!timelines.any()) return out;
    const auto& slices = trace.slices();
    Segmenter seg;
    std::vector<double> asks;  // the partners' demands in one piece
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        if (overlap.pairBegin[op] == overlap.pairBegin[op + 1]) continue;
        const Slice& s = slices[ops.slices[op]];
        const PressureArray& own = pressure.demand[ops.signatureOf[op]];
        seg.cut(trace, ops, overlap, op);
        double solo = 0;
        bool slowed = false;
        for (const Piece& pc : seg.pieces) {
            double rate = 1;
            for (std::size_t p = 0; p < kPressureResources; ++p) {
                const ResourceTimeline& tl = timelines.pressure[p];
                if (tl.empty() || kPressureResource[p] == Resource::Cache || !(own[p] >= kUseThreshold)) continue;
                if (static_cast<double>(tl.medianSpacing()) > kCoarseSampling * static_cast<double>(s.dur)) continue;
                double load = 0;
                pieceAsks(ops, pressure, seg, pc, p, own[p], asks, load);  // unknown asks count as 0
                if (load < 1.0 + kOverload || !(tl.stats(pc.a, pc.b).mean >= tl.high())) continue;
                rate = std::min(rate, sharedRate(own[p], asks, load));
            }
            slowed = slowed || rate < 1;
            solo += rate * static_cast<double>(pc.b - pc.a);
        }
        if (slowed) out[op] = static_cast<TimeNs>(std::llround(solo));
    }
    return out;
}

}  // namespace contend
