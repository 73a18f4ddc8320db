#include "widgets/breakdowns/breakdown_rows_model.h"

#include <algorithm>
#include <map>
#include <utility>

#include <QColor>
#include <QFont>

namespace contend::widgets {

namespace {

double pct(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

BreakdownRowsModel::BreakdownRowsModel(QObject* parent)
    : ColumnModel({{tr("Rank / stream"), ColumnKind::Text, {}},
                   {tr("Kernel time"), ColumnKind::Duration,
                    tr("A rank's: from its first device operation's start to its last one's end (in the range)")},
                   {tr("Idle %"), ColumnKind::Score,
                    tr("A rank's: of its kernel time, nothing running on any stream. A stream's: its idle time "
                       "(host wait + kernel wait + other) over its rank's kernel time")},
                   {tr("Host wait"), ColumnKind::Duration,
                    tr("Gaps before an operation whose launch call started after the previous one ended")},
                   {tr("Kernel wait"), ColumnKind::Duration, tr("Other gaps shorter than 30 us")},
                   {tr("Other idle"), ColumnKind::Duration, tr("The remaining gaps")},
                   {tr("Compute %"), ColumnKind::Score, tr("Of the rank's kernel time, some compute kernel running")},
                   {tr("Overlap %"), ColumnKind::Score,
                    tr("Of the rank's communication time, a compute kernel running beside it")},
                   {tr("Queue p50"), ColumnKind::Score, tr("Median queue length over the samples (HTA)")},
                   {tr("Queue max"), ColumnKind::Count, tr("Longest queue")},
                   {tr("Full queue"), ColumnKind::Duration, tr("Time with 1024 or more operations queued")}},
                  parent) {}

void BreakdownRowsModel::setBreakdowns(const TraceBreakdowns& b) {
    beginResetModel();
    m_b = b;
    m_rows.clear();
    // Ranks in the order given, each followed by its streams (ascending); streams of a rank
    // without a temporal row come after.
    std::map<std::pair<int, int>, Entry> streams;
    for (const StreamIdle& s : m_b.idle.rows) {
        Entry& e = streams[{s.rank, s.stream}];
        e.rank = s.rank, e.stream = s.stream, e.idle = &s;
    }
    for (const StreamQueue& q : m_b.queueLength.rows) {
        Entry& e = streams[{q.rank, q.stream}];
        e.rank = q.rank, e.stream = q.stream, e.queue = &q;
    }
    auto addStreams = [&](int rank) {
        for (auto it = streams.begin(); it != streams.end();)
            if (it->first.first == rank) {
                m_rows.push_back(it->second);
                it = streams.erase(it);
            } else {
                ++it;
            }
    };
    for (const RankTemporal& t : m_b.temporal.rows) {
        Entry e;
        e.rank = t.rank;
        e.temporal = &t;
        for (const RankOverlap& o : m_b.commCompOverlap.rows)
            if (o.rank == t.rank) e.overlap = &o;
        m_rows.push_back(e);
        addStreams(t.rank);
    }
    for (auto& [key, e] : streams) m_rows.push_back(e);
    endResetModel();
}

int BreakdownRowsModel::rowOfRank(int rank) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].stream < 0 && m_rows[i].rank == rank) return static_cast<int>(i);
    return -1;
}

int BreakdownRowsModel::rowOfStream(int rank, int stream) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].stream == stream && m_rows[i].rank == rank) return static_cast<int>(i);
    return -1;
}

void BreakdownRowsModel::setHighlight(int rank, std::vector<int> streams) {
    m_highlightRank = rank;
    m_highlightStreams = std::move(streams);
    if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rows() - 1, ColumnCount - 1));
}

bool BreakdownRowsModel::highlighted(int row) const {
    if (row < 0 || row >= rows() || m_highlightRank == kNoRank) return false;
    const Entry& e = m_rows[static_cast<std::size_t>(row)];
    if (e.rank != m_highlightRank) return false;
    return e.stream < 0 ||
           std::find(m_highlightStreams.begin(), m_highlightStreams.end(), e.stream) != m_highlightStreams.end();
}

QVariant BreakdownRowsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == StreamRole) return m_rows[static_cast<std::size_t>(index.row())].stream;
    if (role == Qt::FontRole && highlighted(index.row())) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    // A tint that reads on the light and the dark palette alike.
    if (role == Qt::BackgroundRole && highlighted(index.row())) return QColor(0xff, 0xc1, 0x07, 90);
    return ColumnModel::data(index, role);
}

QVariant BreakdownRowsModel::raw(int row, int column) const {
    const Entry& e = m_rows[static_cast<std::size_t>(row)];
    if (column == Row) {
        if (e.stream >= 0) return tr("  stream %1").arg(e.stream);
        return e.rank >= 0 ? tr("rank %1").arg(e.rank) : tr("rank ?");
    }
    if (const RankTemporal* t = e.temporal) {
        switch (column) {
        case Kernel: return static_cast<qint64>(t->kernelNs);
        case IdlePct: return pct(t->idleNs, t->kernelNs);
        case ComputePct: return pct(t->computeNs, t->kernelNs);
        case OverlapPct: return e.overlap ? QVariant(100.0 * e.overlap->fraction) : QVariant();
        default: return {};
        }
    }
    if (const StreamIdle* s = e.idle) {
        switch (column) {
        case IdlePct: {
            const int r = rowOfRank(e.rank);
            const RankTemporal* t = r >= 0 ? m_rows[static_cast<std::size_t>(r)].temporal : nullptr;
            if (!t) return {};
            return pct(s->hostWaitNs + s->kernelWaitNs + s->otherNs, t->kernelNs);
        }
        case HostWait: return static_cast<qint64>(s->hostWaitNs);
        case KernelWait: return static_cast<qint64>(s->kernelWaitNs);
        case OtherIdle: return static_cast<qint64>(s->otherNs);
        default: break;
        }
    }
    if (const StreamQueue* q = e.queue) {
        switch (column) {
        case QueueP50: return q->p50;
        case QueueMax: return static_cast<qint64>(q->max);
        case FullQueue: return static_cast<qint64>(q->blockedOnFullQueueNs);
        default: break;
        }
    }
    return {};
}

QString BreakdownRowsModel::cellTip(int row, int column) const {
    const Entry& e = m_rows[static_cast<std::size_t>(row)];
    if (column != Row) return {};
    if (e.stream >= 0) return tr("Stream %1: double-click (or Enter) shows it on the timeline").arg(e.stream);
    return {};
}

}  // namespace contend::widgets
