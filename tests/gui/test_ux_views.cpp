// Issue 17, the last items: the heatmap's time axis on the timeline's pixels, a dark palette
// followed by the custom-drawn views, a click on a table's scroll bar that selects nothing, and
// the breakdown's legend clear of its axis labels.
#include <catch2/catch.hpp>
#include <cmath>

#include <QApplication>
#include <QFocusEvent>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QTest>
#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/view_colors.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_roles.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::openSample;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::waitFor;

namespace {

// The application palette for the scope of a test.
struct ScopedPalette {
    explicit ScopedPalette(const QPalette& p) : m_old(QApplication::palette()) { QApplication::setPalette(p); }
    ~ScopedPalette() { QApplication::setPalette(m_old); }
    QPalette m_old;
};

// The rectangle (in `plot` pixels) where a QCustomPlot axis draws its label, found by asking the
// axis which part lies under each pixel of its axis rect's outer rect.
QRect axisLabelRect(QCustomPlot* plot, QCPAxis* axis) {
    const QRect outer = axis->axisRect()->outerRect();
    QRect found;
    for (int y = outer.top(); y <= outer.bottom(); ++y)
        for (int x = outer.left(); x <= outer.right(); x += 2)
            if (axis->getPartAt(QPointF(x, y)) == QCPAxis::spAxisLabel) found |= QRect(x, y, 2, 1);
    (void)plot;
    return found;
}

}  // namespace

TEST_CASE("the heatmap draws a time at the same x as the timeline under it", "[ux][heatmap]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    QSettings().clear();
    SampleWindow sample;
    MainWindow& w = sample.window;
    TimelineView* tl = w.timeline();
    HeatmapView* h = w.heatmap();
    const TimeNs begin = tl->data()->trace->begin();
    const TimeNs span = tl->data()->trace->span();
    // A time at several places of the view maps to the same screen x in both.
    auto checkAligned = [&] {
        h->refreshNow();
        h->plot()->replot(QCustomPlot::rpImmediateRefresh);
        REQUIRE(h->timeAxisAligned());
        const TimeAxis& ax = tl->axis();
        for (const double f : {0.0, 0.1, 0.5, 0.77, 1.0}) {
            const TimeNs t = ax.t0 + static_cast<TimeNs>(static_cast<double>(ax.span()) * f);
            const double tx = tl->timeArea().left() + ax.toPx(t);
            const int tlGlobal = tl->mapToGlobal(QPoint(static_cast<int>(std::lround(tx)), 0)).x();
            const double hx = h->xOf(t);
            const int hmGlobal = h->plot()->mapToGlobal(QPoint(static_cast<int>(std::lround(hx)), 0)).x();
            INFO("at " << f << " of the view");
            CHECK(std::abs(tlGlobal - hmGlobal) <= 1);
        }
    };
    {
        INFO("as opened");
        pump(100);
        checkAligned();
    }
    for (const int width : {1300, 1600, 2100}) {
        w.resize(width, 1000);
        pump(150);
        for (const double zoom : {1.0, 0.3, 0.02}) {
            // The first zoom is the whole trace; the others a part in its middle.
            if (zoom >= 1.0)
                tl->resetZoom();
            else
                tl->zoomTo(begin + static_cast<TimeNs>(static_cast<double>(span) * (0.5 - zoom / 2)),
                           begin + static_cast<TimeNs>(static_cast<double>(span) * (0.5 + zoom / 2)), 0.0);
            pump(100);
            INFO("window width " << width << ", zoom " << zoom);
            checkAligned();
        }
    }
}

TEST_CASE("the views follow a dark palette and stay readable", "[ux][dark]") {
    // Deciding by the window colour (Qt 6.4 has no colour scheme hint).
    CHECK(isDarkPalette(darkPalette()));
    CHECK_FALSE(isDarkPalette(QApplication::style()->standardPalette()));
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
    CHECK_FALSE(isDarkPalette(light));

    // Contrast of the derived colours on a dark palette.
    const ViewColors dark = viewColors(darkPalette());
    REQUIRE(dark.dark);
    CHECK(contrastRatio(dark.text, dark.background) >= 7);
    CHECK(contrastRatio(dark.text, dark.gutter) >= 7);
    CHECK(contrastRatio(dark.text, dark.header) >= 4.5);
    CHECK(contrastRatio(dark.mutedText, dark.gutter) >= 4.5);
    CHECK(contrastRatio(dark.mutedText, dark.background) >= 4.5);
    CHECK(contrastRatio(dark.plotText, dark.plotBackground) >= 7);
    CHECK(contrastRatio(dark.good, dark.background) >= 4.5);
    CHECK(contrastRatio(dark.bad, dark.background) >= 4.5);
    CHECK(contrastRatio(dark.accent, dark.background) >= 4.5);
    CHECK(contrastRatio(dark.windowOutline, dark.plotBackground) >= 4.5);
    // Rich text greys and reds become readable on the dark base; light text stays as written.
    const QString html = QStringLiteral("<span style='color:#666'>a</span><b style='color: #c62828'>b</b>");
    const QString themed = themedHtml(html, darkPalette());
    CHECK_FALSE(themed.contains(QStringLiteral("#666")));
    CHECK_FALSE(themed.contains(QStringLiteral("#c62828")));
    const QRegularExpression hex(QStringLiteral("#([0-9a-f]{6})"));
    for (auto it = hex.globalMatch(themed); it.hasNext();)
        CHECK(contrastRatio(QColor(it.next().captured(0)), darkPalette().color(QPalette::Base)) >= 4.5);
    CHECK(themedHtml(html, QApplication::style()->standardPalette()) == html);

    // The timeline paints its lanes, gutter and labels from the palette.
    contend::test::TinyTrace b;
    const std::uint32_t s0 = b.stream(7);
    b.op(s0, "conv", 1000, 4000);
    b.op(s0, "gemm", 20000, 4000);
    TracePtr trace = b.finish();
    TimelineDataPtr data = makeTimelineData(trace);
    auto render = [&](const QPalette& p) {
        TimelineView v;
        v.setPalette(p);
        v.resize(800, 300);
        v.setData(data);
        QImage img(v.size(), QImage::Format_ARGB32);
        QPainter painter(&img);
        v.paintTimeline(painter);
        return img;
    };
    const QImage onDark = render(darkPalette());
    const QImage onLight = render(QApplication::style()->standardPalette());
    // An empty spot of the lanes (below the last track).
    const QPoint empty(600, 280);
    CHECK(QColor(onDark.pixel(empty)) == dark.background);
    CHECK(QColor(onLight.pixel(empty)) == ViewColors().background);
    CHECK(QColor(onDark.pixel(empty)).lightness() < 60);
    // The track label in the gutter: its lightest pixel on dark is light (text follows), its
    // darkest on light is dark.
    const QRect gutter(4, 24, 200, 60);
    int lightest = 0, darkest = 255;
    for (int y = gutter.top(); y <= gutter.bottom(); ++y)
        for (int x = gutter.left(); x <= gutter.right(); ++x) {
            lightest = std::max(lightest, QColor(onDark.pixel(x, y)).lightness());
            darkest = std::min(darkest, QColor(onLight.pixel(x, y)).lightness());
        }
    CHECK(lightest > 180);
    CHECK(darkest < 80);
    CHECK(QColor(onDark.pixel(100, 200)) == dark.gutter);

    // The app's windows follow the application palette: the heatmap's empty cells and the
    // breakdown's plot background are dark too.
    const ScopedPalette scoped(darkPalette());
    HeatmapView heat;
    heat.resize(600, 200);
    CHECK(QColor(heat.plot()->toPixmap(600, 200).toImage().pixel(3, 3)) == dark.plotBackground);
    BreakdownView breakdown;
    breakdown.resize(600, 300);
    breakdown.setTrace(trace);
    breakdown.showSlice(0);
    CHECK(QColor(breakdown.plot()->toPixmap(600, 300).toImage().pixel(3, 3)) == dark.plotBackground);
    CHECK(breakdown.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabelColor() == dark.plotText);
}

TEST_CASE("a click on a table's scroll bar selects nothing", "[ux][selection]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    QSettings().clear();
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&w));
    REQUIRE(openSample(w));
    w.selectSlice(kNone, false);
    pump(50);
    TablePanel* p = w.anomalyPanel();
    QTableView* v = p->view();
    REQUIRE(v->selectionModel()->selectedRows().isEmpty());
    const quint32 details = w.details()->slice();
    const quint32 timeline = w.timeline()->selectedSlice();
    QScrollBar* bar = v->verticalScrollBar();
    REQUIRE(bar->isVisible());
    REQUIRE(bar->maximum() > 0);
    // The groove below the handle (a page down), then the handle itself, then back up.
    QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, bar->height() - 25));
    pump(QApplication::doubleClickInterval() + 200);
    CHECK(bar->value() > 0);
    QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, bar->height() / 2));
    pump(100);
    QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, 20));
    pump(QApplication::doubleClickInterval() + 200);
    // The click gave the table the focus; the window losing and regaining the front (how a
    // click on an inactive window arrives under X11) hands it the focus again, not by mouse.
    REQUIRE(QApplication::focusWidget() == v);
    QFocusEvent out(QEvent::FocusOut, Qt::ActiveWindowFocusReason);
    QApplication::sendEvent(v, &out);
    QFocusEvent in(QEvent::FocusIn, Qt::ActiveWindowFocusReason);
    QApplication::sendEvent(v, &in);
    pump(100);
    CHECK(v->selectionModel()->selectedRows().isEmpty());
    CHECK(p->currentSourceRow() == -1);
    CHECK(w.details()->slice() == details);
    CHECK(w.timeline()->selectedSlice() == timeline);
    // A click on a row still picks it.
    QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, QPoint(40, v->rowViewportPosition(1) + 5));
    pump(QApplication::doubleClickInterval() + 200);
    REQUIRE(v->selectionModel()->selectedRows().size() == 1);
    CHECK(w.timeline()->selectedSlice() == v->selectionModel()->selectedRows().front().data(SliceRole).toUInt());
}

TEST_CASE("the breakdown's legend does not cover its axis labels", "[ux][breakdown]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    QSettings().clear();
    SampleWindow sample;  // the default size
    MainWindow& w = sample.window;
    REQUIRE(!w.session()->report()->anomalies.empty());
    w.selectSlice(w.session()->report()->anomalies.front().slice, true);
    pump(200);
    BreakdownView* b = w.breakdown();
    REQUIRE_FALSE(b->isEmptyState());
    b->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QLabel* legend = b->legend();
    REQUIRE(legend->isVisible());
    // All of the legend's text fits its label (nothing drawn beyond it).
    CHECK(legend->heightForWidth(legend->width()) <= legend->height());
    const QRect legendRect(legend->mapTo(b, QPoint(0, 0)), legend->size());
    for (QCPAxisRect* r : b->plot()->axisRects()) {
        const QRect label = axisLabelRect(b->plot(), r->axis(QCPAxis::atBottom));
        REQUIRE_FALSE(label.isEmpty());
        // Drawn inside the plot widget, and clear of the legend.
        CHECK(b->plot()->rect().contains(label));
        const QRect inView(b->plot()->mapTo(b, label.topLeft()), label.size());
        INFO("axis label " << inView.x() << "," << inView.y() << " " << inView.width() << "x" << inView.height()
                           << ", legend " << legendRect.x() << "," << legendRect.y() << " " << legendRect.width() << "x"
                           << legendRect.height());
        CHECK_FALSE(inView.intersects(legendRect));
    }
}
