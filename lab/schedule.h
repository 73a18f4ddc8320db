#pragma once
// The seeded schedule: which kernels run, on which stream, alone or beside which partner. Same
// seed and options, same schedule (kernel order, names, streams), whatever the timings.
#include <cstdint>
#include <vector>

#include "lab_types.h"

namespace lab {

// Two kinds that the schedule runs together, and why each would slow (the lab's design).
struct PairSpec {
    Kind x, y;
    Schedule schedule;
    const char* causeX;  // the design cause for x beside y
    const char* causeY;  // for y beside x
};
const std::vector<PairSpec>& pairTable();

struct ScheduleOptions {
    std::uint64_t seed = 1;
    int steps = 100;
    // Per step: slots with one kernel alone, with a competing pair, with a non-competing pair.
    int aloneSlots = 4;
    int competingSlots = 5;
    int nonCompetingSlots = 3;
};

// Alone slots cycle through the kinds (every kind runs alone about steps * aloneSlots / 8
// times, so each has a solo median); pairs are drawn uniformly from their table; the order of
// the slots in a step and which kernel goes on which stream are drawn too.
std::vector<Slot> makeSchedule(const ScheduleOptions& o);

}  // namespace lab
