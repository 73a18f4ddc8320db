#pragma once
// Paints one timeline frame from its draw list: the second step after buildDrawList. Knows
// nothing about input or scrolling; the view and the render benchmark both call it. Keeps
// caches of name text and elided labels across frames (labels are the costly part of a frame).
#include <vector>

#include <QColor>
#include <QFont>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QString>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"
#include "widgets/common/view_colors.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/time_axis.h"
#include "widgets/timeline/track_layout.h"

namespace contend::widgets {

struct TimelineFrame {
    const Trace* trace = nullptr;
    const Report* report = nullptr;
    const TrackLayout* layout = nullptr;
    const DrawList* list = nullptr;
    TimeAxis axis;
    QRect timeArea;  // where the lanes are drawn (widget pixels)
    QRect gutter;    // track labels, left of timeArea, same height
    QRect ruler;     // above timeArea
    double scrollY = 0;
    double cursorX = -1;  // time-area x of the mouse, -1 when outside
    int hoverItem = -1;   // index into list->items
    QRect rubberBand;     // box zoom in progress (widget pixels), empty when none
    ViewColors colors;    // of the palette (the view's), light by default
    // Tracks hidden or filtered out: the ruler's corner says how many (a click there shows them).
    std::uint32_t hiddenTracks = 0;
    // The critical path is drawn: the ruler carries its key.
    bool criticalLegend = false;
    // A track whose name the gutter marks (the Breakdowns tab showed its stream), kNone: none.
    std::uint32_t focusTrack = kNone;
    // What the marked slices are ("412 runs of X beside Y"); empty: no marks, no key.
    QString marksLabel;
};

// Where the ruler's corner says how many tracks are hidden, in the frame's widget pixels (empty
// when none are); the view takes a click there as Show All Tracks.
QRect hiddenHintRect(const TimelineFrame& f, const QFont& font);
// The hint's words: "3 tracks hidden".
QString hiddenHintText(std::uint32_t hidden);
// The critical path's key at the ruler's right end, kRulerKeyMarginPx clear of it, its words in
// full (empty without it, or when the ruler is too short to hold it whole beside the time
// labels: then it is left out rather than cut).
QRect criticalLegendRect(const TimelineFrame& f, const QFont& font);
inline constexpr int kRulerKeyMarginPx = 8;
// The marks' key (timeline_painter_marks.cpp): left of the critical path's, at most half the
// ruler, its words elided in the middle when longer (empty without marks).
QRect marksKeyRect(const TimelineFrame& f, const QFont& font);

class TimelinePainter {
  public:
    TimelinePainter();
    void paint(QPainter& p, const TimelineFrame& f);
    void clearCaches();
    void setFont(const QFont& font);

  private:
    void paintRows(QPainter& p, const TimelineFrame& f);
    void paintGrid(QPainter& p, const TimelineFrame& f);
    void paintBands(QPainter& p, const TimelineFrame& f);
    void paintItems(QPainter& p, const TimelineFrame& f);
    void paintBrackets(QPainter& p, const TimelineFrame& f);
    void paintCritical(QPainter& p, const TimelineFrame& f);
    void paintMarks(QPainter& p, const TimelineFrame& f);
    void paintMarksKey(QPainter& p, const TimelineFrame& f);
    void paintCounters(QPainter& p, const TimelineFrame& f);
    // A Queue row's name in the gutter (row `r`, its text line and view y).
    void paintQueueLabel(QPainter& p, const TimelineFrame& f, std::uint32_t r, const QRect& line, int y);
    void paintGutter(QPainter& p, const TimelineFrame& f);
    void paintRuler(QPainter& p, const TimelineFrame& f);
    void paintRulerKeys(QPainter& p, const TimelineFrame& f);
    const QString& nameOf(const Trace& t, StringId id);
    const QString& elided(const Trace& t, StringId id, int width);

    QFont m_font;
    QFont m_bold;
    QFont m_small;
    int m_charWidth = 7;
    QHash<StringId, QString> m_names;
    QHash<quint64, QString> m_elided;
    QImage m_counterImage;            // scratch for one counter row
    std::vector<QRgb> m_bandColumns;  // scratch: one track's band colour per pixel column
    QImage m_bandImage;               // scratch: one track's shading
    const Trace* m_cachedFor = nullptr;
};

}  // namespace contend::widgets
