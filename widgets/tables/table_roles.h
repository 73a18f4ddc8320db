#pragma once
// Item data roles shared by the table models, their proxies and the panels that act on a row.
#include <Qt>

namespace contend::widgets {

enum TableRole {
    SortRole = Qt::UserRole,  // raw value to sort by (number or text)
    SliceRole,                // quint32 slice index the row stands for (kNone if none)
    IdRole,                   // qint64 id of the row's item (anomaly, signature, window, ...)
    StartRole,                // qint64 absolute start time (ns) of the row's span, -1 if none
    EndRole,                  // qint64 absolute end time (ns)
    GroupRole,                // QString group key (a signature's operator type)
    FilterRole,               // QString the filter words are matched against
};

}  // namespace contend::widgets
