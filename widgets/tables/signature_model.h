#pragma once
// The whole-network view per operator signature (name plus shape): count, total, baseline,
// anomalies, extra wait, dominant cause. GroupRole gives the signature's operator type so the
// browser can show the signatures of one type.
#include <memory>

#include "core/analysis/model/report.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class SignatureModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Signature, Type, Count, Total, Baseline, P95, Anomalies, ExtraWait, Cause, ColumnCount };
    explicit SignatureModel(QObject* parent = nullptr);
    void setReport(std::shared_ptr<const Report> report);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;
    QString rowGroup(int row) const override;

  private:
    std::shared_ptr<const Report> m_report;
};

}  // namespace contend::widgets
