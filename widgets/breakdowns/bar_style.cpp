#include "widgets/breakdowns/bar_style.h"

#include <qcustomplot.h>

#include "widgets/common/view_colors.h"

namespace contend::widgets {

QCPBars* stackedBars(QCustomPlot* plot, const QString& name, const QColor& color) {
    auto* b = new QCPBars(plot->xAxis, plot->yAxis);
    b->setName(name);
    b->setBrush(color);
    b->setPen(QPen(color.darker(130)));
    b->setWidth(0.6);
    return b;
}

void legendUnderPlot(QCustomPlot* plot, const ViewColors& colors, int perRow) {
    plot->legend->setVisible(true);
    // The legend leaves the axis rect's inset layout for a row of the plot's own layout.
    auto* row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
    plot->axisRect()->insetLayout()->take(plot->legend);
    row->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(perRow);
    plot->legend->setIconSize(10, 10);
    plot->legend->setRowSpacing(0);
    if (colors.dark) {
        plot->legend->setBrush(QBrush(colors.plotBackground));
        plot->legend->setTextColor(colors.plotText);
        plot->legend->setBorderPen(QPen(colors.separator));
    }
}

double percentOf(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace contend::widgets
