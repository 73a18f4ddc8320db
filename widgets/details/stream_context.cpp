#include "widgets/details/stream_context.h"

#include <QObject>

#include "widgets/common/text.h"

namespace contend::widgets {

std::optional<StreamContext> streamContext(const Trace& trace, const QueueTracks& queues, const Report* report,
                                           std::uint32_t slice) {
    const breakdowns::QueueSeries* q = queues.ofSlice(trace, slice);
    if (!q) return std::nullopt;
    const Slice& s = trace.slices()[slice];
    StreamContext c;
    c.stream = q->stream;
    const std::uint32_t launch = trace.infos()[slice].launch;
    if (launch != kNone && launch < trace.slices().size())
        c.atLaunch = breakdowns::queueLengthAt(*q, trace.slices()[launch].start);
    c.atStart = breakdowns::queueLengthAt(*q, s.start);
    c.medianWhileRunning = breakdowns::queueLengthMedianOver(*q, s.start, s.start + s.dur);
    const TimeNs span = q->lastEnd - q->firstStart;
    if (report && span > 0)
        for (const StreamIdle& idle : report->breakdowns.idle.rows)
            if (idle.stream == q->stream) {
                c.hostWaitNs = idle.hostWaitNs;
                c.kernelWaitNs = idle.kernelWaitNs;
                c.otherNs = idle.otherNs;
                c.idleShare =
                    static_cast<double>(idle.hostWaitNs + idle.kernelWaitNs + idle.otherNs) / static_cast<double>(span);
            }
    return c;
}

QString streamIdleText(const StreamContext& c) {
    QString text = QObject::tr("stream %1").arg(c.stream);
    if (c.idleShare < 0) return text;
    return text + QObject::tr(", idle %1% of its span (host wait %2, kernel wait %3, other %4)")
                      .arg(100.0 * c.idleShare, 0, 'f', 1)
                      .arg(durationText(c.hostWaitNs), durationText(c.kernelWaitNs), durationText(c.otherNs));
}

QString queueContextText(const StreamContext& c) {
    QString text = c.atLaunch >= 0 ? QObject::tr("%1 at its launch, ").arg(c.atLaunch) : QString();
    return text + QObject::tr("%1 at its start, median %2 while it ran").arg(c.atStart).arg(c.medianWhileRunning);
}

}  // namespace contend::widgets
