#pragma once
// The cluster window's tables, over a cluster report (core/analysis/ranks/rank_merge.h):
//  - LateCollectiveModel: the collectives a slow rank held up, with the chain sentence (rank,
//    collective, how long the others waited, the finding on the late rank that delayed it);
//  - RankModel: per rank its mean step, compute and wait, the steps it was slow in, its trace;
//  - RankCompareModel: two reports' ranks before/after (core/analysis/ranks/rank_compare.h).
#include <memory>
#include <vector>

#include "core/analysis/ranks/rank_compare.h"
#include "core/analysis/ranks/rank_merge.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

using ClusterPtr = std::shared_ptr<const ClusterReport>;

class LateCollectiveModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Step, Collective, Ordinal, LateRank, LateBy, MaxWait, MeanWait, Finding, Chain, ColumnCount };
    explicit LateCollectiveModel(QObject* parent = nullptr);
    void setReport(ClusterPtr report);
    // Index into report.collectives of a row (-1 outside).
    int collectiveOf(int row) const;
    int rowOfCollective(int index) const;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;

  private:
    ClusterPtr m_report;
    std::vector<int> m_rows;  // held-up collectives, the longest wait first
};

class RankModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Rank, MeanStep, MeanCompute, MeanWait, SlowSteps, Excess, HeldUp, Trace, ColumnCount };
    explicit RankModel(QObject* parent = nullptr);
    // traces: per rank of the report, where its trace is ("" when not reachable) and the text
    // the Trace column shows.
    void setReport(ClusterPtr report, std::vector<QString> traceTexts);
    int rankOf(int row) const;
    int rowOfRank(int rank) const;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;

  private:
    struct Row {
        int rank = 0;
        qint64 step = 0, compute = 0, wait = 0, excess = 0;
        int slowSteps = 0, heldUp = 0;
        QString trace;
    };
    std::vector<Row> m_rows;
};

class RankCompareModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col {
        Rank,
        StepBefore,
        StepAfter,
        Change,
        ComputeBefore,
        ComputeAfter,
        SlowBefore,
        SlowAfter,
        Status,
        ColumnCount
    };
    explicit RankCompareModel(QObject* parent = nullptr);
    void setComparison(std::shared_ptr<const ClusterComparison> comparison);
    int rankOf(int row) const;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;

  private:
    std::shared_ptr<const ClusterComparison> m_cmp;
};

}  // namespace contend::widgets
