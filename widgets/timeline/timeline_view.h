#pragma once
// The operator timeline: one row per lane of each track (device streams first, host threads
// collapsible), counter tracks under them, a time ruler. Each paint builds a draw list over the
// visible range (draw_list.h) and paints it (timeline_painter.h); nothing else walks slices.
//
// Input: wheel zooms around the cursor (Shift+wheel scrolls, a horizontal wheel pans), drag pans,
// right-drag box-zooms, Shift+drag (or a drag on the ruler) measures a range, W/S zoom, A/D pan, F zooms to the selection, R resets,
// click selects, double-click zooms to the operator, Esc clears the selection. Clicking a track
// label expands or collapses a host thread; clicking a group header folds the group.
//
// Tracks (timeline_view_tracks.cpp, after Perfetto and Nsight Systems): right-clicking a track's
// name offers Pin to Top / Unpin, Hide, Move Up, Move Down and Show All Tracks (a counter's: Pin
// to Top / Unpin, Hide and Show All Tracks); pinned tracks stay
// at the top while the rest scrolls; a filter keeps the tracks whose name or process matches, or
// device streams only; the ruler's corner says how many tracks are hidden and a click there
// shows them all. The state is a TrackArrangement (track_arrangement.h), reset by a new trace.
#include <memory>

#include <QElapsedTimer>
#include <QPoint>
#include <QWidget>

#include "core/analysis/model/report.h"
#include "widgets/common/session_view.h"
#include "widgets/timeline/args_fetcher.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/slice_flows.h"
#include "widgets/timeline/slice_marks.h"
#include "widgets/timeline/time_axis.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_painter.h"
#include "widgets/timeline/track_layout.h"

class QMenu;
class QScrollBar;

namespace contend::widgets {

// The tooltip's args section for an event's original JSON: at most a few args, each cut to one
// short line, and how many more are in Details; empty when the event has no args.
QString tooltipArgs(const QString& rawEvent);

class ZoomControl;
class SelectionControl;

class TimelineView : public QWidget, public SessionView {
    Q_OBJECT
  public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // SessionView: a new trace (setData, then its report), or a new report.
    void showTrace(const ViewInputs& in) override;
    void showReport(const ViewInputs& in) override;
    void showAnalysis(const ViewInputs& in) override;
    // Shares the visible range with the other views bound to `zoom`: this view shows the
    // control's range plus `offset` (its run's alignment in compare) and publishes every change
    // it makes itself (zoom, pan, a new trace). Applying the control's range publishes nothing.
    // Bound to a control without a range, a view showing a trace gives it its own.
    void bindZoom(ZoomControl* zoom, qint64 offset = 0);
    // A new alignment: the control's range is shown again at the new offset.
    void setZoomOffset(qint64 offset);
    qint64 zoomOffset() const { return m_zoomOffset; }
    // Shares the selection: a click publishes to `selection`, and the view shows whatever the
    // control selects.
    void bindSelection(SelectionControl* selection);

    // A new trace: the view shows all of it, nothing selected.
    void setData(TimelineDataPtr data);
    // HTA's queue length under each stream (null: none, or not yet); the view keeps its place.
    void setQueueTracks(QueueTracksPtr queues);
    // A new or re-thresholded report for the same trace (nullptr: none) and the trace's
    // per-slice view (slice_view.h: scores, signatures, slack; nullptr: none); the view stays put.
    // `overlay`: the report's overlay built elsewhere (off the GUI thread) for this trace's
    // drawing index; null: built here.
    void setReport(std::shared_ptr<const Report> report, SliceViewPtr slices,
                   std::shared_ptr<const ReportOverlay> overlay = nullptr);
    const TimelineData* data() const { return m_data.get(); }
    const Report* report() const { return m_report.get(); }

    const TimeAxis& axis() const { return m_axis; }
    std::pair<TimeNs, TimeNs> measuredRange() const { return {m_measure0, m_measure1}; }
    std::uint32_t selectedSlice() const { return m_selected; }
    // The track revealTrack marked, kNone when none.
    std::uint32_t focusedTrack() const { return m_focusTrack; }
    // The marked slices (null when none).
    const SliceMarks* marks() const { return m_marks.get(); }
    const TrackLayout& layout() const { return m_layout; }
    // The draw list of the last frame (for tests and hit testing).
    const DrawList& drawList() const { return m_list; }
    double lastFrameMs() const { return m_lastFrameMs; }
    // Of which building the draw list (the rest is painting).
    double lastDrawListMs() const { return m_lastListMs; }
    QRect timeArea() const;
    double scrollY() const { return m_scrollY; }
    bool criticalPathShown() const { return m_showCritical; }
    // Pinned, hidden, moved and filtered tracks (timeline_view_tracks.cpp).
    const TrackArrangement& trackArrangement() const { return m_layoutOptions.arrangement; }
    // A saved arrangement of this trace (one of another trace is ignored); tells tracksChanged.
    void setTrackArrangement(const TrackArrangement& arrangement);
    // The menu a right-click on a track's name opens (Pin to Top or Unpin, Hide, Move Up, Move
    // Down, Show All Tracks), its actions acting on this view; the caller owns it.
    QMenu* trackMenu(quint32 track, QWidget* parent = nullptr);
    // The track whose name is at widget position `pos` in the gutter, kNone if none.
    std::uint32_t trackAtGutter(QPoint pos) const;
    // The same for counter tracks (Pin to Top or Unpin, Hide, Show All Tracks): the counter
    // (index into Trace::counters()) whose name is at `pos`, kNone if none.
    QMenu* counterMenu(quint32 counter, QWidget* parent = nullptr);
    std::uint32_t counterAtGutter(QPoint pos) const;
    // Where the ruler's corner says "N tracks hidden" (a click shows them); empty when none are.
    QRect hiddenTracksHint() const { return m_hiddenHint; }

    // Builds the draw list and paints one full frame at the widget's current size.
    void paintTimeline(QPainter& p);
    // What a navigation key does (W/S zoom, A/D and arrows pan, F, 0/R/Home, Esc); false for
    // other keys. The main window sends these keys here from anywhere but text fields.
    bool navigateKey(int key);
    // Tooltip text of the item at time-area pixel (x, y), empty if none.
    QString tooltipAt(QPoint widgetPos);
    // The gutter's: a track's full name and what a right-click offers; the hidden-tracks hint's.
    QString gutterTooltip(QPoint widgetPos) const;
    QSize sizeHint() const override { return {900, 500}; }

  public slots:
    void zoomTo(qint64 t0, qint64 t1, double margin = 0.1);
    void resetZoom();
    void zoomToSelection();
    // Selects a slice (kNone clears); `reveal` zooms and scrolls to it.
    void selectSlice(quint32 slice, bool reveal = false);
    // What a click, double-click or Esc does: selects through the bound SelectionControl (or
    // directly when unbound), reveals when asked, and tells slicePicked.
    void pickSlice(quint32 slice, bool reveal = false);
    void setHostExpanded(quint32 track, bool expanded);
    void setGroupCollapsed(contend::widgets::TrackGroup group, bool collapsed);
    void scrollToRow(int row);
    // Shows a track (the Breakdowns tab's stream row opened): unhides it and unfolds the device
    // streams if needed, scrolls to it and marks its name in the gutter until another track is
    // revealed or the trace changes. False when it still is not shown (a filter keeps it out).
    bool revealTrack(quint32 track);
    // Marks `marks`' slices (timeline_view_marks.cpp): an outline on each run wide enough to
    // show, a tick along its lane's top where they fold, and the key in the ruler. They stay
    // until another slice than marks->keep() is selected (Esc too), a new trace, or
    // clearMarks(); null clears.
    void setMarks(std::shared_ptr<const contend::widgets::SliceMarks> marks);
    // A contention pattern's runs beside its partner, "N runs of X beside Y", kept with `keep`
    // selected (its costliest run).
    void markPattern(const contend::ContentionPattern& pattern, quint32 keep);
    void clearMarks() { setMarks(nullptr); }
    // Shows a measured range (absolute ns) as a band with its duration; t1 <= t0 clears it.
    // Tells rangeMeasured when the range changes (as a measure with the mouse does).
    void setMeasuredRange(qint64 t0, qint64 t1);
    // The critical path (the report's zero-slack operators) as a bar under each track it runs on.
    void setCriticalPathShown(bool shown);
    void setTrackPinned(quint32 track, bool pinned);
    void setTrackHidden(quint32 track, bool hidden);
    void setCounterPinned(quint32 counter, bool pinned);
    void setCounterHidden(quint32 counter, bool hidden);
    // step -1: up, +1: down, among the tracks shown in its section (pinned, or its group).
    void moveTrack(quint32 track, int step);
    void setTrackFilter(const contend::widgets::TrackFilter& filter);
    // Unhides every track and clears the filter.
    void showAllTracks();

  signals:
    void viewChanged(qint64 t0, qint64 t1);
    void sliceSelected(quint32 slice);   // kNone when cleared
    void slicePicked(quint32 slice);     // the user picked it (click, double-click, Esc): kNone when cleared
    void sliceActivated(quint32 slice);  // double-click
    // A range was measured (Shift+drag, or a drag on the ruler); t1 <= t0 when it was cleared.
    void rangeMeasured(qint64 t0, qint64 t1);
    void frameRendered(double ms);
    // The track arrangement changed (pin, hide, move, filter, a new trace).
    void tracksChanged();

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    bool event(QEvent*) override;

  private:
    // The view's own change of range: shown and published to the ZoomControl.
    void setAxis(const TimeAxis& a);
    // The ZoomControl's range, at this view's offset: shown, not published.
    void applyZoom(qint64 t0, qint64 t1);
    void rebuildLayout();
    // After the arrangement changed: a new layout, the scroll kept in range, tracksChanged.
    void arrangementChanged();
    // The track menus' separator and Show All Tracks (with the count not shown).
    void addShowAll(QMenu* menu);
    void updateScrollBar();
    void setScrollY(double y);
    TimeNs rangeLo() const;
    TimeNs rangeHi() const;
    double cursorPx() const;  // time-area x of the cursor, or the centre
    int itemAt(QPoint widgetPos) const;
    void clickGutter(QPoint widgetPos);
    QString tooltipForItem(const DrawItem& it);

    TimelineDataPtr m_data;
    QueueTracksPtr m_queues;  // null until given (setData forgets them)
    std::shared_ptr<const Report> m_report;
    SliceViewPtr m_slices;
    std::shared_ptr<const SliceMarks> m_marks;
    std::shared_ptr<const ReportOverlay> m_overlay = std::make_shared<const ReportOverlay>();  // never null
    LayoutOptions m_layoutOptions;
    TrackLayout m_layout;
    TimeAxis m_axis;
    double m_scrollY = 0;
    std::uint32_t m_selected = kNone;
    std::uint32_t m_focusTrack = kNone;  // revealTrack's, its name marked in the gutter
    ZoomControl* m_zoom = nullptr;
    qint64 m_zoomOffset = 0;
    SelectionControl* m_selection = nullptr;
    DrawList m_list;
    TimelinePainter m_painter;
    QScrollBar* m_vbar = nullptr;
    ArgsFetcher* m_args = nullptr;
    double m_lastFrameMs = 0;
    double m_lastListMs = 0;

    // Mouse state.
    enum class Drag { None, Pan, Box, Measure };
    TimeNs m_measure0 = 0, m_measure1 = 0;  // measured range, empty when equal
    void paintMeasure(QPainter& p, const QRect& area);
    // The selected operator's launch flows as arrows (source -> launched slice).
    void paintFlows(QPainter& p, const QRect& area);
    SliceFlows m_flows;
    std::uint32_t m_flowsFor = kNone;

  public:
    // The flows drawn for the selection (tests).
    const SliceFlows& selectedFlows() const { return m_flows; }

  private:
    // The layout row whose name is at widget position `pos` in the gutter, nullptr if none.
    const LayoutRow* gutterRowAt(QPoint pos) const;
    // Over a Queue row's time area: the stream's queue length there; empty elsewhere.
    QString queueTooltipAt(QPoint pos) const;

    Drag m_drag = Drag::None;
    bool m_moved = false;
    bool m_showCritical = false;
    QRect m_hiddenHint;
    QPoint m_pressPos;
    TimeAxis m_pressAxis;
    double m_pressScroll = 0;
    QPoint m_mousePos{-1, -1};
    int m_hoverItem = -1;
    std::uint32_t m_tooltipSlice = kNone;
    QPoint m_tooltipPos;

    static constexpr int kGutter = 210;
    static constexpr int kRuler = 24;
};

}  // namespace contend::widgets
