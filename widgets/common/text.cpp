#include "widgets/common/text.h"

#include <cstdlib>

#include "core/trace/time_format.h"

namespace contend::widgets {

QString resourceLabel(Resource r) {
    switch (r) {
    case Resource::Bandwidth: return QStringLiteral("bandwidth");
    case Resource::Compute: return QStringLiteral("compute");
    case Resource::Cache: return QStringLiteral("cache");
    case Resource::Issue: return QStringLiteral("issue");
    case Resource::Sync: return QStringLiteral("sync");
    case Resource::Lock: return QStringLiteral("lock");
    case Resource::Queue: return QStringLiteral("queue");
    case Resource::Unknown: return QStringLiteral("unknown");
    case Resource::None: break;
    }
    return QStringLiteral("-");
}

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

QString timeText(TimeNs t) {
    const double a = static_cast<double>(std::llabs(t));
    if (a < 1e3) return QStringLiteral("%1 ns").arg(t);
    if (a < 1e6) return QStringLiteral("%1 us").arg(static_cast<double>(t) / 1e3, 0, 'f', 3);
    if (a < 1e9) return QStringLiteral("%1 ms").arg(static_cast<double>(t) / 1e6, 0, 'f', 6);
    return QStringLiteral("%1 s").arg(static_cast<double>(t) / 1e9, 0, 'f', 9);
}

QString trackLabel(const Trace& trace, std::uint32_t track) {
    if (track >= trace.tracks().size()) return {};
    return QString::fromStdString(trace.tracks()[track].label());
}

QString sliceName(const Trace& trace, std::uint32_t slice) {
    if (slice >= trace.slices().size()) return {};
    const std::string_view n = trace.str(trace.slices()[slice].name);
    return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
}

}  // namespace contend::widgets
