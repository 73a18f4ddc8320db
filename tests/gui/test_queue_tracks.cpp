// HTA's queue length under each stream on the timeline (queue_tracks.h, a Queue row right
// under the stream's lanes, pinned and hidden with it, drawn as a step series scaled to its
// maximum), none for a trace without launches linked to kernels; and what a finding's stream was
// doing around it in Details (stream_context.h: idle share, queue length at its launch and
// start, median while it ran).
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "gui_support.h"
#include "widgets/details/operator_details.h"
#include "widgets/details/stream_context.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/queue_tracks.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/track_layout.h"

using namespace contend;
using namespace contend::widgets;

namespace {

constexpr TimeNs us = 1000;

std::string launched(const char* name, int stream, int callUs, int startUs, int durUs, int corr) {
    return "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
           "\"ts\": " +
           std::to_string(callUs) + ", \"dur\": 1, \"args\": {\"correlation\": " + std::to_string(corr) +
           "}},\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name +
           "\", \"pid\": 0, \"tid\": " + std::to_string(stream) + ", \"ts\": " + std::to_string(startUs) +
           ", \"dur\": " + std::to_string(durUs) + ", \"args\": {\"stream\": " + std::to_string(stream) +
           ", \"device\": 0, \"correlation\": " + std::to_string(corr) + "}}";
}

// Stream 7: a launched at 10 runs [20, 30), b launched at 12 runs [30, 40), c launched at 20
// runs [45, 50): the queue is 1 2 1 2 1 0 at 10 12 20 20 30 45 us. Stream 8: d [60, 70), with no
// launch linked to it.
TracePtr queued() {
    return test::loadJson("{\"traceEvents\": [\n" + launched("a", 7, 10, 20, 10, 1) + ",\n" +
                          launched("b", 7, 12, 30, 10, 2) + ",\n" + launched("c", 7, 20, 45, 5, 3) + ",\n" +
                          "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"d\", \"pid\": 0, \"tid\": 8, \"ts\": 60, "
                          "\"dur\": 10, \"args\": {\"stream\": 8, \"device\": 0}}\n]}");
}

std::uint32_t trackOfStream(const Trace& t, const char* tid) {
    for (std::uint32_t k = 0; k < t.tracks().size(); ++k)
        if (t.tracks()[k].kind == TrackKind::DeviceStream && t.tracks()[k].tid == tid) return k;
    return kNone;
}

std::vector<std::size_t> queueRows(const TrackLayout& l) {
    std::vector<std::size_t> out;
    for (std::size_t r = 0; r < l.rows().size(); ++r)
        if (l.rows()[r].kind == RowKind::Queue) out.push_back(r);
    return out;
}

}  // namespace

TEST_CASE("queue tracks: a queue row right under each stream with launches, pinned and hidden with it") {
    const TracePtr trace = queued();
    const TimelineDataPtr data = makeTimelineData(trace);
    const QueueTracksPtr queues = makeQueueTracks(*trace);
    const std::uint32_t s7 = trackOfStream(*trace, "7"), s8 = trackOfStream(*trace, "8");
    REQUIRE(s7 != kNone);
    REQUIRE(s8 != kNone);
    REQUIRE(queues->tracks.size() == 1);
    CHECK(queues->tracks[0].series->track == s7);
    CHECK(queues->ofTrack[s7] == 0);
    CHECK(queues->ofTrack[s8] == kNone);

    LayoutOptions o;
    o.queueOfTrack = queues->ofTrack;
    o.arrangement = TrackArrangement(*trace);
    {
        const TrackLayout l(*trace, data->index, o);
        const auto rows = queueRows(l);
        REQUIRE(rows.size() == 1);
        const LayoutRow& q = l.rows()[rows[0]];
        CHECK(q.track == s7);
        CHECK(q.counter == 0);
        CHECK(q.h == o.queueHeight);
        // Right under the stream's lanes, outside its span (windows and the critical path stay on the lanes).
        const LayoutRow& above = l.rows()[rows[0] - 1];
        CHECK(above.kind == RowKind::Lane);
        CHECK(above.track == s7);
        CHECK(l.trackSpan(s7).second == q.y);
    }
    o.arrangement.setPinned(s7, true);
    {
        const TrackLayout l(*trace, data->index, o);
        const auto rows = queueRows(l);
        REQUIRE(rows.size() == 1);
        CHECK(l.rows()[rows[0]].pinned);
        CHECK(l.rows()[rows[0]].y + l.rows()[rows[0]].h <= l.pinnedHeight());
    }
    o.arrangement.setPinned(s7, false);
    o.arrangement.setHidden(s7, true);
    CHECK(queueRows(TrackLayout(*trace, data->index, o)).empty());
}

TEST_CASE("queue tracks: drawn as a step series scaled to its maximum") {
    const TracePtr trace = queued();
    const TimelineDataPtr data = makeTimelineData(trace);
    const QueueTracksPtr queues = makeQueueTracks(*trace);
    LayoutOptions o;
    o.queueOfTrack = queues->ofTrack;
    const TrackLayout layout(*trace, data->index, o);
    DrawInput in;
    in.trace = trace.get();
    in.index = &data->index;
    in.layout = &layout;
    in.queues = &queues->tracks;
    // 1 px per us from 0 to 80 us.
    in.axis.t0 = 0;
    in.axis.t1 = 80 * us;
    in.axis.widthPx = 80;
    in.viewHeight = 1000;
    const DrawList list = buildDrawList(in);
    const auto q =
        std::find_if(list.counters.begin(), list.counters.end(), [](const DrawCounter& c) { return c.queue; });
    REQUIRE(q != list.counters.end());
    CHECK(q->maxValue == 2);
    REQUIRE(q->columns.size() == 80);
    CHECK(std::isnan(q->columns[5]));      // before the first launch
    CHECK(q->columns[10] == Approx(0.5));  // [10, 11): 1
    CHECK(q->columns[15] == Approx(1.0));  // 2
    CHECK(q->columns[20] == Approx(1.0));  // at 20 it is 1 then 2 again: the column's max
    CHECK(q->columns[35] == Approx(0.5));  // 1 until c starts
    CHECK(q->columns[47] == Approx(0.0));  // empty after 45
}

TEST_CASE("queue tracks: none for a trace without launches linked to kernels") {
    const TracePtr trace = test::loadJson(
        R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 5,)"
        R"( "args": {"stream": 7, "device": 0}}]})");
    const TimelineDataPtr data = makeTimelineData(trace);
    const QueueTracksPtr queues = makeQueueTracks(*trace);
    CHECK(queues->tracks.empty());
    LayoutOptions o;
    o.queueOfTrack = queues->ofTrack;
    CHECK(queueRows(TrackLayout(*trace, data->index, o)).empty());
}

TEST_CASE("details: what a finding's stream was doing around it") {
    const TracePtr trace = queued();
    const QueueTracksPtr queues = makeQueueTracks(*trace);
    const std::uint32_t b = test::findSlice(*trace, "b", 30 * us), c = test::findSlice(*trace, "c", 45 * us),
                        d = test::findSlice(*trace, "d", 60 * us);
    REQUIRE(b != kNone);
    REQUIRE(c != kNone);
    REQUIRE(d != kNone);
    // No report: the queue alone.
    const auto cb = streamContext(*trace, *queues, nullptr, b);
    REQUIRE(cb);
    CHECK(cb->stream == 7);
    CHECK(cb->atLaunch == 2);  // launched at 12: a and b waiting
    CHECK(cb->atStart == 1);   // at 30 b starts: c still waiting
    CHECK(cb->medianWhileRunning == 1);
    CHECK(cb->idleShare == -1);
    const auto cc = streamContext(*trace, *queues, nullptr, c);
    REQUIRE(cc);
    CHECK(cc->atLaunch == 2);
    CHECK(cc->atStart == 0);
    CHECK_FALSE(streamContext(*trace, *queues, nullptr, d));  // stream 8: nothing linked

    // With the report's idle breakdown: 10 us idle over the stream's span [20, 50) us.
    auto report = std::make_shared<Report>();
    StreamIdle idle;
    idle.stream = 7;
    idle.hostWaitNs = 5 * us;
    idle.kernelWaitNs = 3 * us;
    idle.otherNs = 2 * us;
    report->breakdowns.idle.rows.push_back(idle);
    const auto withIdle = streamContext(*trace, *queues, report.get(), b);
    REQUIRE(withIdle);
    CHECK(withIdle->idleShare == Approx(1.0 / 3.0));

    OperatorDetails details;
    ViewInputs in;
    in.trace = trace;
    in.timeline = makeTimelineData(trace);
    in.queues = queues;
    in.report = report;
    details.showTrace(in);
    details.showSlice(b);
    const QString text = details.toPlainText();
    CHECK(text.contains(QStringLiteral("stream 7, idle 33.3% of its span")));
    CHECK(text.contains(QStringLiteral("2 at its launch, 1 at its start, median 1 while it ran")));
    details.showSlice(d);
    CHECK_FALSE(details.toPlainText().contains(QStringLiteral("at its start")));
}
