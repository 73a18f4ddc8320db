#include "core/sim/model/counter_mode.h"

#include <charconv>

namespace contend::sim {

namespace {

// Longest period accepted from text: 1 hour in us. A period longer than the trace is legal (one
// partial sample per series), but beyond this it is a typo.
constexpr std::int64_t kMaxPeriodUs = 3'600'000'000LL;

}  // namespace

std::optional<CounterSetting> parseCounterSetting(std::string_view text) {
    if (text == "full") return CounterSetting{CounterMode::Full, 0};
    if (text == "none") return CounterSetting{CounterMode::None, 0};
    std::int64_t us = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), us);
    if (ec != std::errc() || end != text.data() + text.size() || us < 1 || us > kMaxPeriodUs) return std::nullopt;
    return CounterSetting{CounterMode::Period, us * 1000};
}

std::string counterSettingName(const CounterSetting& setting) {
    switch (setting.mode) {
    case CounterMode::Full: return "full";
    case CounterMode::None: return "none";
    case CounterMode::Period:
        return setting.periodNs % 1000 == 0 ? std::to_string(setting.periodNs / 1000) + "us"
                                            : std::to_string(setting.periodNs) + "ns";
    }
    return "full";
}

}  // namespace contend::sim
