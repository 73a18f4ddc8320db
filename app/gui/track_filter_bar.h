#pragma once
// View > Tracks > Filter Tracks (Ctrl+T): a bar above the timeline that filters its tracks, after
// Perfetto's track filter: a text kept in the track's name or its process name, "Device streams
// only", and how many tracks are hidden (by the filter or one by one) with Show All. Esc, or the
// close button, closes the bar and keeps the filter; the timeline's ruler still counts the
// hidden tracks. The bar follows the timeline's arrangement (a new trace, a restored session).
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace contend::widgets {
class TimelineView;
}

namespace contend::gui {

class TrackFilterBar : public QWidget {
    Q_OBJECT
  public:
    explicit TrackFilterBar(widgets::TimelineView* timeline, QWidget* parent = nullptr);
    // Shows the bar and puts the cursor in the text.
    void activate();
    QLineEdit* edit() const { return m_edit; }
    QCheckBox* deviceOnlyBox() const { return m_deviceOnly; }
    // "3 tracks hidden" (empty when none are).
    QString hiddenText() const;
    QToolButton* showAllButton() const { return m_showAll; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void apply();  // the fields -> the timeline's filter
    void sync();   // the timeline's arrangement -> the fields and the count

    widgets::TimelineView* m_timeline;
    QLineEdit* m_edit;
    QCheckBox* m_deviceOnly;
    QLabel* m_hidden;
    QToolButton* m_showAll;
    QToolButton* m_close;
    bool m_syncing = false;
};

}  // namespace contend::gui
