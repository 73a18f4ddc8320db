#pragma once
// What a successful open hands to the window: the trace, its timeline index, the prepared
// analysis (null when there is no engine or it failed, with the reason) and the first report.
#include <memory>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include "app/gui/engine_bridge.h"
#include "core/analysis/report.h"
#include "widgets/timeline/timeline_data.h"

namespace contend::gui {

struct OpenedTrace {
    QString path;
    TracePtr trace;
    widgets::TimelineDataPtr timeline;
    PreparedHandle prepared;
    std::shared_ptr<const Report> report;
    QString analysisError;  // why there is no report, in words
    QStringList warnings;   // import warnings, in words
    double loadSeconds = 0;
    double analysisSeconds = 0;
};

using OpenedTracePtr = std::shared_ptr<const OpenedTrace>;
using ReportPtr = std::shared_ptr<const Report>;

// Import warnings and truncation as sentences: "12 events missing ts (first at byte 1234 (line 5))".
QStringList describeWarnings(const Trace& trace);

}  // namespace contend::gui

Q_DECLARE_METATYPE(contend::gui::OpenedTracePtr)
Q_DECLARE_METATYPE(contend::gui::ReportPtr)
