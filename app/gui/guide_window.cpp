#include "app/gui/guide_window.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPointer>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

// guide.qrc is compiled into the static contend_app library: referenced here so the linker keeps it.
static void initGuideResource() { Q_INIT_RESOURCE(guide); }

namespace contend::gui {

QString guideMarkdown() {
    initGuideResource();
    QFile f(QStringLiteral(":/contend/how-contend-decides.md"));
    if (!f.open(QIODevice::ReadOnly))
        return QObject::tr("# How Contend decides\n\nThe guide is missing from this build.");
    return QString::fromUtf8(f.readAll());
}

GuideWindow::GuideWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_toc(new QListWidget(this)), m_text(new QTextBrowser(this)) {
    setWindowTitle(tr("How Contend Decides"));
    setObjectName(QStringLiteral("guideWindow"));
    m_text->setOpenExternalLinks(true);
    m_text->document()->setDocumentMargin(12);
    m_text->setMarkdown(guideMarkdown());
    // The table of contents: the guide's headings, a level-3 one indented under its section.
    for (QTextBlock b = m_text->document()->begin(); b.isValid(); b = b.next()) {
        const int level = b.blockFormat().headingLevel();
        if (level < 1 || level > 3) continue;
        auto* item = new QListWidgetItem(QString(2 * std::max(0, level - 2), QLatin1Char(' ')) + b.text(), m_toc);
        item->setData(Qt::UserRole, b.position());
    }
    connect(m_toc, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QTextBlock b = m_text->document()->findBlock(item->data(Qt::UserRole).toInt());
        const QRectF r = m_text->document()->documentLayout()->blockBoundingRect(b);
        m_text->verticalScrollBar()->setValue(static_cast<int>(r.top()));
    });
    auto* split = new QSplitter(this);
    split->addWidget(m_toc);
    split->addWidget(m_text);
    split->setStretchFactor(1, 1);
    split->setSizes({260, 740});
    auto* box = new QHBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addWidget(split);
    resize(1000, 760);
}

QStringList GuideWindow::headings() const {
    QStringList out;
    for (int i = 0; i < m_toc->count(); ++i) out << m_toc->item(i)->text().trimmed();
    return out;
}

QString GuideWindow::currentHeading() const {
    // The last heading at or above the top of the viewport.
    const int top = m_text->verticalScrollBar()->value();
    QString current;
    for (QTextBlock b = m_text->document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() < 1) continue;
        if (m_text->document()->documentLayout()->blockBoundingRect(b).top() > top + 1) break;
        current = b.text();
    }
    return current;
}

bool GuideWindow::scrollTo(const QString& section) {
    if (section.isEmpty()) {
        m_text->verticalScrollBar()->setValue(0);
        return true;
    }
    for (int i = 0; i < m_toc->count(); ++i) {
        if (!m_toc->item(i)->text().trimmed().startsWith(section)) continue;
        m_toc->setCurrentRow(i);
        emit m_toc->itemClicked(m_toc->item(i));
        return true;
    }
    return false;
}

GuideWindow* GuideWindow::showSection(const QString& section) {
    static QPointer<GuideWindow> window;
    if (!window) window = new GuideWindow;  // lives until the application ends
    window->show();
    window->raise();
    window->activateWindow();
    // After the layout has the width it will be shown at, so the offsets are the final ones.
    window->m_text->document()->setTextWidth(window->m_text->viewport()->width());
    if (!window->scrollTo(section)) window->scrollTo({});
    return window;
}

}  // namespace contend::gui
