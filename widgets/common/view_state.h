#pragma once
// The state several views show at once, as objects they subscribe to (after Qt Creator's
// TimelineZoomControl): the visible time range (ZoomControl) and the selected operator
// (SelectionControl). A view publishes what the user did to it and applies what the control says,
// and applying never publishes again, so views stay in step without guard flags:
//  - the main window has one ZoomControl (timeline and heatmap) and one SelectionControl
//    (timeline, details, breakdown, tables);
//  - the compare window's two timelines and heatmaps share one ZoomControl, each view at its
//    run's offset (the alignment), and each run has its own SelectionControl.
#include <QObject>

#include "core/trace/types.h"

namespace contend::widgets {

class ZoomControl : public QObject {
    Q_OBJECT
  public:
    explicit ZoomControl(QObject* parent = nullptr) : QObject(parent) {}

    qint64 start() const { return m_t0; }
    qint64 end() const { return m_t1; }
    bool isSet() const { return m_set; }
    // A view changed the range (zoom, pan, a new trace): every bound view follows. Setting the
    // range it already has does nothing, so a view that applies the range it published ends the
    // round.
    void setRange(qint64 t0, qint64 t1);

  signals:
    void rangeChanged(qint64 t0, qint64 t1);

  private:
    qint64 m_t0 = 0;
    qint64 m_t1 = 0;
    bool m_set = false;
};

class SelectionControl : public QObject {
    Q_OBJECT
  public:
    explicit SelectionControl(QObject* parent = nullptr) : QObject(parent) {}

    quint32 selected() const { return m_slice; }
    // Selects an operator (kNone clears). Every subscriber hears it, also when it is the
    // operator already selected: picking it again shows it again in a pane that shows something
    // else meanwhile (a window in Details).
    void select(quint32 slice);
    // Nothing selected, told to no one: for a new trace, whose views start with nothing selected.
    void clear() { m_slice = kNone; }

  signals:
    void selectionChanged(quint32 slice);

  private:
    quint32 m_slice = kNone;
};

}  // namespace contend::widgets
