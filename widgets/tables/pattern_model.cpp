#include "widgets/tables/pattern_model.h"

#include <algorithm>

namespace contend::widgets {

PatternModel::PatternModel(QObject* parent)
    : ReportTableModel(
          {{tr("#"), ColumnKind::Count, {}},
           {tr("Cost"), ColumnKind::Duration,
            tr("The time the slowdown took from the runs beside the partner: each run's duration x s / (1 + s); "
               "where patterns of their own count some of its runs, s of the runs it counts")},
           {tr("Operator"), ColumnKind::Name, tr("The operator slowed beside the partner")},
           {tr("Beside"), ColumnKind::Name, tr("The partner: an operator, a kind of operator or a counter")},
           {tr("Runs beside"), ColumnKind::Count, {}},
           {tr("Runs apart"), ColumnKind::Count, tr("Its runs beside none of the partners shown to slow it")},
           {tr("Slowdown"), ColumnKind::Percent,
            tr("Hodges-Lehmann estimate of how much slower its runs beside are than its runs apart")},
           {tr("95% low"), ColumnKind::Percent, tr("Low end of the slowdown's 95% confidence interval")},
           {tr("95% high"), ColumnKind::Percent, tr("High end of the slowdown's 95% confidence interval")},
           {tr("p"), ColumnKind::Score,
            tr("One-sided Mann-Whitney p-value, adjusted for the false discovery rate (Benjamini-Hochberg) over every "
               "partner tested in the trace")},
           {tr("Cause"), ColumnKind::Resource, {}}},
          parent) {}

int PatternModel::rows() const { return m_report ? static_cast<int>(m_report->patterns.size()) : 0; }

QVariant PatternModel::raw(int row, int column) const {
    const ContentionPattern& p = m_report->patterns[static_cast<std::size_t>(row)];
    switch (column) {
    case Id: return static_cast<qint64>(p.id);
    case Cost: return static_cast<qint64>(p.costNs);
    case Victim: return QString::fromStdString(p.victim);
    case Partner: return QString::fromStdString(p.partner);
    case Beside: return static_cast<qint64>(p.runsBeside);
    case Apart: return static_cast<qint64>(p.runsApart);
    case Slowdown: return p.slowdown;
    case Low: return p.slowdownLow;
    case High: return p.slowdownHigh;
    case P: return p.pValue;
    case Cause: return static_cast<int>(p.cause);
    default: return {};
    }
}

// The costliest run: what a click selects on the timeline.
quint32 PatternModel::rowSlice(int row) const {
    const ContentionPattern& p = m_report->patterns[static_cast<std::size_t>(row)];
    if (p.runs.empty()) return kNone;
    return std::max_element(p.runs.begin(), p.runs.end(),
                            [](const PatternRun& a, const PatternRun& b) { return a.excessNs < b.excessNs; })
        ->slice;
}

qint64 PatternModel::rowId(int row) const { return row; }

// From the first run beside to the end of the last.
std::pair<qint64, qint64> PatternModel::rowSpan(int row) const {
    const ContentionPattern& p = m_report->patterns[static_cast<std::size_t>(row)];
    if (p.runs.empty()) return {-1, -1};
    return {p.runs.front().startNs, p.runs.back().startNs + p.runs.back().durNs};
}

}  // namespace contend::widgets
