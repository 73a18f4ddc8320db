#pragma once
// The two thresholds a report is built at (engine.h's buildReport): the anomaly coefficient (an
// operator is flagged when its score is above it) and the overlap ratio of contention windows.
// One set of defaults and one range for every place they are edited or parsed: the main window's
// settings panel, the compare window, contend-cli's --coefficient / --overlap and the app's
// benches. Core's buildReport itself takes any value (tests build at coefficient 0).
#include <string>
#include <string_view>

namespace contend {

struct Thresholds {
    static constexpr double kDefaultCoefficient = 3.0;
    static constexpr double kMinCoefficient = 0.1;
    static constexpr double kMaxCoefficient = 50.0;
    static constexpr double kDefaultOverlapRatio = 0.70;
    static constexpr double kMinOverlapRatio = 0.05;
    static constexpr double kMaxOverlapRatio = 1.0;

    double coefficient = kDefaultCoefficient;
    double overlapRatio = kDefaultOverlapRatio;

    static bool coefficientInRange(double v) { return v >= kMinCoefficient && v <= kMaxCoefficient; }
    static bool overlapRatioInRange(double v) { return v >= kMinOverlapRatio && v <= kMaxOverlapRatio; }
    bool inRange() const { return coefficientInRange(coefficient) && overlapRatioInRange(overlapRatio); }
    // Each value brought into its range; a NaN becomes the default.
    Thresholds clamped() const;

    friend bool operator==(const Thresholds& a, const Thresholds& b) {
        return a.coefficient == b.coefficient && a.overlapRatio == b.overlapRatio;
    }
    friend bool operator!=(const Thresholds& a, const Thresholds& b) { return !(a == b); }
};

// What an option's value must be, naming the option: "--coefficient needs a number from 0.1 to
// 50". The ranges are written from the constants above, so the message cannot drift from them.
std::string coefficientRangeText(std::string_view option);
std::string overlapRatioRangeText(std::string_view option);

}  // namespace contend
