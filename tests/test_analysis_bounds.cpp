// What a sampler's means can prove about an interval they straddle
// (ResourceTimeline::bounded, core/analysis/inputs/resource_timeline.h), and the copies' own bandwidth
// share against the device's stated peak (copyBandwidthShare, core/analysis/scoring/pressure.h).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/analysis/findings/causes.h"
#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/scoring/pressure.h"
#include "core/trace/trace_builder.h"

using namespace contend;

TEST_CASE("bounded means: samples that straddle an interval bound its mean, and prove it busy only when they must",
          "[analysis][bounds]") {
    // Two 100 us means (Nsight's 10 kHz): 57% over [0, 100) us, 90% over [100, 200) us, then 20%.
    ResourceTimeline tl({0, 100'000, 200'000}, {0.57f, 0.90f, 0.20f}, 300'000, 0.85);
    // A 115.8 us kernel from 34.2 us: 34.3% of the first sample, 81.5% of the second.
    const ResourceTimeline::Bounded b = tl.bounded(65'714, 181'509);
    CHECK(b.samples == 2);
    CHECK(b.partial);
    CHECK(b.covered == 181'509 - 65'714);
    // Second sample: (0.90 - 0.185) / 0.815 = 0.877 >= 0.85, so its part was busy; the first
    // (0.57 over 34%) proves nothing: the rest of it may have held all of it.
    CHECK(b.highSamples == 1);
    CHECK(b.high == 181'509 - 100'000);
    const double f1 = 34'286.0 / 100'000, f2 = 81'509.0 / 100'000;
    const double lo2 = (0.90 - (1 - f2)) / f2;
    CHECK(b.lo == Approx((0.0 * 34'286 + lo2 * 81'509) / (34'286 + 81'509)).epsilon(1e-4));
    const double hi1 = std::min(1.0, 0.57 / f1), hi2 = std::min(1.0, 0.90 / f2);
    CHECK(b.hi == Approx((hi1 * 34'286 + hi2 * 81'509) / (34'286 + 81'509)).epsilon(1e-4));
    // The plain timeline calls both the busy sample's part and nothing else high: the bound
    // never claims more than that.
    CHECK(b.high <= tl.highTime(65'714, 181'509));

    // A 50/50 straddle of a saturated overlap: each sample half busy, half light. Neither mean
    // proves its half busy, though the plain reading of the 90% one would call it high.
    ResourceTimeline half({0, 100'000, 200'000}, {0.65f, 0.90f, 0.0f}, 300'000, 0.85);
    const ResourceTimeline::Bounded h = half.bounded(50'000, 150'000);
    CHECK(h.highSamples == 0);
    CHECK(h.high == 0);
    CHECK(half.highTime(50'000, 150'000) == 50'000);

    // Samples wholly inside the interval are the value itself: the bound is exact, not partial.
    const ResourceTimeline::Bounded in = tl.bounded(0, 200'000);
    CHECK_FALSE(in.partial);
    CHECK(in.lo == Approx((0.57 + 0.90) / 2).epsilon(1e-6));
    CHECK(in.hi == Approx(in.lo));
    CHECK(in.high == 100'000);
    CHECK(tl.capacity() == 1.0);

    int seen = 0;
    tl.forEachSample(150'000, 250'000, [&](TimeNs s, TimeNs e, double v) {
        CHECK(e > s);
        CHECK(v >= 0);
        ++seen;
    });
    CHECK(seen == 2);
}

TEST_CASE("copy bandwidth share: a device-to-device copy or memset against the device's stated peak",
          "[analysis][bounds]") {
    auto build = [](bool peaks) {
        TraceBuilder b;
        const StringId bytes = b.intern("bytes");
        auto add = [&](const char* name, TimeNs start, TimeNs dur, float n) {
            Slice s;
            s.start = start;
            s.dur = dur;
            s.name = b.intern(name);
            s.category = b.intern("gpu_memcpy");
            s.track = b.track("GPU 0", "stream 7");
            s.flags = kSliceDevice | kSliceMemory;
            SliceInfo info;
            info.device = 0;
            info.stream = 7;
            b.addMetric(b.addSlice(s, info), bytes, n);
        };
        add("Memcpy DtoD (Device -> Device)", 0, 1000, 25'000);     // 50 GB/s of reads and writes
        add("Memset (Device)", 2000, 1000, 40'000);                 // 40 GB/s
        add("Memcpy HtoD (Pinned -> Device)", 4000, 1000, 25'000);  // the host link's, not DRAM's
        if (peaks) {
            Source::Device d;
            d.id = 0;
            d.memoryBandwidth = 100e9;
            b.source().devices.push_back(d);
        }
        return b.finalize();
    };
    const TracePtr t = build(true);
    auto shareOf = [&](const Trace& tr, std::string_view prefix) {
        for (std::uint32_t i = 0; i < tr.slices().size(); ++i)
            if (tr.str(tr.slices()[i].name).rfind(prefix, 0) == 0) return copyBandwidthShare(tr, i);
        FAIL("no slice " << prefix);
        return 0.0f;
    };
    CHECK(shareOf(*t, "Memcpy DtoD") == Approx(0.5));
    CHECK(shareOf(*t, "Memset") == Approx(0.4));
    CHECK(std::isnan(shareOf(*t, "Memcpy HtoD")));
    const TracePtr none = build(false);  // no stated peak: nothing measured
    CHECK(std::isnan(shareOf(*none, "Memcpy DtoD")));
}

TEST_CASE("pattern pooling: samples over repeated overlaps decide saturation only when enough of them prove it",
          "[analysis][bounds][pattern]") {
    // 100 us samples (Nsight's 10 kHz). Over [0, 1 ms): busy samples (0.95) and light ones (0.30).
    const std::vector<TimeNs> times{0, 100'000, 200'000, 300'000, 400'000, 500'000, 600'000, 700'000, 800'000, 900'000};
    const std::vector<float> busy{0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f, 0.95f};
    const ResourceTimeline hot(times, busy, 1'000'000, 0.85);
    // One occurrence's overlap, 110 us from 150 us: half of the second sample and 60% of the third.
    SampleTally one = tallySamples(hot, {{150'000, 260'000}});
    // (0.95 - 0.5) / 0.5 = 0.90 and (0.95 - 0.4) / 0.6 = 0.92: both parts proven busy, none whole.
    CHECK(one.busy == 2);
    CHECK(one.deciding == 2);
    CHECK(one.whole == 0);
    // Two intervals over one sample count it once, for the share they cover together.
    const SampleTally split = tallySamples(hot, {{400'000, 440'000}, {450'000, 500'000}});
    CHECK(split.deciding == 1);
    CHECK(split.busy == 1);  // covers 90%: (0.95 - 0.1) / 0.9 = 0.94
    const SampleTally whole = tallySamples(hot, {{295'000, 410'000}});
    CHECK(whole.whole == 1);  // [300, 400) us lies wholly inside

    SampleTally pattern;
    pattern.add(one);
    CHECK_FALSE(patternSaturated(pattern));  // 2 samples from 1 occurrence: not enough
    pattern.add(tallySamples(hot, {{520'000, 630'000}}));
    CHECK(pattern.occurrences == 2);
    CHECK(pattern.occurrencesBusy == 2);
    CHECK(pattern.deciding >= kPatternMinSamples);
    CHECK(patternSaturated(pattern));

    // The same overlaps where the resource is not saturated: light samples prove the parts below
    // the mark (0.30 / 0.5 = 0.60 < 0.85), so the pattern is never called saturated.
    const std::vector<float> light(times.size(), 0.30f);
    const ResourceTimeline cold(times, light, 1'000'000, 0.85);
    SampleTally none;
    for (TimeNs a : {150'000, 520'000, 710'000}) none.add(tallySamples(cold, {{a, a + 110'000}}));
    CHECK(none.busy == 0);
    CHECK(none.deciding >= kPatternMinSamples);
    CHECK_FALSE(patternSaturated(none));
    // Mean 0.80 over half a sample proves nothing either way (its part lies in [0.6, 1]): it does
    // not decide, so samples like it can never make a pattern saturated.
    const std::vector<float> mid(times.size(), 0.80f);
    const ResourceTimeline vague(times, mid, 1'000'000, 0.85);
    const SampleTally v = tallySamples(vague, {{50'000, 150'000}});
    CHECK(v.deciding == 0);
    // A pattern whose samples are mostly light (1 busy of 4 deciding) stays unsaturated.
    SampleTally mostlyLight;
    mostlyLight.add(tallySamples(hot, {{300'000, 400'000}}));
    mostlyLight.add(tallySamples(cold, {{150'000, 260'000}}));
    mostlyLight.add(tallySamples(cold, {{300'000, 400'000}}));
    CHECK(mostlyLight.busy == 1);
    CHECK(mostlyLight.deciding == 4);
    CHECK_FALSE(patternSaturated(mostlyLight));
}

TEST_CASE("a saturated resource slows an operator by the smaller of what max-min fair and proportional sharing say",
          "[analysis][bounds][pressure]") {
    // 0.4 beside 1.0 (load 1.4): max-min serves 0.4 in full (level 0.6), proportional gives
    // 1 / 1.4: the smaller slowdown is none.
    std::vector<double> others{1.0};
    CHECK(sharedRate(0.4, others, 1.4) == 1.0);
    // The streamer itself: max-min gives it 0.6 / 1.0, proportional 1 / 1.4 = 0.714: 0.714.
    others = {0.4};
    CHECK(sharedRate(1.0, others, 1.4) == Approx(1.0 / 1.4));
    // Two equal asks of 0.8: both arbiters give 0.5 / 0.8 = 0.625.
    others = {0.8};
    CHECK(sharedRate(0.8, others, 1.6) == Approx(0.625));
    // Three: 0.1, 0.5, 0.9 (load 1.5). Max-min: 0.1 served, level 0.45 for the other two:
    // 0.5 runs at 0.9, 0.9 at 0.5; proportional 0.667 each.
    others = {0.9, 0.1};
    CHECK(sharedRate(0.5, others, 1.5) == Approx(0.9));
    others = {0.5, 0.1};
    CHECK(sharedRate(0.9, others, 1.5) == Approx(1.0 / 1.5));
    others = {0.5, 0.9};
    CHECK(sharedRate(0.1, others, 1.5) == 1.0);
}
