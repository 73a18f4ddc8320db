#pragma once
// Paints a table cell's text elided at the right, but keeps the part that tells operators apart:
// a name's trailing shape or grid (" [grid=[..] block=[..]]") stays visible when the name itself
// has to be cut (elideKeepingTail). Numbers never need it: TablePanel sizes their columns.
#include <QStyledItemDelegate>

namespace contend::widgets {

class NameDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace contend::widgets
