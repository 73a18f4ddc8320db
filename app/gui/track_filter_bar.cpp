#include "app/gui/track_filter_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include "widgets/timeline/timeline_painter.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

TrackFilterBar::TrackFilterBar(widgets::TimelineView* timeline, QWidget* parent)
    : QWidget(parent),
      m_timeline(timeline),
      m_edit(new QLineEdit(this)),
      m_deviceOnly(new QCheckBox(tr("Device streams only"), this)),
      m_hidden(new QLabel(this)),
      m_showAll(new QToolButton(this)),
      m_close(new QToolButton(this)) {
    m_edit->setPlaceholderText(tr("Filter tracks by name or process"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    m_deviceOnly->setToolTip(tr("Show the device streams only (host threads and other tracks hidden)"));
    m_showAll->setText(tr("Show All"));
    m_showAll->setToolTip(tr("Show every track: unhide the hidden ones and clear the filter"));
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Close (Esc); the filter stays"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(new QLabel(tr("Tracks:"), this));
    row->addWidget(m_edit, 1);
    row->addWidget(m_deviceOnly);
    row->addWidget(m_hidden);
    row->addWidget(m_showAll);
    row->addWidget(m_close);
    connect(m_edit, &QLineEdit::textChanged, this, &TrackFilterBar::apply);
    connect(m_deviceOnly, &QCheckBox::toggled, this, &TrackFilterBar::apply);
    connect(m_showAll, &QToolButton::clicked, m_timeline, &widgets::TimelineView::showAllTracks);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    connect(m_timeline, &widgets::TimelineView::tracksChanged, this, &TrackFilterBar::sync);
    sync();
}

void TrackFilterBar::activate() {
    show();
    m_edit->setFocus();
    m_edit->selectAll();
}

QString TrackFilterBar::hiddenText() const {
    const std::uint32_t n = m_timeline->layout().notShownTracks();
    return n > 0 ? widgets::hiddenHintText(n) : QString();
}

void TrackFilterBar::apply() {
    if (m_syncing) return;
    widgets::TrackFilter f;
    f.text = m_edit->text().trimmed().toStdString();
    f.deviceOnly = m_deviceOnly->isChecked();
    m_timeline->setTrackFilter(f);
}

void TrackFilterBar::sync() {
    m_syncing = true;
    const widgets::TrackFilter& f = m_timeline->trackArrangement().filter();
    const QString text = QString::fromStdString(f.text);
    if (m_edit->text().trimmed() != text) m_edit->setText(text);
    m_deviceOnly->setChecked(f.deviceOnly);
    m_hidden->setText(hiddenText());
    m_showAll->setEnabled(!hiddenText().isEmpty());
    m_syncing = false;
}

bool TrackFilterBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        hide();
        m_timeline->setFocus();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace contend::gui
