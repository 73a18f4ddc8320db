#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

void ReportTableModel::setReport(TracePtr trace, std::shared_ptr<const Report> report, bool gainsPending) {
    beginResetModel();
    m_trace = std::move(trace);
    m_report = m_trace ? std::move(report) : nullptr;
    m_gainsPending = gainsPending && m_report;
    m_origin = m_trace ? m_trace->begin() : 0;
    reportChanged();
    endResetModel();
}

}  // namespace contend::widgets
