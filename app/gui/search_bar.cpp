#include "app/gui/search_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include "widgets/common/view_colors.h"
#include "widgets/timeline/slice_search.h"

namespace contend::gui {

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent),
      m_edit(new QLineEdit(this)),
      m_regex(new QCheckBox(tr("Regex"), this)),
      m_prev(new QToolButton(this)),
      m_next(new QToolButton(this)),
      m_close(new QToolButton(this)),
      m_count(new QLabel(this)) {
    m_edit->setPlaceholderText(tr("Find operators by name (Enter: next, Shift+Enter: previous)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    m_regex->setToolTip(tr("Match names with a regular expression (case insensitive)"));
    m_prev->setText(QStringLiteral("▲"));
    m_prev->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    m_next->setText(QStringLiteral("▼"));
    m_next->setToolTip(tr("Next match (Enter, F3)"));
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Close (Esc)"));
    m_count->setMinimumWidth(160);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(new QLabel(tr("Find:"), this));
    row->addWidget(m_edit, 1);
    row->addWidget(m_regex);
    row->addWidget(m_prev);
    row->addWidget(m_next);
    row->addWidget(m_count);
    row->addWidget(m_close);
    connect(m_edit, &QLineEdit::textChanged, this, &SearchBar::search);
    connect(m_regex, &QCheckBox::toggled, this, &SearchBar::search);
    connect(m_prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    updateCount();
}

void SearchBar::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    search();
}

void SearchBar::activate() {
    show();
    m_edit->setFocus();
    m_edit->selectAll();
}

void SearchBar::search() {
    m_matches.clear();
    m_current = -1;
    m_error.clear();
    if (m_trace) {
        widgets::SliceSearch s = widgets::searchSlices(*m_trace, m_edit->text(), m_regex->isChecked());
        m_matches = std::move(s.slices);
        m_error = s.error;
    }
    updateCount();
}

void SearchBar::next() { step(1); }

void SearchBar::previous() { step(-1); }

void SearchBar::step(int by) {
    if (m_matches.empty()) return;
    const int n = static_cast<int>(m_matches.size());
    m_current = m_current < 0 ? (by > 0 ? 0 : n - 1) : ((m_current + by) % n + n) % n;
    updateCount();
    emit matchPicked(m_matches[static_cast<std::size_t>(m_current)]);
}

QString SearchBar::countText() const { return m_count->text(); }

void SearchBar::updateCount() {
    const bool any = !m_matches.empty();
    m_prev->setEnabled(any);
    m_next->setEnabled(any);
    m_count->setStyleSheet(widgets::themedHtml(m_error.isEmpty() && (any || m_edit->text().isEmpty())
                                                   ? QStringLiteral("color: #444")
                                                   : QStringLiteral("color: #b71c1c")));
    if (!m_error.isEmpty())
        m_count->setText(m_error);
    else if (m_edit->text().isEmpty())
        m_count->setText(QString());
    else if (!any)
        m_count->setText(tr("no matches"));
    else if (m_current < 0)
        m_count->setText(m_matches.size() == 1 ? tr("1 match") : tr("%L1 matches").arg(m_matches.size()));
    else
        m_count->setText(tr("%L1 of %L2 matches").arg(m_current + 1).arg(m_matches.size()));
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        const auto* k = static_cast<QKeyEvent*>(event);
        const bool shift = k->modifiers() & Qt::ShiftModifier;
        if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter || k->key() == Qt::Key_F3) {
            step(shift ? -1 : 1);
            return true;
        }
        if (k->key() == Qt::Key_Escape) {
            hide();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace contend::gui
