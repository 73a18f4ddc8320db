// What a sampler's means can prove about an interval they straddle
// (ResourceTimeline::bounded, core/analysis/resource_timeline.h), and the copies' own bandwidth
// share against the device's stated peak (copyBandwidthShare, core/analysis/pressure.h).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/analysis/pressure.h"
#include "core/analysis/resource_timeline.h"
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
