#include "app/gui/message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace contend::gui {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent), m_label(new QLabel(this)), m_close(new QToolButton(this)) {
    setFrameShape(QFrame::StyledPanel);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(m_label, 1);
    row->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::clear);
    hide();
}

void MessageBar::showMessage(Kind kind, const QString& title, const QStringList& lines) {
    m_kind = kind;
    const char* bg = kind == Kind::Error ? "#fdecea" : kind == Kind::Warning ? "#fff4e5" : "#e8f1fb";
    const char* fg = kind == Kind::Error ? "#8a1c14" : kind == Kind::Warning ? "#6b4100" : "#123e6b";
    setStyleSheet(
        QStringLiteral("MessageBar { background: %1; border: 1px solid %2; border-radius: 3px; } QLabel { color: %2; }")
            .arg(QLatin1String(bg), QLatin1String(fg)));
    QString html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
    m_plain = title;
    const int shown = std::min<int>(static_cast<int>(lines.size()), 6);
    for (int i = 0; i < shown; ++i) {
        html += QStringLiteral("<br>") + lines[i].toHtmlEscaped();
        m_plain += QLatin1Char('\n') + lines[i];
    }
    if (lines.size() > shown) html += tr("<br>… and %1 more").arg(lines.size() - shown);
    m_label->setText(html);
    show();
}

void MessageBar::clear() {
    m_plain.clear();
    m_label->clear();
    hide();
}

QString MessageBar::text() const { return isVisible() || !isHidden() ? m_plain : QString(); }

}  // namespace contend::gui
