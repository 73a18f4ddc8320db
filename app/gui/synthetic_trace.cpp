#include "app/gui/synthetic_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/io/json/chrome_json_reader.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"

namespace contend::gui {

TracePtr makeSyntheticTrace(std::size_t operators, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    TraceBuilder b(kKinetoFormat);
    b.source().path = "synthetic";
    std::vector<StringId> kernels;
    std::vector<double> baseNs;
    const char* families[] = {"gemm",      "conv_fwd",  "layernorm", "softmax",
                              "attention", "allreduce", "memcpy",    "elementwise"};
    for (int i = 0; i < 48; ++i) {
        kernels.push_back(b.intern(std::string(families[i % 8]) + "_kernel_" + std::to_string(i)));
        baseNs.push_back(800.0 * std::pow(1.12, i));  // 0.8 us .. ~170 us
    }
    const StringId kernelCat = b.intern("kernel");
    const StringId cpuCat = b.intern("cpu_op");
    const std::size_t deviceOps = operators * 85 / 100;
    const int streams = 8;
    b.setProcessName("0", "GPU 0");
    std::vector<std::uint32_t> streamTracks;
    for (int s = 0; s < streams; ++s) {
        const std::string tid = std::to_string(7 + s);
        streamTracks.push_back(b.track("0", tid));
        b.setThreadName("0", tid, "stream " + tid);
    }
    TimeNs end = 0;
    for (int s = 0; s < streams; ++s) {
        TimeNs t = static_cast<TimeNs>(u(rng) * 5000);
        const std::size_t n = deviceOps / streams + (static_cast<std::size_t>(s) < deviceOps % streams ? 1 : 0);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = static_cast<std::size_t>(u(rng) * u(rng) * 48);
            Slice sl;
            sl.start = t;
            sl.dur = std::max<TimeNs>(200, static_cast<TimeNs>(baseNs[k] * (0.9 + 0.3 * u(rng))));
            sl.name = kernels[k];
            sl.category = kernelCat;
            sl.track = streamTracks[static_cast<std::size_t>(s)];
            sl.flags = kSliceDevice;
            b.addSlice(sl);
            t += sl.dur + static_cast<TimeNs>(200 + u(rng) * (u(rng) < 0.02 ? 200000 : 3000));
        }
        end = std::max(end, t);
    }
    // Host threads: outer ops with nested children, spread over the same span.
    b.setProcessName("100", "python3");
    const std::size_t hostOps = operators - deviceOps;
    const StringId outer = b.intern("aten::linear");
    const StringId mid = b.intern("aten::addmm");
    const StringId inner = b.intern("cudaLaunchKernel");
    for (int h = 0; h < 2; ++h) {
        const std::uint32_t track = b.track("100", std::to_string(100 + h));
        const std::size_t groups = hostOps / 2 / 4;
        const double step = static_cast<double>(end) / static_cast<double>(std::max<std::size_t>(groups, 1));
        for (std::size_t g = 0; g < groups; ++g) {
            const TimeNs t = static_cast<TimeNs>(static_cast<double>(g) * step);
            const TimeNs d = static_cast<TimeNs>(step * 0.8);
            Slice sl;
            sl.track = track;
            sl.category = cpuCat;
            sl.start = t, sl.dur = d, sl.name = outer;
            b.addSlice(sl);
            sl.start = t + d / 10, sl.dur = d / 2, sl.name = mid;
            b.addSlice(sl);
            sl.start = t + d / 8, sl.dur = d / 8, sl.name = inner;
            b.addSlice(sl);
            sl.start = t + d / 3, sl.dur = d / 8, sl.name = inner;
            b.addSlice(sl);
        }
    }
    // Counters: one sample every ~2 us.
    const char* counterNames[] = {"HBM Bandwidth", "SM Active", "L2 Hit Rate", "Issue Slots"};
    const char* keys[] = {"Read(MB/s)", "Active(%)", "Hit(%)", "Slots(%)"};
    for (int c = 0; c < 4; ++c) {
        for (TimeNs t = 0; t < end; t += 2000) {
            const double phase = static_cast<double>(t) / 1e6;
            const double v = c == 0 ? 4000 + 3000 * std::sin(phase * (1 + c)) + 500 * u(rng)
                                    : 50 + 40 * std::sin(phase * (1.3 + c)) + 5 * u(rng);
            b.addCounter("0", counterNames[c], "", keys[c], t, v);
        }
    }
    return b.finalize();
}

SyntheticOverlay makeSyntheticOverlay(const Trace& trace, double flaggedFraction, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Report r;
    r.settings.coefficient = 3.0;
    const auto& slices = trace.slices();
    const Resource causes[] = {Resource::Bandwidth, Resource::Compute, Resource::Cache, Resource::Issue,
                               Resource::Sync};
    std::vector<float> sliceScore(slices.size(), std::numeric_limits<float>::quiet_NaN());
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        if (!slices[i].is(kSliceDevice)) continue;
        sliceScore[i] = static_cast<float>(u(rng) * 2);
        if (u(rng) < flaggedFraction) {
            Anomaly a;
            a.slice = i;
            a.score = 3 + u(rng) * 8;
            a.cause = causes[static_cast<std::size_t>(u(rng) * 5)];
            a.baselineNs = slices[i].dur * 2 / 3;
            a.excessNs = slices[i].dur - a.baselineNs;
            sliceScore[i] = static_cast<float>(a.score);
            r.anomalies.push_back(a);
        }
    }
    std::sort(r.anomalies.edit().begin(), r.anomalies.edit().end(),
              [](const Anomaly& a, const Anomaly& b) { return a.score > b.score; });
    for (std::uint32_t i = 0; i < r.anomalies.size(); ++i) r.anomalies.edit(i).id = i;
    // Windows around every 20th anomaly, joining its stream and the next one.
    for (std::size_t i = 0; i < r.anomalies.size(); i += 20) {
        const Slice& s = slices[r.anomalies[i].slice];
        ContentionWindow w;
        w.id = static_cast<std::uint32_t>(r.windows.size());
        w.resource = causes[i % 5];
        w.start = s.start;
        w.end = s.end();
        w.overlapRatio = 0.8;
        WindowOp op;
        op.slice = r.anomalies[i].slice;
        op.extraWaitNs = r.anomalies[i].excessNs;
        w.ops.push_back(op);
        op.slice = r.anomalies[(i + 7) % r.anomalies.size()].slice;
        op.extraWaitNs = 0;
        w.ops.push_back(op);
        r.windows.push_back(w);
    }
    // Clusters: runs of 30 consecutive operators on the first stream every so often.
    const std::uint32_t first = trace.trackOrder().empty() ? 0 : trace.trackOrder()[0];
    const Track& tr = trace.tracks()[first];
    for (std::uint32_t i = tr.sliceBegin; i + 30 < tr.sliceEnd; i += 3000) {
        Cluster c;
        c.id = static_cast<std::uint32_t>(r.clusters.size());
        c.track = first;
        c.firstSlice = i;
        c.lastSlice = i + 29;
        c.start = slices[i].start;
        c.end = slices[i + 29].end();
        c.ops = 30;
        r.clusters.push_back(c);
    }
    // A critical path for the overlay: runs of 500 operators on one device stream after another,
    // plus 1% of the operators anywhere (many short stretches: the folding's worst case).
    r.whatIf.computed = true;
    std::vector<TimeNs> sliceSlack(slices.size(), 1000);
    std::uint32_t deviceTracks = 0;
    for (std::uint32_t t : trace.trackOrder()) {
        const Track& dt = trace.tracks()[t];
        if (dt.sliceEnd == dt.sliceBegin || !slices[dt.sliceBegin].is(kSliceDevice)) continue;
        ++deviceTracks;
    }
    std::uint32_t nth = 0;
    for (std::uint32_t t : trace.trackOrder()) {
        const Track& dt = trace.tracks()[t];
        if (dt.sliceEnd == dt.sliceBegin || !slices[dt.sliceBegin].is(kSliceDevice)) continue;
        for (std::uint32_t i = dt.sliceBegin; i < dt.sliceEnd; ++i)
            if ((i - dt.sliceBegin) / 500 % std::max(deviceTracks, 1u) == nth || u(rng) < 0.01) sliceSlack[i] = 0;
        ++nth;
    }
    r.summary.anomalies = r.anomalies.size();
    r.summary.windows = r.windows.size();
    r.summary.clusters = r.clusters.size();
    std::vector<std::uint32_t> sliceSignature(slices.size(), kNone);  // no signatures: no analysis
    auto view = std::make_shared<const SliceView>(
        makeSliceView(std::move(sliceScore), std::move(sliceSignature), std::move(sliceSlack), 0));
    return {std::move(r), std::move(view)};
}

}  // namespace contend::gui
