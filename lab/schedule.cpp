#include "schedule.h"

#include <utility>

#include "rng.h"

namespace lab {

const std::vector<PairSpec>& pairTable() {
    static const std::vector<PairSpec> table = {
        // Competing: both draw on DRAM bandwidth (non-temporal STREAM kernels, the gather).
        {Kind::Triad, Kind::Copy, Schedule::Competing, "bandwidth", "bandwidth"},
        {Kind::Scale, Kind::Triad, Schedule::Competing, "bandwidth", "bandwidth"},
        {Kind::Gather, Kind::Triad, Schedule::Competing, "bandwidth", "bandwidth"},
        // The streamer's reads pass through the shared L3 and evict the sum's buffer (cause
        // cache for the sum); the evicted sum then refetches from DRAM (bandwidth for the
        // streamer).
        {Kind::L3Sum, Kind::Copy, Schedule::Competing, "cache", "bandwidth"},
        {Kind::L3Sum, Kind::Triad, Schedule::Competing, "cache", "bandwidth"},
        // Both lock kernels take the same 16 spinlocked cache lines: serialisation.
        {Kind::Lock, Kind::Lock, Schedule::Competing, "lock", "lock"},
        // Non-competing: the in-register control beside everything, and partners that fit (the
        // private L2). Two L3 buffers that fit the L3 together (l3sum + l3sum) were meant as a
        // third: measured here they slowed each other as much as a streamer slows them (+16%,
        // lab/README.md), so they are left out rather than relabelled.
        {Kind::Fma, Kind::Copy, Schedule::NonCompeting, "none", "none"},
        {Kind::Fma, Kind::Triad, Schedule::NonCompeting, "none", "none"},
        {Kind::Fma, Kind::Gather, Schedule::NonCompeting, "none", "none"},
        {Kind::Fma, Kind::L3Sum, Schedule::NonCompeting, "none", "none"},
        {Kind::Fma, Kind::Lock, Schedule::NonCompeting, "none", "none"},
        {Kind::Fma, Kind::Fma, Schedule::NonCompeting, "none", "none"},
        {Kind::L2Sum, Kind::Copy, Schedule::NonCompeting, "none", "none"},
        {Kind::L2Sum, Kind::L2Sum, Schedule::NonCompeting, "none", "none"},
    };
    return table;
}

std::vector<Slot> makeSchedule(const ScheduleOptions& o) {
    SplitMix64 rng(o.seed * 0x100000001B3ULL + 0x5EED);
    std::vector<const PairSpec*> competing, nonCompeting;
    for (const PairSpec& p : pairTable()) (p.schedule == Schedule::Competing ? competing : nonCompeting).push_back(&p);
    std::vector<Slot> out;
    std::size_t aloneNext = rng.below(kKinds);
    for (int step = 0; step < o.steps; ++step) {
        std::vector<Slot> slots;
        for (int i = 0; i < o.aloneSlots; ++i) {
            Slot s;
            s.step = step;
            s.schedule = Schedule::Alone;
            const Kind k = kAllKinds[aloneNext++ % kKinds];
            if (rng.below(2) == 0) {
                s.onA = true;
                s.kindA = k;
            } else {
                s.onB = true;
                s.kindB = k;
            }
            slots.push_back(s);
        }
        auto addPairs = [&](const std::vector<const PairSpec*>& table, int count) {
            for (int i = 0; i < count && !table.empty(); ++i) {
                const PairSpec& p = *table[rng.below(table.size())];
                Slot s;
                s.step = step;
                s.schedule = p.schedule;
                s.onA = s.onB = true;
                const bool swap = rng.below(2) == 1;
                s.kindA = swap ? p.y : p.x;
                s.kindB = swap ? p.x : p.y;
                s.causeA = swap ? p.causeY : p.causeX;
                s.causeB = swap ? p.causeX : p.causeY;
                slots.push_back(s);
            }
        };
        addPairs(competing, o.competingSlots);
        addPairs(nonCompeting, o.nonCompetingSlots);
        for (std::size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng.below(i)]);  // Fisher-Yates
        for (Slot& s : slots) out.push_back(std::move(s));
    }
    return out;
}

}  // namespace lab
