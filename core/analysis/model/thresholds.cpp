#include "core/analysis/model/thresholds.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace contend {

namespace {

double clampOr(double v, double lo, double hi, double fallback) {
    return std::isnan(v) ? fallback : std::clamp(v, lo, hi);
}

std::string rangeText(std::string_view option, double lo, double hi) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " needs a number from %g to %g", lo, hi);
    return std::string(option) + buf;
}

}  // namespace

Thresholds Thresholds::clamped() const {
    Thresholds t;
    t.coefficient = clampOr(coefficient, kMinCoefficient, kMaxCoefficient, kDefaultCoefficient);
    t.overlapRatio = clampOr(overlapRatio, kMinOverlapRatio, kMaxOverlapRatio, kDefaultOverlapRatio);
    return t;
}

std::string coefficientRangeText(std::string_view option) {
    return rangeText(option, Thresholds::kMinCoefficient, Thresholds::kMaxCoefficient);
}

std::string overlapRatioRangeText(std::string_view option) {
    return rangeText(option, Thresholds::kMinOverlapRatio, Thresholds::kMaxOverlapRatio);
}

}  // namespace contend
