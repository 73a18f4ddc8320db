#include "widgets/tables/name_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

#include "widgets/common/text.h"

namespace contend::widgets {

void NameDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    // The width the style leaves for the text (after the decoration and the margins).
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
    const int width = textRect.width() - 2 * margin;
    opt.text = m_cut == Cut::KeepTail ? elideKeepingTail(opt.text, opt.fontMetrics, width)
                                      : elideAtBreak(opt.text, opt.fontMetrics, width);
    opt.textElideMode = Qt::ElideNone;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
}

}  // namespace contend::widgets
