#pragma once
// Paints a table cell's text elided at the right, but keeps the part that tells operators apart:
// a name's trailing shape or grid (" [grid=[..] block=[..]]") stays visible when the name itself
// has to be cut (elideKeepingTail). A text column's cell (a sentence, a path) is cut between
// words (elideAtBreak), never inside a number. Numbers never need it: TablePanel sizes their
// columns.
#include <QStyledItemDelegate>

namespace contend::widgets {

class NameDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    enum class Cut { KeepTail, AtBreak };
    explicit NameDelegate(QObject* parent = nullptr, Cut cut = Cut::KeepTail)
        : QStyledItemDelegate(parent), m_cut(cut) {}
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  private:
    Cut m_cut;
};

}  // namespace contend::widgets
