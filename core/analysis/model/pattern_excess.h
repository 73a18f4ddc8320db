#pragma once
// A contention pattern's run excess (patterns.h): the part of the run's duration its pattern's
// slowdown s explains, dur x s / (1 + s). A run beside the partner that took `dur` would have
// taken dur / (1 + s) apart, by the pattern's estimate; the difference is what running beside
// cost it. Summed over the runs beside this is the pattern's systematic cost: runs beside x
// their mean duration x s / (1 + s), about runs beside x (mean beside - mean apart) when the
// partner stretches its victim by 1 + s.
//
// Not duration - baseline clipped at 0 (the rule before this one): the clip keeps the positive half
// of every run's noise, so a victim whose runs spread +-30% with no partner paid a "cost" on
// every slow draw. On the contention lab's real-hardware runs that sum gave the runs with no
// contention at all 230-290 ms of cost in 5 seeds, and the patterns' costs ran 20-70% above the
// runs' measured shift (lab/README.md).
//
// The writer of report/3 and /4 leaves a pattern's excess_ns column out when every run follows
// this rule (the pattern then says "run_excess": "share"); the reader applies it back. Both call
// this function, so the numbers read back are the numbers written.
#include <cmath>
#include <cstdint>

namespace contend {

inline std::int64_t patternRunExcessNs(std::int64_t durNs, double slowdown) {
    if (!(slowdown > 0) || durNs <= 0) return 0;
    return static_cast<std::int64_t>(std::llround(static_cast<double>(durNs) * slowdown / (1.0 + slowdown)));
}

}  // namespace contend
