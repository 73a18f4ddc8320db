#include "widgets/tables/window_model.h"

#include <algorithm>

namespace contend::widgets {

WindowModel::WindowModel(QObject* parent)
    : ReportTableModel(
          {{tr("#"), ColumnKind::Count, {}},
           {tr("Gain"), ColumnKind::Gain,
            tr("Predicted end-to-end gain over the whole run if this were fixed (the what-if re-schedules the "
               "dependency graph); - : not computed")},
           {tr("Resource"), ColumnKind::Resource, tr("The resource the operators competed for")},
           {tr("Start"), ColumnKind::Time, tr("Since the trace began")},
           {tr("Duration"), ColumnKind::Duration, {}},
           {tr("Ops"), ColumnKind::Count, tr("Operators in the window")},
           {tr("Tracks"), ColumnKind::Count, tr("Streams or threads the window joins")},
           {tr("Overlap"), ColumnKind::Percent, tr("Overlap / shorter busy time")},
           {tr("Peak"), ColumnKind::Percent, tr("Peak utilisation of the resource (0 when no counter)")},
           {tr("Extra wait"), ColumnKind::Duration, tr("Excess of its operators attributed to the window")},
           {tr("Known"), ColumnKind::Text,
            tr("measured: counters saw the resource oversubscribed; estimated: the paying operator's "
               "runs beside this partner are slower than its runs without it")}},
          parent) {}

void WindowModel::reportChanged() {
    const std::size_t n = m_report ? m_report->windows.size() : 0;
    m_derived.assign(n, 0);
    m_extra.assign(n, 0);
    m_tracks.assign(n, 0);
    m_seen.assign(m_trace && m_report ? m_trace->tracks().size() : 0, 0);
    m_stamp = 0;
}

void WindowModel::derive(std::size_t row) const {
    if (m_derived[row]) return;
    m_derived[row] = 1;
    const ContentionWindow& w = m_report->windows[row];
    const auto& slices = m_trace->slices();
    if (++m_stamp == 0) {  // wrapped: stamps from before could match again
        std::fill(m_seen.begin(), m_seen.end(), 0);
        m_stamp = 1;
    }
    qint64 extra = 0;
    int tracks = 0;
    for (const WindowOp& op : w.ops) {
        extra += op.extraWaitNs;
        if (op.slice >= slices.size()) continue;
        const std::uint32_t t = slices[op.slice].track;
        if (t >= m_seen.size()) m_seen.resize(t + 1, 0);
        if (m_seen[t] != m_stamp) {
            m_seen[t] = m_stamp;
            ++tracks;
        }
    }
    m_extra[row] = extra;
    m_tracks[row] = tracks;
}

SortKeys WindowModel::sortKeys(int column) const {
    if (!m_report) return ReportTableModel::sortKeys(column);
    const auto& windows = m_report->windows;
    SortKeys keys;
    keys.codes.reserve(windows.size());
    for (std::size_t k = 0; k < windows.size(); ++k) {
        const ContentionWindow& w = windows[k];
        switch (column) {
        case Id: keys.codes.push_back(orderedInt(static_cast<qint64>(w.id))); break;
        case Gain: keys.codes.push_back(orderedInt(w.gainNs)); break;
        case Start: keys.codes.push_back(orderedInt(w.start)); break;
        case Duration: keys.codes.push_back(orderedInt(w.end - w.start)); break;
        case Ops: keys.codes.push_back(orderedInt(static_cast<qint64>(w.ops.size()))); break;
        case Tracks:
            derive(k);
            keys.codes.push_back(orderedInt(m_tracks[k]));
            break;
        case Overlap: keys.codes.push_back(orderedReal(w.overlapRatio)); break;
        case Peak: keys.codes.push_back(orderedReal(w.peakUtilization)); break;
        case ExtraWait:
            derive(k);
            keys.codes.push_back(orderedInt(m_extra[k]));
            break;
        case Resource: return resourceKeys(column);
        default: return ReportTableModel::sortKeys(column);
        }
    }
    return keys;
}

int WindowModel::rows() const { return m_report ? static_cast<int>(m_report->windows.size()) : 0; }

QVariant WindowModel::raw(int row, int column) const {
    const ContentionWindow& w = m_report->windows[static_cast<std::size_t>(row)];
    switch (column) {
    case Id: return static_cast<qint64>(w.id);
    case Gain: return static_cast<qint64>(w.gainNs);
    case Resource: return static_cast<int>(w.resource);
    case Start: return static_cast<qint64>(w.start);
    case Duration: return static_cast<qint64>(w.end - w.start);
    case Ops: return static_cast<qint64>(w.ops.size());
    case Tracks:
        derive(static_cast<std::size_t>(row));
        return static_cast<qint64>(m_tracks[static_cast<std::size_t>(row)]);
    case Overlap: return w.overlapRatio;
    case Peak: return w.peakUtilization;
    case ExtraWait: derive(static_cast<std::size_t>(row)); return m_extra[static_cast<std::size_t>(row)];
    case Known: return QString::fromLatin1(provenanceName(w.provenance));
    default: return {};
    }
}

qint64 WindowModel::rowId(int row) const { return row; }

std::pair<qint64, qint64> WindowModel::rowSpan(int row) const {
    const ContentionWindow& w = m_report->windows[static_cast<std::size_t>(row)];
    return {w.start, w.end};
}

}  // namespace contend::widgets
