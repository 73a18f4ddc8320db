#pragma once
// What the single-trace Breakdowns (HTA) tab and the cluster window's per-rank tab draw alike:
// stacked bars in percent of a whole, and the legend in rows under the plot, never over a bar.
#include <QColor>
#include <QString>

#include "core/trace/types.h"

class QCPBars;
class QCustomPlot;

namespace contend::widgets {

struct ViewColors;

// A bar series on the plot's axes, filled with `color` and edged a shade darker.
QCPBars* stackedBars(QCustomPlot* plot, const QString& name, const QColor& color);
// Moves the plot's legend out of the axis rect into a row under it, `perRow` items a row.
void legendUnderPlot(QCustomPlot* plot, const ViewColors& colors, int perRow);
// part in percent of whole (0 when whole is not positive).
double percentOf(TimeNs part, TimeNs whole);

}  // namespace contend::widgets
