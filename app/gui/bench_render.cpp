#include "app/gui/bench_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include "app/gui/analysis_session.h"
#include "app/gui/bench_support.h"
#include "app/gui/synthetic_trace.h"
#include "core/io/load.h"
#include "core/pipeline/analyze_trace.h"
#include "core/trace/time_format.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

namespace {

const char* kUsage =
    "usage: contend --bench-render TRACE [options]\n"
    "       contend --bench-render --synthetic N [options]\n"
    "  --synthetic N     a generated trace of N operators (with made-up flags, windows, clusters,\n"
    "                    critical path)\n"
    "  --size WxH        image size (default 1600x900)\n"
    "  --positions K     frames per zoom level, spread over the trace (default 5)\n"
    "  --coefficient K   anomaly threshold on the score for the report whose overlays are drawn:\n"
    "                    0.1 to 50 as in the app (default 3), or 0, which flags every judged op\n"
    "                    with a positive score (the most overlays to draw)\n"
    "  --overlap R       contention window threshold on the overlap ratio, 0.05 to 1 (default 0.7)\n"
    "  --no-analysis     draw TRACE without running the analysis (no overlays)\n"
    "  --expand-hosts    show every lane of the host threads\n"
    "  --no-critical-path  do not draw the critical path overlay (drawn by default, as in the app)\n"
    "  --pattern-marks   mark the runs of the report's contention pattern with the most runs beside\n"
    "                    (as selecting it in the Patterns tab does); the marks column counts them\n"
    "  --marks N         mark N slices of the fullest lane, spread evenly, instead (marks at any scale)\n"
    "  --save-frames DIR write the first frame of each zoom level as DIR/frame-N.png\n";

// CPU time of this thread, ms: on a shared machine the wall time also counts waiting for a core.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

int runBenchRender(const QStringList& args) {
    QString tracePath;
    long long synthetic = 0;
    int width = 1600, height = 900, positions = 5;
    bool analysis = true, expandHosts = false, criticalPath = true, patternMarks = false;
    long long markCount = 0;
    AnalysisSettings settings;
    QString saveDir;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto next = [&]() { return i + 1 < args.size() ? args[++i] : QString(); };
        if (a == "--synthetic")
            synthetic = next().toLongLong();
        else if (a == "--size") {
            const QStringList wh = next().split('x');
            if (wh.size() == 2) width = wh[0].toInt(), height = wh[1].toInt();
        } else if (a == "--positions")
            positions = std::max(1, next().toInt());
        else if (a == "--coefficient" || a == "--overlap") {
            bool ok = false;
            const double v = next().toDouble(&ok);
            // The app's ranges (thresholds.h), and coefficient 0 for the worst case.
            const bool coefficient = a == "--coefficient";
            const bool inRange =
                coefficient ? v == 0 || Thresholds::coefficientInRange(v) : Thresholds::overlapRatioInRange(v);
            if (!ok || !inRange) {
                const std::string what = coefficient ? coefficientRangeText("--coefficient") + " (or 0)"
                                                     : overlapRatioRangeText("--overlap");
                std::fprintf(stderr, "contend --bench-render: %s\n%s", what.c_str(), kUsage);
                return 2;
            }
            (a == "--coefficient" ? settings.coefficient : settings.overlapRatio) = v;
        } else if (a == "--no-analysis")
            analysis = false;
        else if (a == "--expand-hosts")
            expandHosts = true;
        else if (a == "--no-critical-path")
            criticalPath = false;
        else if (a == "--pattern-marks")
            patternMarks = true;
        else if (a == "--marks")
            markCount = std::max(0LL, next().toLongLong());
        else if (a == "--save-frames")
            saveDir = next();
        else if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (!a.startsWith("--") && tracePath.isEmpty())
            tracePath = a;
        else {
            std::fprintf(stderr, "contend --bench-render: unknown option '%s'\n%s", qPrintable(a), kUsage);
            return 2;
        }
    }
    if (tracePath.isEmpty() && synthetic <= 0) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    if (width < 100 || height < 100) width = 1600, height = 900;

    QElapsedTimer timer;
    timer.start();
    TracePtr trace;
    std::shared_ptr<const Report> report;
    SliceViewPtr slices;
    widgets::QueueSeriesList queueSeries;  // the analysis' own (null without one)
    if (synthetic > 0) {
        trace = makeSyntheticTrace(static_cast<std::size_t>(synthetic));
        SyntheticOverlay overlay = makeSyntheticOverlay(*trace);
        report = std::make_shared<Report>(std::move(overlay.report));
        slices = std::move(overlay.slices);
        std::printf("synthetic trace: %zu operators, %zu tracks, %zu counters, span %s, built in %.0f ms\n",
                    trace->operatorCount(), trace->tracks().size(), trace->counters().size(),
                    formatDuration(trace->span()).c_str(), static_cast<double>(timer.elapsed()));
    } else {
        LoadResult r = loadTrace(tracePath.toStdString());
        if (!r) {
            std::fprintf(stderr, "contend --bench-render: %s\n", r.failure().message().c_str());
            return 3;
        }
        trace = r.value();
        std::printf("trace %s: %zu operators, %zu tracks, %zu counters, span %s, loaded in %.0f ms\n",
                    qPrintable(tracePath), trace->operatorCount(), trace->tracks().size(), trace->counters().size(),
                    formatDuration(trace->span()).c_str(), static_cast<double>(timer.elapsed()));
        if (analysis) {
            timer.restart();
            PipelineOptions options;
            options.analysis = settings;
            options.weighMemory = false;
            PipelineOutputs made;
            Result<Report> analysed = analyzeTrace(trace, options, &made);
            if (analysed) {
                report = std::make_shared<const Report>(std::move(analysed).value());
                slices = made.prepared->sliceView();
                queueSeries = made.prepared->queueSeries();
                std::printf("analysis: %zu anomalies, %zu windows, %zu clusters in %.0f ms\n", report->anomalies.size(),
                            report->windows.size(), report->clusters.size(), static_cast<double>(timer.elapsed()));
            } else {
                std::printf("analysis failed: %s (drawing without it)\n", analysed.failure().message().c_str());
            }
        }
    }
    timer.restart();
    auto data = widgets::makeTimelineData(trace);
    std::printf("timeline index built in %.0f ms (what the first timeline waits for)\n",
                static_cast<double>(timer.elapsed()));
    // The queue tracks, which come after the first timeline: the app builds them from the
    // analysis' own series; without an analysis, from the trace (HTA's scope and series).
    timer.restart();
    widgets::QueueTracksPtr queues =
        queueSeries ? widgets::makeQueueTracks(*trace, queueSeries) : widgets::makeQueueTracks(*trace);
    std::size_t samples = 0;
    for (const widgets::QueueTrack& q : queues->tracks) samples += q.series->times.size();
    std::printf("queue tracks: %zu streams, %zu samples in %.0f ms (%s, after the first timeline)\n",
                queues->tracks.size(), samples, static_cast<double>(timer.elapsed()),
                queueSeries ? "from the analysis' series" : "HTA's scope and series");

    widgets::TimelineView view;
    view.resize(width, height);
    view.setData(data);
    view.setQueueTracks(queues);
    view.setReport(report, slices);
    view.setCriticalPathShown(criticalPath);  // on: as the app draws it by default (View > Critical Path)
    if (expandHosts)
        for (std::uint32_t t = 0; t < trace->tracks().size(); ++t)
            if (trace->tracks()[t].kind == TrackKind::HostThread) view.setHostExpanded(t, true);
    if (patternMarks && report && !report->patterns.empty()) {
        const auto most = std::max_element(
            report->patterns.begin(), report->patterns.end(),
            [](const ContentionPattern& a, const ContentionPattern& b) { return a.runs.size() < b.runs.size(); });
        view.markPattern(*most, kNone);
        std::printf("marked: %zu runs of pattern #%u\n", most->runs.size(), most->id);
    }
    if (markCount > 0 && !trace->slices().empty()) {
        // Like a pattern's runs: one lane's (the fullest's) slices, N of them spread evenly.
        const widgets::TimelineIndex& index = data->index;
        std::uint32_t fullest = 0;
        for (std::uint32_t l = 0; l < index.laneCount(); ++l)
            if (index.lane(l).slices.size() > index.lane(fullest).slices.size()) fullest = l;
        const std::vector<std::uint32_t>& lane = index.lane(fullest).slices;
        const std::size_t n = lane.size(), k = std::min<std::size_t>(n, static_cast<std::size_t>(markCount));
        std::vector<std::uint32_t> picked;
        for (std::size_t i = 0; i < k; ++i) picked.push_back(lane[i * n / k]);
        view.setMarks(
            std::make_shared<const widgets::SliceMarks>(*trace, index, std::move(picked), "bench marks", kNone));
        std::printf("marked: %zu slices of one lane (of %zu) spread evenly\n", k, n);
    }

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    double lastCpu = 0;
    auto frame = [&]() {
        QPainter p(&image);
        QElapsedTimer t;
        const double cpu0 = threadCpuMs();
        t.start();
        view.paintTimeline(p);
        const double wall = static_cast<double>(t.nsecsElapsed()) / 1e6;
        lastCpu = threadCpuMs() - cpu0;
        return wall;
    };
    view.resetZoom();
    frame();  // warm-up: fonts and glyph caches

    const TimeNs begin = trace->begin();
    const TimeNs span = std::max<TimeNs>(trace->span(), 1);
    std::vector<double> all, allCpu;
    std::printf("%-12s %7s %9s %9s %8s %8s %8s %10s %8s %7s %8s %8s %7s %6s\n", "view", "frames", "median_ms", "max_ms",
                "cpu_ms", "list_ms", "items", "folded", "walked", "bands", "brackets", "f_walked", "path", "marks");
    int level = 0;
    for (TimeNs s = span;; s /= 8, ++level) {
        s = std::max<TimeNs>(s, 1000);
        std::vector<double> times, lists, cpus;
        std::size_t items = 0, bands = 0, brackets = 0, path = 0, marks = 0;
        std::uint64_t folded = 0, walked = 0, findingsWalked = 0;
        for (int k = 0; k < positions; ++k) {
            const double centre = positions == 1 ? 0.5 : (0.1 + 0.8 * k / (positions - 1));
            const TimeNs mid = begin + static_cast<TimeNs>(static_cast<double>(span) * centre);
            view.zoomTo(mid - s / 2, mid + s / 2, 0.0);
            times.push_back(frame());
            if (k == 0 && !saveDir.isEmpty()) image.save(QStringLiteral("%1/frame-%2.png").arg(saveDir).arg(level));
            lists.push_back(view.lastDrawListMs());
            cpus.push_back(lastCpu);
            items = std::max(items, view.drawList().items.size());
            folded = std::max(folded, view.drawList().stats.folded);
            walked = std::max(walked, view.drawList().stats.walked);
            bands = std::max(bands, view.drawList().bands.size());
            brackets = std::max(brackets, view.drawList().brackets.size());
            path = std::max(path, view.drawList().critical.size());
            marks = std::max(marks, view.drawList().marks.size());
            findingsWalked = std::max(findingsWalked, view.drawList().stats.findingsWalked);
        }
        all.insert(all.end(), times.begin(), times.end());
        allCpu.insert(allCpu.end(), cpus.begin(), cpus.end());
        std::printf("%-12s %7zu %9.2f %9.2f %8.2f %8.2f %8zu %10llu %8llu %7zu %8zu %8llu %7zu %6zu\n",
                    formatDuration(s).c_str(), times.size(), benchMedian(times),
                    *std::max_element(times.begin(), times.end()), benchMedian(cpus), benchMedian(lists), items,
                    static_cast<unsigned long long>(folded), static_cast<unsigned long long>(walked), bands, brackets,
                    static_cast<unsigned long long>(findingsWalked), path, marks);
        if (s <= 1000) break;
    }
    std::printf("frames=%zu median_cpu_ms=%.2f max_cpu_ms=%.2f (thread CPU time; the line below is wall time)\n",
                all.size(), benchMedian(allCpu), *std::max_element(allCpu.begin(), allCpu.end()));
    std::printf("median_frame_ms=%.2f max_frame_ms=%.2f\n", benchMedian(all),
                *std::max_element(all.begin(), all.end()));
    std::fflush(stdout);
    return 0;
}

}  // namespace contend::gui
