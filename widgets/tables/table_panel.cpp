#include "widgets/tables/table_panel.h"

#include <algorithm>

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/common/view_colors.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/name_delegate.h"
#include "widgets/tables/table_export.h"

namespace contend::widgets {

TablePanel::TablePanel(ColumnModel* model, const QString& filterHint, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_proxy(new TableProxy(this)),
      m_view(new QTableView(this)),
      m_filter(new QLineEdit(this)),
      m_count(new QLabel(this)) {
    m_proxy->setSourceModel(model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(20);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->horizontalHeader()->setDefaultSectionSize(90);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    auto* names = new NameDelegate(this);
    auto* texts = new NameDelegate(this, NameDelegate::Cut::AtBreak);
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->column(c).kind == ColumnKind::Name) m_view->setItemDelegateForColumn(c, names);
        if (model->column(c).kind == ColumnKind::Text) m_view->setItemDelegateForColumn(c, texts);
    }
    m_view->viewport()->installEventFilter(this);
    // Copy Rows (Ctrl+C), Copy Table and Export as CSV… on a right-click; the file is named
    // after the model ("anomaly.csv", "signature.csv").
    installTableExport(m_view, QString::fromLatin1(model->metaObject()->className())
                                   .section(QStringLiteral("::"), -1)
                                   .remove(QStringLiteral("Model"))
                                   .toLower());
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int c, int, int) {
        // Only a drag on the header's edge counts as the user's choice.
        if (!m_fitting && (QApplication::mouseButtons() & Qt::LeftButton) && !m_userSized.contains(c)) m_userSized << c;
    });
    m_filter->setPlaceholderText(filterHint);
    m_filter->setClearButtonEnabled(true);
    m_count->setStyleSheet(themedHtml(QStringLiteral("color: #666"), palette()));

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_count);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(2, 2, 2, 2);
    box->setSpacing(2);
    box->addLayout(top);
    box->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& t) {
        m_proxy->setFilterWords(t);
        updateCount();
    });
    // A pick is a row becoming selected (a click, the arrow keys), not the current index
    // moving: Qt makes the first row current, without selecting it, whenever the view gets the
    // focus other than by a click on a cell (the window coming back to the front after a click
    // on the scroll bar, Tab), and that must not select row 0 everywhere.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this](const QItemSelection& selected) {
                if (m_quiet || selected.isEmpty()) return;
                const QModelIndex current = m_view->selectionModel()->currentIndex();
                const QModelIndex row =
                    current.isValid() && selected.contains(current) ? current : selected.indexes().front();
                emit rowPicked(m_proxy->mapToSource(row));
            });
    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex& idx) { emit rowOpened(m_proxy->mapToSource(idx)); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TablePanel::fitColumns);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TablePanel::updateCount);
    updateCount();
}

int TablePanel::contentWidth(int column) const {
    // The delegate's own size hint (text, decoration, margins) over the first rows.
    QStyleOptionViewItem opt;
    opt.initFrom(m_view);
    opt.font = m_view->font();
    opt.fontMetrics = QFontMetrics(opt.font);
    opt.widget = m_view;
    const int icon = m_view->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, m_view);
    opt.decorationSize = QSize(icon, icon);
    QAbstractItemDelegate* d = m_view->itemDelegateForColumn(column);
    if (!d) d = m_view->itemDelegate();
    const int rows = std::min(m_proxy->rowCount(), kFitRows);
    // The delegate measures the first rows whole (text, decoration, margins); the rest by their
    // text's width plus the most the delegate added to a text: a slider step on 240k findings
    // re-fits three tables, and the delegate's hint asks the model eight roles and lays out the
    // text for each cell (~60 ms a table), where the text alone is a fraction of it. A resource
    // column's swatch comes and goes by row (none for no cause): the delegate measures all of it.
    // A text met before is not measured again: the causes, tracks, provenances, names and most
    // durations repeat down a column, and shaping a text is the cost (2000 rows x ten columns x
    // three tables on every slider step). The same text gives the same width, and in a resource
    // column the same swatch (the text names the resource), so the widths are the same.
    const QFontMetrics& fm = opt.fontMetrics;
    QHash<QString, int> measured;
    int w = 0, extra = 0;
    const int whole = m_model->column(column).kind == ColumnKind::Resource ? rows : std::min(rows, kFitRowsWhole);
    for (int r = 0; r < whole; ++r) {
        const QModelIndex i = m_proxy->index(r, column);
        const QString text = i.data().toString();
        auto it = measured.constFind(text);
        if (it == measured.constEnd()) {
            const int hint = d->sizeHint(opt, i).width();
            extra = std::max(extra, hint - fm.horizontalAdvance(text));
            it = measured.insert(text, hint);
        }
        w = std::max(w, *it);
    }
    // The text widths are kept across fits (a re-threshold shows most of the same rows again,
    // and shaping a text is the cost), dropped when the font changes or the cache grows large.
    if (m_advanceFont != opt.font.key()) {
        m_advanceFont = opt.font.key();
        m_advance.clear();
    }
    if (m_advance.size() != static_cast<std::size_t>(m_model->columnCount()))
        m_advance.assign(static_cast<std::size_t>(m_model->columnCount()), {});
    QHash<QString, int>& advance = m_advance[static_cast<std::size_t>(column)];
    if (advance.size() > kAdvanceCache) advance.clear();
    for (int r = whole; r < rows; ++r) {
        const QString text = m_proxy->index(r, column).data().toString();
        auto it = advance.constFind(text);
        if (it == advance.constEnd()) it = advance.insert(text, fm.horizontalAdvance(text));
        w = std::max(w, *it + extra + 1);
    }
    return w + 2;  // the grid line
}

void TablePanel::fitColumns() { fit(true); }

void TablePanel::fit(bool measure) {
    QHeaderView* h = m_view->horizontalHeader();
    const int n = m_model->columnCount();
    m_fitting = true;
    if (m_measured.size() != n) m_measured = QList<int>(n, -1);
    // Widest cell of the first kFitRows rows or the header; measured on a model reset, reused
    // when only the view's width changed (a dock being dragged).
    auto want = [&](int c) {
        if (measure || m_measured[c] < 0) m_measured[c] = std::max(contentWidth(c), h->sectionSizeHint(c));
        return m_measured[c];
    };
    auto isFree = [&](int c) {
        const ColumnKind kind = m_model->column(c).kind;
        return kind == ColumnKind::Text || kind == ColumnKind::Name;
    };
    QList<int> widths(n, 0);
    int used = 0;
    QList<int> names, texts;
    for (int c = 0; c < n; ++c) {
        if (m_view->isColumnHidden(c)) continue;
        if (m_userSized.contains(c)) {
            used += h->sectionSize(c);
            continue;
        }
        const ColumnKind kind = m_model->column(c).kind;
        if (kind == ColumnKind::Name) {
            names << c;
            continue;
        }
        // Numbers are never elided; a text starts at most kTextStart wide (it may grow below).
        widths[c] = kind == ColumnKind::Text ? std::min(want(c), kTextStart) : want(c);
        if (kind == ColumnKind::Text) texts << c;
        used += widths[c];
    }
    // Names share what is left (at least their floor each, at most their widest). The floor is
    // two fifths of the view (kNameMin at least): when the numbers alone fill a narrow pane, a
    // name cut to a stub ("Memc…[bytes=…" on every row) says nothing, so the numbers scroll
    // sideways instead.
    const int view = m_view->viewport()->width();
    const int nameFloor = std::max(kNameMin, view * 2 / 5 / std::max(1, static_cast<int>(names.size())));
    for (int c : names) {
        const int share = (view - used) / static_cast<int>(names.size());
        widths[c] = std::max(kNameMin, std::min(want(c), std::max(nameFloor, share)));
    }
    for (int c : names) used += widths[c];
    // Room left: texts cut at kTextStart and names cut at their share get it back, up to their
    // widest, in column order; what is still left goes to the last column when it is a text or
    // a name (a free column), so a table that ends in text fills its view. One that ends in a
    // number keeps the number by its neighbours and leaves the rest empty.
    int left = view - used;
    for (int c = 0; c < n && left > 0; ++c) {
        if (!(texts.contains(c) || names.contains(c))) continue;
        const int more = std::min(left, want(c) - widths[c]);
        if (more <= 0) continue;
        widths[c] += more;
        left -= more;
    }
    int last = -1;  // the last shown column, in the order on screen (the user may move them)
    for (int v = h->count() - 1; v >= 0 && last < 0; --v)
        if (!m_view->isColumnHidden(h->logicalIndex(v))) last = h->logicalIndex(v);
    if (left > 0 && last >= 0 && isFree(last) && !m_userSized.contains(last)) widths[last] += left;
    for (int c = 0; c < n; ++c)
        if (!m_view->isColumnHidden(c) && !m_userSized.contains(c)) h->resizeSection(c, widths[c]);
    m_fitting = false;
}

bool TablePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) fit(false);
    return QWidget::eventFilter(watched, event);
}

void TablePanel::updateCount() {
    const int shown = m_proxy->rowCount();
    const int total = m_model->rowCount();
    m_count->setText(shown == total ? tr("%n row(s)", nullptr, total) : tr("%1 of %2").arg(shown).arg(total));
}

void TablePanel::selectSourceRow(int row) {
    m_quiet = true;
    if (row < 0 || row >= m_model->rowCount()) {
        m_view->selectionModel()->clearSelection();
        m_view->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::NoUpdate);
    } else {
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
        // The row the user just clicked (or moved to with the keys) is already current: Qt selects
        // and scrolls to it itself once the click is over. Scrolling now, in the middle of the
        // press, would move the next row under the pointer and Qt would select that one.
        const QModelIndex current = m_view->selectionModel()->currentIndex();
        if (idx.isValid() && current.isValid() && current.row() == idx.row()) {
            if (!m_view->selectionModel()->isRowSelected(idx.row(), QModelIndex()))
                m_view->selectionModel()->select(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_quiet = false;
            return;
        }
        if (idx.isValid()) {
            m_view->selectionModel()->setCurrentIndex(idx,
                                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(idx);
        }
    }
    m_quiet = false;
}

int TablePanel::currentSourceRow() const {
    // The current index alone is not a selection (see the constructor).
    const QModelIndex idx = m_view->selectionModel()->currentIndex();
    if (!idx.isValid() || !m_view->selectionModel()->isRowSelected(idx.row(), QModelIndex())) return -1;
    return m_proxy->mapToSource(idx).row();
}

void TablePanel::sortBy(int column, Qt::SortOrder order) { m_view->sortByColumn(column, order); }

}  // namespace contend::widgets
