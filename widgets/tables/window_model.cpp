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
    m_extra.clear();
    m_tracks.clear();
    if (m_report) {
        for (const ContentionWindow& w : m_report->windows) {
            qint64 extra = 0;
            std::vector<std::uint32_t> tracks;
            for (const WindowOp& op : w.ops) {
                extra += op.extraWaitNs;
                if (op.slice < m_trace->slices().size()) tracks.push_back(m_trace->slices()[op.slice].track);
            }
            std::sort(tracks.begin(), tracks.end());
            m_extra.push_back(extra);
            m_tracks.push_back(static_cast<int>(std::unique(tracks.begin(), tracks.end()) - tracks.begin()));
        }
    }
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
    case Tracks: return static_cast<qint64>(m_tracks[static_cast<std::size_t>(row)]);
    case Overlap: return w.overlapRatio;
    case Peak: return w.peakUtilization;
    case ExtraWait: return m_extra[static_cast<std::size_t>(row)];
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
