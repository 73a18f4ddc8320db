#pragma once
// Ctrl+F over every operator of the trace: a bar above the timeline with the text (a substring,
// or a regular expression when "Regex" is ticked), previous / next (Shift+Enter / Enter, or
// Shift+F3 / F3) that select the match on the timeline and zoom to it, and "3 of 128 matches".
// Esc closes it.
#include <vector>

#include <QWidget>

#include "core/trace/trace.h"
#include "widgets/common/session_view.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace contend::gui {

class SearchBar : public QWidget, public widgets::SessionView {
    Q_OBJECT
  public:
    explicit SearchBar(QWidget* parent = nullptr);
    void showTrace(const widgets::ViewInputs& in) override { setTrace(in.trace); }
    void showReport(const widgets::ViewInputs&) override {}
    void setTrace(TracePtr trace);
    // Shows the bar and puts the cursor in the text.
    void activate();
    QLineEdit* edit() const { return m_edit; }
    QCheckBox* regexBox() const { return m_regex; }
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    int currentMatch() const { return m_current; }  // -1 before next/previous
    QString countText() const;
    const std::vector<std::uint32_t>& matches() const { return m_matches; }

  public slots:
    void next();
    void previous();

  signals:
    // The match to show: select it everywhere and zoom the timeline to it.
    void matchPicked(quint32 slice);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void search();
    void step(int by);
    void updateCount();

    TracePtr m_trace;
    std::vector<std::uint32_t> m_matches;
    int m_current = -1;
    QString m_error;
    QLineEdit* m_edit;
    QCheckBox* m_regex;
    QToolButton* m_prev;
    QToolButton* m_next;
    QToolButton* m_close;
    QLabel* m_count;
};

}  // namespace contend::gui
