#pragma once
// Base of the tables that list one part of a report (anomalies, windows, clusters, iterations):
// holds the trace and the report and resets the model when they change. Times are shown from
// the trace's start; without a trace there is no report to show.
#include <memory>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"
#include "widgets/common/session_view.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class ReportTableModel : public ColumnModel, public SessionView {
    Q_OBJECT
  public:
    // gainsPending: the report's what-if is still running (its Gain cells say "computing…").
    void setReport(TracePtr trace, std::shared_ptr<const Report> report, bool gainsPending = false);
    void showTrace(const ViewInputs& in) override { setReport(in.trace, in.report, in.gainsPending); }
    void showReport(const ViewInputs& in) override { setReport(in.trace, in.report, in.gainsPending); }

  protected:
    using ColumnModel::ColumnModel;
    // Inside the reset, after m_trace and m_report are set: rebuild what a subclass derives.
    virtual void reportChanged() {}

    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
};

}  // namespace contend::widgets
