#pragma once
// How a simulated trace writes its counter tracks, to look like the profiler it stands for:
// every change (a counter-rich tool), none at all (PyTorch/Kineto on a CUDA GPU writes no "C"
// events), or one sample per fixed period holding the mean over it (Ascend's HBM/LLC sampling,
// newer Kineto's PM sampling). The device runs the same in every mode; only the written
// counters differ (see counter_resampler.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/trace/types.h"

namespace contend::sim {

enum class CounterMode : std::uint8_t {
    Full,    // a sample at every change and at least every SimConfig::counterPeriodNs
    None,    // no counter events
    Period,  // one sample per series per period: the time-weighted mean over [kP, (k+1)P)
};

struct CounterSetting {
    CounterMode mode = CounterMode::Full;
    TimeNs periodNs = 0;  // Period only: P, ns (> 0)
};

// "full", "none", or a positive integer number of microseconds ("1000": Period, P = 1 ms).
std::optional<CounterSetting> parseCounterSetting(std::string_view text);

// "full", "none", "1000us" (or "1500ns" for a period that is not whole microseconds).
std::string counterSettingName(const CounterSetting& setting);

}  // namespace contend::sim
