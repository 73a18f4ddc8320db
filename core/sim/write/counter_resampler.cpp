#include "core/sim/write/counter_resampler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace contend::sim {

CounterResampler::CounterResampler(TimeNs originNs, TimeNs periodNs, double noiseSigma, std::uint64_t noiseSeed)
    : m_origin(originNs), m_period(periodNs), m_sigma(noiseSigma), m_noise(noiseSeed), m_now(originNs) {
    if (periodNs <= 0) throw std::invalid_argument("counter resampling period must be positive");
}

void CounterResampler::add(const CounterSample& sample) {
    integrateTo(sample.t);
    Track& track = m_tracks[static_cast<std::size_t>(sample.series)];
    track.known = true;
    track.value = sample.exact;
}

void CounterResampler::holdUntil(TimeNs t) { integrateTo(t); }

void CounterResampler::finish(TimeNs endNs) {
    integrateTo(endNs);
    if (m_now > m_origin + m_interval * m_period) {
        emitInterval();
        ++m_interval;
    }
}

std::vector<CounterSample> CounterResampler::take() {
    std::vector<CounterSample> out;
    out.swap(m_ready);
    return out;
}

// Integrates every track up to t, emitting each interval as it completes. Times before m_now
// (the origin, or a sample at an instant already integrated) add nothing.
void CounterResampler::integrateTo(TimeNs t) {
    for (;;) {
        const TimeNs end = m_origin + (m_interval + 1) * m_period;
        if (end > t) break;
        accumulate(end);
        emitInterval();
        ++m_interval;
    }
    accumulate(t);
}

void CounterResampler::accumulate(TimeNs to) {
    if (to <= m_now) return;
    const TimeNs dt = to - m_now;
    for (Track& track : m_tracks) {
        if (!track.known) continue;
        track.sum += static_cast<std::int64_t>(track.value) * dt;
        track.covered += dt;
    }
    m_now = to;
}

void CounterResampler::emitInterval() {
    const TimeNs t = m_origin + m_interval * m_period;
    for (int k = 0; k < kSeriesCount; ++k) {
        Track& track = m_tracks[static_cast<std::size_t>(k)];
        if (track.covered <= 0) continue;
        const double mean = static_cast<double>(track.sum) / static_cast<double>(track.covered);
        CounterSample s;
        s.t = t;
        s.series = static_cast<Series>(k);
        s.exact = static_cast<std::int16_t>(std::llround(mean));
        s.tenths = noisy(mean);
        m_ready.push_back(s);
        track.sum = 0;
        track.covered = 0;
    }
}

// As full mode's noise: an idle 0 stays 0 (nothing to mis-measure); otherwise one normal draw of
// sigma percentage points, rounded to tenths and kept within [0, 100]%.
std::int16_t CounterResampler::noisy(double meanTenths) {
    if (m_sigma <= 0 || meanTenths == 0) return static_cast<std::int16_t>(std::llround(meanTenths));
    const double v = meanTenths + m_noise.normal() * m_sigma * 10.0;
    return static_cast<std::int16_t>(std::clamp<long long>(std::llround(v), 0, 1000));
}

void CounterStream::step(const std::vector<CounterSample>& samples, TimeNs stepStart, TimeNs stepEnd,
                         const Emit& emit) {
    switch (m_setting.mode) {
    case CounterMode::Full: emit(samples); return;
    case CounterMode::None: return;
    case CounterMode::Period:
        if (!m_resampler) m_resampler.emplace(stepStart, m_setting.periodNs, m_sigma, m_seed);
        for (const CounterSample& s : samples) m_resampler->add(s);
        m_resampler->holdUntil(stepEnd);
        emit(m_resampler->take());
        return;
    }
}

void CounterStream::finish(TimeNs endNs, const Emit& emit) {
    if (!m_resampler) return;
    m_resampler->finish(endNs);
    emit(m_resampler->take());
}

}  // namespace contend::sim
