#include "widgets/cluster/cluster_models.h"

#include <algorithm>
#include <map>

#include "core/analysis/model/report.h"
#include "widgets/common/text.h"

namespace contend::widgets {

namespace {

QString findingText(const ClusterCollective& k) {
    if (!k.hasCause) return QObject::tr("none in the late rank's report");
    const RankFinding& f = k.cause.finding;
    return QObject::tr("%1 (%2 %3, %4)")
        .arg(shortOperatorName(QString::fromStdString(f.op)), resourceLabel(f.resource),
             f.window ? QObject::tr("window") : QObject::tr("anomaly"),
             QString::fromUtf8(provenanceName(f.provenance)));
}

}  // namespace

// --- late collectives ----------------------------------------------------------------------

LateCollectiveModel::LateCollectiveModel(QObject* parent)
    : ColumnModel(
          {{tr("Step"), ColumnKind::Count, tr("the step (ProfilerStep#N) the collective ran in")},
           {tr("Collective"), ColumnKind::Name, tr("as the late rank's trace names it")},
           {tr("#"), ColumnKind::Count, tr("k-th collective of its name in the step, from 0")},
           {tr("Late rank"), ColumnKind::Count, tr("the rank that arrived last (its kernel is the shortest)")},
           {tr("Late by"), ColumnKind::Duration, tr("how much later than the next rank it arrived")},
           {tr("Others waited"), ColumnKind::Duration, tr("the longest wait of the other ranks for it")},
           {tr("Mean wait"), ColumnKind::Duration, tr("the other ranks' mean wait")},
           {tr("Finding"), ColumnKind::Text, tr("the late rank's finding before the collective that delayed it")},
           {tr("Why"), ColumnKind::Text, tr("the chain in words")}},
          parent) {}

void LateCollectiveModel::setReport(ClusterPtr report) {
    beginResetModel();
    m_report = std::move(report);
    m_rows.clear();
    if (m_report) {
        for (std::size_t i = 0; i < m_report->collectives.size(); ++i)
            if (m_report->collectives[i].heldUp) m_rows.push_back(static_cast<int>(i));
        const auto& cols = m_report->collectives;
        std::stable_sort(m_rows.begin(), m_rows.end(), [&cols](int a, int b) {
            return cols[static_cast<std::size_t>(a)].maxWaitNs > cols[static_cast<std::size_t>(b)].maxWaitNs;
        });
    }
    endResetModel();
}

int LateCollectiveModel::collectiveOf(int row) const {
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)] : -1;
}

int LateCollectiveModel::rowOfCollective(int index) const {
    const auto it = std::find(m_rows.begin(), m_rows.end(), index);
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int LateCollectiveModel::rows() const { return static_cast<int>(m_rows.size()); }

QVariant LateCollectiveModel::raw(int row, int column) const {
    const ClusterCollective& k = m_report->collectives[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(row)])];
    switch (column) {
    case Step: return static_cast<qint64>(k.iteration);
    case Collective: return QString::fromStdString(k.name);
    case Ordinal: return static_cast<qint64>(k.ordinal);
    case LateRank: return static_cast<qint64>(k.lateRank);
    case LateBy: return static_cast<qint64>(k.lateByNs);
    case MaxWait: return static_cast<qint64>(k.maxWaitNs);
    case MeanWait: return static_cast<qint64>(k.meanWaitNs);
    case Finding: return findingText(k);
    case Chain: return QString::fromStdString(k.cause.text);
    default: return {};
    }
}

// --- ranks ---------------------------------------------------------------------------------

RankModel::RankModel(QObject* parent)
    : ColumnModel(
          {{tr("Rank"), ColumnKind::Count, {}},
           {tr("Mean step"), ColumnKind::Duration, tr("mean step span over its steps")},
           {tr("Mean compute"), ColumnKind::Duration, tr("mean step span less its waits in collectives")},
           {tr("Mean wait"), ColumnKind::Duration, tr("mean wait for its peers in collectives")},
           {tr("Slow steps"), ColumnKind::Count, tr("steps the stated test marked it slow in")},
           {tr("Excess"), ColumnKind::Duration, tr("compute beyond the median, summed over its slow steps")},
           {tr("Held up"), ColumnKind::Count, tr("collectives it held up (arrived last, by more than the test)")},
           {tr("Trace"), ColumnKind::Text, tr("where its trace is; double-click the row to open it")}},
          parent) {}

void RankModel::setReport(ClusterPtr report, std::vector<QString> traceTexts) {
    beginResetModel();
    m_rows.clear();
    if (report) {
        std::map<int, std::size_t> at;
        for (std::size_t r = 0; r < report->ranks.size(); ++r) {
            Row row;
            row.rank = report->ranks[r];
            row.trace = r < traceTexts.size() ? traceTexts[r] : QString();
            at[row.rank] = m_rows.size();
            m_rows.push_back(row);
        }
        std::vector<int> steps(m_rows.size(), 0);
        for (const ClusterIteration& it : report->iterations)
            for (const RankStep& s : it.ranks) {
                const auto f = at.find(s.rank);
                if (f == at.end()) continue;
                Row& row = m_rows[f->second];
                row.step += s.stepNs;
                row.compute += s.computeNs;
                row.wait += s.waitNs;
                row.slowSteps += s.slow;
                ++steps[f->second];
            }
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            if (steps[i]) {
                m_rows[i].step /= steps[i];
                m_rows[i].compute /= steps[i];
                m_rows[i].wait /= steps[i];
            }
        for (const SlowRank& s : report->slowRanks)
            if (const auto f = at.find(s.rank); f != at.end()) m_rows[f->second].excess = s.excessNs;
        for (const ClusterCollective& k : report->collectives)
            if (k.heldUp)
                if (const auto f = at.find(k.lateRank); f != at.end()) ++m_rows[f->second].heldUp;
    }
    endResetModel();
}

int RankModel::rankOf(int row) const {
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)].rank : -1;
}

int RankModel::rowOfRank(int rank) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].rank == rank) return static_cast<int>(i);
    return -1;
}

int RankModel::rows() const { return static_cast<int>(m_rows.size()); }

QVariant RankModel::raw(int row, int column) const {
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    switch (column) {
    case Rank: return static_cast<qint64>(r.rank);
    case MeanStep: return r.step;
    case MeanCompute: return r.compute;
    case MeanWait: return r.wait;
    case SlowSteps: return static_cast<qint64>(r.slowSteps);
    case Excess: return r.excess;
    case HeldUp: return static_cast<qint64>(r.heldUp);
    case Trace: return r.trace;
    default: return {};
    }
}

// --- compare -------------------------------------------------------------------------------

RankCompareModel::RankCompareModel(QObject* parent)
    : ColumnModel({{tr("Rank"), ColumnKind::Count, {}},
                   {tr("Step before"), ColumnKind::Duration, tr("mean step time in the baseline cluster")},
                   {tr("Step after"), ColumnKind::Duration, tr("mean step time in the new cluster")},
                   {tr("Change"), ColumnKind::Percent, tr("after / before - 1")},
                   {tr("Compute before"), ColumnKind::Duration, tr("mean compute (step less waits), baseline")},
                   {tr("Compute after"), ColumnKind::Duration, tr("mean compute (step less waits), new")},
                   {tr("Slow before"), ColumnKind::Count, tr("steps the baseline's test marked it slow in")},
                   {tr("Slow after"), ColumnKind::Count, tr("steps the new cluster's test marked it slow in")},
                   {tr("Slow rank"), ColumnKind::Text, tr("gone, still slow, new, or - (slow in neither)")}},
                  parent) {}

void RankCompareModel::setComparison(std::shared_ptr<const ClusterComparison> comparison) {
    beginResetModel();
    m_cmp = std::move(comparison);
    endResetModel();
}

int RankCompareModel::rankOf(int row) const {
    if (!m_cmp || row < 0 || row >= static_cast<int>(m_cmp->ranks.size())) return -1;
    return m_cmp->ranks[static_cast<std::size_t>(row)].rank;
}

int RankCompareModel::rows() const { return m_cmp ? static_cast<int>(m_cmp->ranks.size()) : 0; }

QVariant RankCompareModel::raw(int row, int column) const {
    const RankChange& c = m_cmp->ranks[static_cast<std::size_t>(row)];
    switch (column) {
    case Rank: return static_cast<qint64>(c.rank);
    case StepBefore: return c.inBase ? QVariant(static_cast<qint64>(c.baseStepNs)) : QVariant();
    case StepAfter: return c.inNew ? QVariant(static_cast<qint64>(c.newStepNs)) : QVariant();
    case Change:
        if (!c.inBase || !c.inNew || c.baseStepNs <= 0) return {};
        return static_cast<double>(c.newStepNs) / static_cast<double>(c.baseStepNs) - 1.0;
    case ComputeBefore: return c.inBase ? QVariant(static_cast<qint64>(c.baseComputeNs)) : QVariant();
    case ComputeAfter: return c.inNew ? QVariant(static_cast<qint64>(c.newComputeNs)) : QVariant();
    case SlowBefore: return static_cast<qint64>(c.baseSlowSteps);
    case SlowAfter: return static_cast<qint64>(c.newSlowSteps);
    case Status: return QString::fromUtf8(slowChangeName(c.slow));
    default: return {};
    }
}

}  // namespace contend::widgets
