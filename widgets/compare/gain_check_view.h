#pragma once
// A compare's predicted vs realised, for the compare window's "Predicted vs realised" tab: the
// core's sentence on top (GainCheck::text, as `contend-cli compare` prints it; marked when the
// findings were resolved but the run did not get faster, which says where the cost moved: the
// track the new critical path runs on), then the table of GainCheckModel, then what the columns
// mean. Without a what-if in the base it says so instead.
#include <memory>

#include <QWidget>

#include "core/analysis/compare/compare.h"

class QLabel;
class QTableView;

namespace contend::widgets {

class GainCheckModel;

class GainCheckView : public QWidget {
    Q_OBJECT
  public:
    explicit GainCheckView(QWidget* parent = nullptr);
    void setResult(std::shared_ptr<const CompareResult> result);

    GainCheckModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // The sentence shown above the table (plain text).
    QString sentence() const;
    QLabel* sentenceLabel() const { return m_sentence; }

  private:
    QLabel* m_sentence;
    QTableView* m_table;
    GainCheckModel* m_model;
    QString m_plain;
};

}  // namespace contend::widgets
