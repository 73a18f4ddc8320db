#pragma once
// The colours of what the views draw themselves (timeline, heatmap, breakdown, overlays, the
// grey and red words in rich text), for the palette the app runs with. Light is the designed
// look; a dark palette gets colours derived from it so text and marks keep their contrast.
//
// "Dark" is decided by the window colour's lightness (below the middle), not by
// QStyleHints::colorScheme, which Qt 6.4 (Debian 12) does not have: whatever hands the app its
// palette (QT_QPA_PLATFORMTHEME=gtk3 / qt6ct / kde, a style, `-platform ...`, or
// `contend --palette dark`) is followed.
#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;

namespace contend::widgets {

// True when the palette's window colour is dark (HSL lightness below 128).
bool isDarkPalette(const QPalette& p);

// WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black on white); alpha is ignored.
double contrastRatio(const QColor& a, const QColor& b);

// `designed` (a colour chosen for a light background) moved in lightness, hue kept, until it
// has at least `minRatio` contrast on `background`; returned unchanged when it already has.
QColor readableOn(const QColor& designed, const QColor& background, double minRatio = 4.5);

struct ViewColors {
    bool dark = false;
    // Timeline.
    QColor background{0xfb, 0xfb, 0xfc};  // lanes
    QColor stripe{0xf1, 0xf3, 0xf6};      // every other track
    QColor header{0xe2, 0xe6, 0xeb};      // group headers
    QColor counterRow{0xf4, 0xf7, 0xf4};
    QColor gutter{0xf7, 0xf8, 0xfa};  // track labels
    QColor ruler{0xee, 0xf0, 0xf3};
    QColor grid{0, 0, 0, 22};
    QColor text{0x20, 0x24, 0x28};
    QColor mutedText{0x60, 0x66, 0x6e};
    QColor tick{0x70, 0x76, 0x7e};
    QColor separator{0xc8, 0xcc, 0xd2};
    QColor bracket{0x33, 0x33, 0x33};
    QColor labelBackdrop{255, 255, 255, 200};  // behind text drawn over marks
    QColor hoverOutline{0, 0, 0, 140};
    QColor counterBaseline{0, 0, 0, 30};
    QColor accent{0x15, 0x65, 0xc0};   // cursor line, box zoom, selection outline
    QColor measure{0x19, 0x76, 0xd2};  // a measured range
    QColor flow{0x6a, 0x1b, 0x9a};     // launch-flow arrows
    // Plots (heatmap, breakdown, shift chart).
    QColor plotBackground{Qt::white};
    QColor plotText{Qt::black};
    QColor plotGrid{200, 200, 200};
    QColor heatEmpty{0xf7, 0xf8, 0xfa};  // a heatmap cell with nothing in it
    QColor windowOutline{0x0d, 0x47, 0xa1};
    QColor histogramFill{0x9e, 0xb9, 0xd4};
    QColor histogramPen{0x5b, 0x7a, 0x99};
    QColor good{0x2e, 0x7d, 0x32};  // baseline mark, "faster"
    QColor bad{0xc6, 0x28, 0x28};   // "this" mark, "flagged", "slower"
};

// The view colours for a palette: the designed light ones, or (dark palette) ones built from
// its base, window and text colours.
ViewColors viewColors(const QPalette& p);
// Of the application's palette.
ViewColors viewColors();

// `designed` as a CSS colour for rich text shown on the palette's base (tooltips, Details,
// labels): unchanged on a light palette, made readable on a dark one.
QString cssColor(const QPalette& p, const QColor& designed);
QString cssColor(const QColor& designed);

// Rich text or a style sheet with every `color:#rgb` / `color: #rrggbb` made readable on the
// palette (cssColor); unchanged on a light palette. Applied where the views hand out HTML.
QString themedHtml(const QString& html, const QPalette& p);
QString themedHtml(const QString& html);

// A dark palette for the Fusion style (`contend --palette dark`, tests), for systems whose
// platform theme gives none.
QPalette darkPalette();

// Background, axes, ticks, labels and grid of a QCustomPlot in these colours (QCustomPlot
// draws black on white whatever the palette).
void stylePlot(QCustomPlot* plot, const ViewColors& c);

}  // namespace contend::widgets
