// The compare window's navigation: aligning the two runs, keeping their zoom in step, and going
// from a row or a slice on one side to the matching operator on the other.
#include <algorithm>
#include <cstdlib>

#include <QComboBox>
#include <QStatusBar>

#include "app/gui/compare_window.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/text.h"
#include "widgets/common/view_state.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

namespace {

// Index of a signature in a report's operator table, kNone if absent.
std::uint32_t signatureIndex(const Report& r, const std::string& sig) {
    for (std::size_t i = 0; i < r.operators.size(); ++i)
        if (r.operators[i].signature == sig) return static_cast<std::uint32_t>(i);
    return kNone;
}

// The time both runs are aligned on.
TimeNs anchorOf(const OpenedTrace& t, const Report* r, CompareWindow::Alignment a) {
    if (a == CompareWindow::Alignment::FirstIteration && r && !r->iterations.empty())
        return r->iterations.front().start;
    return t.trace->begin();
}

}  // namespace

void CompareWindow::setAlignment(Alignment a) {
    m_alignment = a;
    {
        const QSignalBlocker block(m_alignBox);
        m_alignBox->setCurrentIndex(a == Alignment::FirstIteration ? 0 : 1);
    }
    updateOffset();  // the comparison's views move to the new offset; the baseline stays
}

void CompareWindow::updateOffset() {
    const Run& base = m_runs[Base];
    const Run& now = m_runs[New];
    if (!base.trace || !now.trace) return;
    const bool iter = m_alignment == Alignment::FirstIteration;
    const bool bothHave =
        base.report && now.report && !base.report->iterations.empty() && !now.report->iterations.empty();
    const Alignment a = bothHave ? m_alignment : Alignment::TraceStart;
    m_offset = anchorOf(*now.trace, now.report.get(), a) - anchorOf(*base.trace, base.report.get(), a);
    applyOffset();
    if (iter && !bothHave)
        statusBar()->showMessage(tr("A run has no iteration markers: aligned on the trace start"), 8000);
}

void CompareWindow::applyOffset() {
    // m_offset takes a baseline time to the comparison's; the shared range is in the baseline's.
    m_runs[New].timeline->setZoomOffset(m_offset);
    m_runs[New].heatmap->setZoomOffset(m_offset);
}

quint32 CompareWindow::matchingSlice(quint32 slice, bool toNew) const { return matching(slice, toNew ? Base : New); }

quint32 CompareWindow::matching(quint32 slice, Side fromSide) const {
    const Run& from = m_runs[fromSide];
    const Run& to = m_runs[other(fromSide)];
    if (!from.report || !to.report || !from.trace || !to.trace || !from.trace->prepared || !to.trace->prepared)
        return kNone;
    const std::uint32_t sig = from.trace->prepared->sliceView()->signatureOf(slice);
    if (sig >= from.report->operators.size()) return kNone;
    const std::uint32_t j = signatureIndex(*to.report, from.report->operators[sig].signature);
    if (j == kNone) return kNone;
    const TimeNs target = from.trace->trace->slices()[slice].start + (fromSide == Base ? m_offset : -m_offset);
    const auto& slices = to.trace->trace->slices();
    quint32 best = kNone;
    TimeNs bestDist = std::numeric_limits<TimeNs>::max();
    // The occurrences of that signature from the prepared analysis' per-slice view, not a pass
    // over every slice (slice order: ties go to the lowest slice index, as the pass did).
    for (const std::uint32_t i : to.trace->prepared->sliceView()->occurrencesOf(j)) {
        const TimeNs dist = std::llabs(slices[i].start - target);
        if (dist < bestDist || (dist == bestDist && i < best)) bestDist = dist, best = i;
    }
    return best;
}

quint32 CompareWindow::firstOccurrence(const std::string& signature, bool inNew) const {
    return first(signature, inNew ? New : Base);
}

quint32 CompareWindow::first(const std::string& signature, Side in) const {
    const Run& run = m_runs[in];
    if (!run.report || !run.trace || !run.trace->prepared) return kNone;
    const std::uint32_t j = signatureIndex(*run.report, signature);
    if (j == kNone) return kNone;
    const auto& slices = run.trace->trace->slices();
    quint32 best = kNone;
    // Earliest start; among equal starts the lowest slice index, as the pass in slice order did.
    for (const std::uint32_t i : run.trace->prepared->sliceView()->occurrencesOf(j))
        if (best == kNone || slices[i].start < slices[best].start ||
            (slices[i].start == slices[best].start && i < best))
            best = i;
    return best;
}

void CompareWindow::updateBreakdowns() {
    for (const Run& run : m_runs) run.breakdown->showSlice(run.timeline->selectedSlice());
}

void CompareWindow::showRow(CompareModel::Kind kind, int row) {
    if (!m_result) return;
    const CompareModel* model = kind == CompareModel::Kind::Operators   ? m_opModel
                                : kind == CompareModel::Kind::Anomalies ? m_anModel
                                                                        : m_patModel;
    quint32 b = model->baseSlice(row), n = model->newSlice(row);
    if (kind == CompareModel::Kind::Operators) {
        b = first(model->signature(row), Base);
        n = first(model->signature(row), New);
    } else {
        // An anomaly or pattern only one run has: show where the same signature ran in the other.
        if (b == kNone && n != kNone) b = matching(n, New);
        if (n == kNone && b != kNone) n = matching(b, Base);
    }
    TimelineView* baseView = m_runs[Base].timeline;
    TimelineView* newView = m_runs[New].timeline;
    if (b != kNone && n != kNone) {
        // One time scale for both: aligned on the two operators' starts, wide enough for the
        // longer one, so their durations compare by eye. Zoom and pan then stay in step.
        const Slice& sb = m_runs[Base].trace->trace->slices()[b];
        const Slice& sn = m_runs[New].trace->trace->slices()[n];
        m_offset = sn.start - sb.start;
        applyOffset();
        const TimeNs longest = std::max<TimeNs>({sb.dur, sn.dur, 1});
        const TimeNs pad = longest / 4 + 1;
        m_runs[Base].selection->select(b);
        m_runs[New].selection->select(n);
        baseView->zoomTo(sb.start - pad, sb.start + longest + pad, 0.0);  // the comparison follows
        statusBar()->showMessage(tr("Both timelines on one scale, aligned on the operator's start (%1 vs %2)")
                                     .arg(durationText(sb.dur), durationText(sn.dur)),
                                 8000);
        updateBreakdowns();
        return;
    }
    m_runs[Base].selection->select(b);
    m_runs[New].selection->select(n);
    // A signature only one run has: it is revealed there, and the other timeline follows to the
    // aligned place through the shared range.
    if (b != kNone)
        baseView->selectSlice(b, true);
    else if (n != kNone)
        newView->selectSlice(n, true);
    updateBreakdowns();
}

}  // namespace contend::gui
