// The timeline's marked slices: a contention pattern's runs beside its partner (slice_marks.h).
#include "widgets/common/text.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::widgets {

void TimelineView::setMarks(std::shared_ptr<const SliceMarks> marks) {
    m_marks = marks && !marks->empty() ? std::move(marks) : nullptr;
    update();
}

void TimelineView::markPattern(const ContentionPattern& pattern, quint32 keep) {
    if (!m_data || !m_data->trace) return clearMarks();
    std::vector<std::uint32_t> slices;
    slices.reserve(pattern.runs.size());
    for (const PatternRun& run : pattern.runs) slices.push_back(run.slice);
    const QString victim = shortOperatorName(QString::fromStdString(pattern.victim));
    const QString partner = shortOperatorName(QString::fromStdString(pattern.partner));
    const QString label = pattern.runs.size() == 1
                              ? tr("1 run of %1 beside %2").arg(victim, partner)
                              : tr("%1 runs of %2 beside %3").arg(pattern.runs.size()).arg(victim, partner);
    setMarks(std::make_shared<const SliceMarks>(*m_data->trace, m_data->index, std::move(slices), label.toStdString(),
                                                keep));
}

}  // namespace contend::widgets
