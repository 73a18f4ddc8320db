#pragma once
// Turns the simulator's full-resolution counter samples into one sample per series per period
// P, as a sampling profiler writes them (CounterMode::Period). The full samples are a step
// function per series: each value holds until the next sample of its series. The sample written
// at ts = origin + kP is the time-weighted mean of the exact model values over
// [origin + kP, origin + (k+1)P), plus the same measurement noise full mode adds (one draw per
// sample from the resampler's own random stream), in integer tenths of a percent.
//
// Fed step by step, with its state carried across steps: an interval may straddle two steps and
// the idle gap between them, where the last value of the step (the idle reading) holds. The last
// interval of the trace is partial: its mean is over [origin + kP, end).
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/sim/model/counter_mode.h"
#include "core/sim/model/rng.h"
#include "core/sim/model/sim_result.h"

namespace contend::sim {

class CounterResampler {
  public:
    // originNs: where interval 0 begins (the first step's start). noiseSigma: percentage points.
    CounterResampler(TimeNs originNs, TimeNs periodNs, double noiseSigma, std::uint64_t noiseSeed);

    // One full-resolution sample; samples come in time order across all series. Its exact value
    // is used (CounterSample::exact), never the noisy one. A sample before the origin only sets
    // the value the series holds at the origin.
    void add(const CounterSample& sample);
    // Every series keeps its current value at least until `t` (a step's end): emits every
    // interval that has ended by then.
    void holdUntil(TimeNs t);
    // The trace ends at `endNs`: emits the remaining intervals, the last one partial.
    void finish(TimeNs endNs);

    // The samples emitted since the last call, in time order (by interval, then by series).
    std::vector<CounterSample> take();

    TimeNs periodNs() const { return m_period; }

  private:
    struct Track {
        bool known = false;      // a value has been given (before that, nothing is averaged)
        std::int16_t value = 0;  // exact tenths it holds now
        std::int64_t sum = 0;    // integral of the value over the current interval, tenths * ns
        TimeNs covered = 0;      // ns of the current interval with a known value
    };

    void integrateTo(TimeNs t);
    void accumulate(TimeNs to);
    void emitInterval();
    std::int16_t noisy(double meanTenths);

    TimeNs m_origin;
    TimeNs m_period;
    double m_sigma;
    Rng m_noise;
    std::int64_t m_interval = 0;  // index k of the interval being accumulated
    TimeNs m_now;                 // every track is integrated up to here
    std::array<Track, kSeriesCount> m_tracks{};
    std::vector<CounterSample> m_ready;
};

// The counter samples a trace writer emits, by counter mode (counter_mode.h), for both writers
// (Kineto JSON and the Nsight Systems SQLite export): Full hands each step's own samples to the
// callback as they are (no copy), None nothing, Period the resampled ones (a CounterResampler
// whose intervals start at the first step's start).
class CounterStream {
  public:
    using Emit = std::function<void(const std::vector<CounterSample>&)>;
    CounterStream(CounterSetting setting, double noiseSigma, std::uint64_t noiseSeed)
        : m_setting(setting), m_sigma(noiseSigma), m_seed(noiseSeed) {}

    // One step's full-resolution samples; the step's last values (the idle readings) hold
    // through its end and the gap after it.
    void step(const std::vector<CounterSample>& samples, TimeNs stepStart, TimeNs stepEnd, const Emit& emit);
    // The trace ends at `endNs` (the last step's end): its last interval is averaged over what
    // it covers.
    void finish(TimeNs endNs, const Emit& emit);

  private:
    CounterSetting m_setting;
    double m_sigma;
    std::uint64_t m_seed;
    std::optional<CounterResampler> m_resampler;  // Period mode, from the first step on
};

}  // namespace contend::sim
