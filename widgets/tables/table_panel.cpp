#include "widgets/tables/table_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/tables/column_model.h"

namespace contend::widgets {

TablePanel::TablePanel(ColumnModel* model, const QString& filterHint, QWidget* parent)
    : QWidget(parent), m_model(model), m_proxy(new TableProxy(this)), m_view(new QTableView(this)),
      m_filter(new QLineEdit(this)), m_count(new QLabel(this)) {
    m_proxy->setSourceModel(model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(20);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->horizontalHeader()->setDefaultSectionSize(90);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_filter->setPlaceholderText(filterHint);
    m_filter->setClearButtonEnabled(true);
    m_count->setStyleSheet(QStringLiteral("color: #666"));

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
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (m_quiet || !current.isValid()) return;
                emit rowPicked(m_proxy->mapToSource(current));
            });
    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex& idx) { emit rowOpened(m_proxy->mapToSource(idx)); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TablePanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TablePanel::updateCount);
    updateCount();
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
        if (idx.isValid()) {
            m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(idx);
        }
    }
    m_quiet = false;
}

int TablePanel::currentSourceRow() const {
    const QModelIndex idx = m_view->selectionModel()->currentIndex();
    return idx.isValid() ? m_proxy->mapToSource(idx).row() : -1;
}

void TablePanel::sortBy(int column, Qt::SortOrder order) { m_view->sortByColumn(column, order); }

}  // namespace contend::widgets
