#pragma once
// The whole-network view per operator type ("matmul", "conv", "memcpy", ...). GroupRole is the
// type name, used to drill into its signatures.
#include <memory>

#include "core/analysis/model/report.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class TypeModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Type, Count, Total, Anomalies, ExtraWait, Cause, ColumnCount };
    explicit TypeModel(QObject* parent = nullptr);
    void setReport(std::shared_ptr<const Report> report);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    QString rowGroup(int row) const override;

  private:
    std::shared_ptr<const Report> m_report;
};

}  // namespace contend::widgets
