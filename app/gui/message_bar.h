#pragma once
// A closable strip above the timeline for errors and import warnings in plain words, instead
// of a modal dialog: the window stays usable and the previous trace stays on screen.
#include <QFrame>

class QLabel;
class QToolButton;

namespace contend::gui {

class MessageBar : public QFrame {
    Q_OBJECT
  public:
    enum class Kind { Error, Warning, Info };
    explicit MessageBar(QWidget* parent = nullptr);
    void showMessage(Kind kind, const QString& title, const QStringList& lines = {});
    void clear();
    QString text() const;  // plain text of what is shown (for tests)
    Kind kind() const { return m_kind; }

  private:
    QLabel* m_label;
    QToolButton* m_close;
    Kind m_kind = Kind::Info;
    QString m_plain;
};

}  // namespace contend::gui
