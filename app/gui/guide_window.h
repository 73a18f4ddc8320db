#pragma once
// Help ▸ How Contend Decides: the method guide (docs/how-contend-decides.md, compiled into the
// app) rendered in a window of its own, with its headings as a table of contents. One window
// for the application; showSection() raises it at a section, which is what the "?" links beside
// a finding's baseline, cause, windows and gain open (OperatorDetails::guideLinkActivated).
#include <QWidget>

class QListWidget;
class QTextBrowser;

namespace contend::gui {

class GuideWindow : public QWidget {
    Q_OBJECT
  public:
    // The guide's window, made on first use, shown and raised at the section whose heading
    // starts with `section` ("3." for the cause, "7." for the what-if); the top when empty or
    // unknown. Returns the window (for tests).
    static GuideWindow* showSection(const QString& section = {});
    // The headings as the table of contents lists them.
    QStringList headings() const;
    // The heading shown at the top of the text now.
    QString currentHeading() const;
    QTextBrowser* browser() const { return m_text; }

  private:
    explicit GuideWindow(QWidget* parent = nullptr);
    bool scrollTo(const QString& section);
    QListWidget* m_toc;
    QTextBrowser* m_text;
};

// The guide's Markdown text (from the app's resources).
QString guideMarkdown();

}  // namespace contend::gui
