#include "widgets/tables/window_model.h"

#include <algorithm>

#include "core/analysis/model/report.h"

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

bool WindowModel::needsBuilt(int column) {
    return column == Gain || column == Ops || column == Peak || column == ExtraWait ||
           column == Tracks;  // Tracks: only where the rows do not carry them
}

bool WindowModel::cellPending(int, int column) const {
    return m_waiting && needsBuilt(column) && !(column == Tracks && m_report->windows.compactTracks());
}

void WindowModel::reportChanged() {
    // Snapshot: the what-if may build the windows meanwhile; the table shows them with its report.
    m_waiting = m_report && m_gainsPending && m_report->windows.lazy() && !m_report->windows.built();
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
    const WindowList& list = m_report->windows;
    if (m_waiting) {  // only the tracks, from the rows; the extra wait comes with the gains
        m_tracks[row] = list.compactTracks() ? static_cast<int>(list.tracks(row).size()) : 0;
        return;
    }
    const ContentionWindow& w = list[row];
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
    const WindowList& windows = m_report->windows;
    const std::size_t n = windows.size();
    SortKeys keys;
    if (column == Resource) return resourceKeys(column);
    if (column == Known) return ReportTableModel::sortKeys(column);  // through the cells: the rows'
    keys.codes.reserve(n);
    if (cellPending(0, column)) {  // all equal: the rows keep their order until the gains come
        keys.codes.assign(n, 0);
        return keys;
    }
    // The compact columns from the rows (window_list.h), without building the windows.
    switch (column) {
    case Id:
        for (std::size_t k = 0; k < n; ++k) keys.codes.push_back(orderedInt(static_cast<qint64>(windows.id(k))));
        return keys;
    case Start:
        for (std::size_t k = 0; k < n; ++k) keys.codes.push_back(orderedInt(windows.start(k)));
        return keys;
    case Duration:
        for (std::size_t k = 0; k < n; ++k) keys.codes.push_back(orderedInt(windows.end(k) - windows.start(k)));
        return keys;
    case Overlap:
        for (std::size_t k = 0; k < n; ++k) keys.codes.push_back(orderedReal(windows.overlapRatio(k)));
        return keys;
    case Tracks:
    case ExtraWait:
        for (std::size_t k = 0; k < n; ++k) {
            derive(k);
            keys.codes.push_back(orderedInt(column == Tracks ? m_tracks[k] : m_extra[k]));
        }
        return keys;
    default: break;
    }
    for (std::size_t k = 0; k < n; ++k) {
        const ContentionWindow& w = windows[k];
        switch (column) {
        case Gain: keys.codes.push_back(orderedInt(w.gainNs)); break;
        case Ops: keys.codes.push_back(orderedInt(static_cast<qint64>(w.ops.size()))); break;
        case Peak: keys.codes.push_back(orderedReal(w.peakUtilization)); break;
        default: return ReportTableModel::sortKeys(column);
        }
    }
    return keys;
}

int WindowModel::rows() const { return m_report ? static_cast<int>(m_report->windows.size()) : 0; }

QVariant WindowModel::raw(int row, int column) const {
    const WindowList& windows = m_report->windows;
    const auto k = static_cast<std::size_t>(row);
    // The rows' own fields first: a slider step's table reads no built window for them.
    switch (column) {
    case Id: return static_cast<qint64>(windows.id(k));
    case Resource: return static_cast<int>(windows.resource(k));
    case Start: return static_cast<qint64>(windows.start(k));
    case Duration: return static_cast<qint64>(windows.end(k) - windows.start(k));
    case Overlap: return windows.overlapRatio(k);
    case Tracks: derive(k); return static_cast<qint64>(m_tracks[k]);
    case Known:
        // A lazy window's provenance is its rows' (buildWindows: measured when from counters).
        if (windows.lazy())
            return QString::fromLatin1(
                provenanceName(windows.fromCounters(k) ? Provenance::Measured : Provenance::Estimated));
        return QString::fromLatin1(provenanceName(windows[k].provenance));
    default: break;
    }
    if (m_waiting) return column == Gain ? QVariant(qint64{-1}) : QVariant();
    const ContentionWindow& w = windows[k];
    switch (column) {
    case Gain: return static_cast<qint64>(w.gainNs);
    case Ops: return static_cast<qint64>(w.ops.size());
    case Peak: return w.peakUtilization;
    case ExtraWait: derive(k); return m_extra[k];
    default: return {};
    }
}

qint64 WindowModel::rowId(int row) const { return row; }

std::pair<qint64, qint64> WindowModel::rowSpan(int row) const {
    const auto k = static_cast<std::size_t>(row);
    return {m_report->windows.start(k), m_report->windows.end(k)};
}

}  // namespace contend::widgets
