// MainWindow, part 2: what happens when a trace opens or fails, when a report arrives, when
// the user selects an operator, and exporting.
#include <algorithm>
#include <vector>

#include <QBuffer>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>

#include "app/gui/analysing_strip.h"
#include "app/gui/analysis_session.h"
#include "app/gui/compare_window.h"
#include "app/gui/load_thread.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "app/gui/recent_files.h"
#include "app/gui/save_file.h"
#include "app/gui/search_bar.h"
#include "app/gui/settings_panel.h"
#include "app/gui/view_binder.h"
#include "core/report/single/advice.h"
#include "core/report/single/report_json.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/breakdowns/breakdowns_chart.h"
#include "widgets/common/text.h"
#include "widgets/common/view_state.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/cluster_model.h"
#include "widgets/tables/occurrence_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/pattern_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/window_model.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

void MainWindow::openPath(const QString& path) {
    // Even a missing file goes through the session, so its failure is reported like any other.
    m_session->open(QFileInfo(path).absoluteFilePath(), m_settings->thresholds());
    statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::onFailed(const QString& path, const QString& message) {
    // The previous trace stays open; the reason is shown where the user is looking.
    QStringList lines{message};
    if (m_session->current()) lines << tr("Still showing %1.").arg(QFileInfo(m_session->current()->path).fileName());
    m_message->showMessage(MessageBar::Kind::Error, tr("Could not open %1").arg(QFileInfo(path).fileName()), lines);
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
}

void MainWindow::onTraceShown(OpenedTracePtr opened) {
    const Trace& t = *opened->trace;
    // The views start a new trace with nothing selected; the analysis of a preview is the same
    // trace, and what the user selected on it stays.
    if (m_shownTrace.lock() != opened->trace) m_selection->clear();
    m_shownTrace = opened->trace;
    if (opened->analysing) {
        // A preview: the timeline now, the analysis still running (its stage above the timeline).
        setWindowTitle(tr("Contend — %1 (analysing…)").arg(QFileInfo(opened->path).fileName()));
        m_centre->setCurrentWidget(m_timeline);
        m_strip->show();
        // The sliders stay live: a change while it runs is applied once the analysis is in.
        m_settings->setAnalysisAvailable(true, QString());
        updateSummary();
        if (!opened->warnings.isEmpty())
            m_message->showMessage(MessageBar::Kind::Warning,
                                   tr("%1 was imported with warnings").arg(QFileInfo(opened->path).fileName()),
                                   opened->warnings);
        else
            m_message->clear();
        updateActions();
        return;
    }
    m_strip->hide();
    setWindowTitle(tr("Contend — %1").arg(QFileInfo(opened->path).fileName()));
    RecentFiles::add(opened->path);
    rebuildRecentMenu();
    // The load ended before the trace became current (the session says busy ends first): the
    // start page gives way to the timeline here.
    if (showsWelcome()) m_centre->setCurrentWidget(m_timeline);

    m_settings->setAnalysisAvailable(opened->prepared != nullptr, opened->analysisError);
    updateSummary();

    // A partial or damaged input first (the verdict rests on what was kept: core's note says
    // what that is), then import warnings and analysis problems, in words; otherwise the bar
    // goes away.
    const ReportPtr report = m_session->report();
    if (const ReportNote* partial = report ? partialInputNote(report->notes) : nullptr) {
        QStringList lines{QString::fromStdString(partial->text)};
        lines << opened->warnings;
        m_message->showMessage(MessageBar::Kind::Warning,
                               partial->kind == kTruncatedInputNote
                                   ? tr("%1 is cut short: the analysis rests on the part that was kept")
                                         .arg(QFileInfo(opened->path).fileName())
                                   : tr("%1 is damaged: the analysis rests on the events that could be read")
                                         .arg(QFileInfo(opened->path).fileName()),
                               lines);
    } else if (const ReportNote* remedy = report ? noteOfKind(report->notes, "no-shapes") : nullptr) {
        // What the user can do about it (open the whole folder) goes where they look first, not
        // among the summary's notes.
        QStringList lines{QString::fromStdString(remedy->text)};
        lines << opened->warnings;
        m_message->showMessage(opened->warnings.isEmpty() ? MessageBar::Kind::Info : MessageBar::Kind::Warning,
                               tr("%1 carries no input shapes: calls of one operator share one baseline")
                                   .arg(QFileInfo(opened->path).fileName()),
                               lines);
    } else if (!opened->warnings.isEmpty())
        m_message->showMessage(MessageBar::Kind::Warning,
                               tr("%1 was imported with warnings").arg(QFileInfo(opened->path).fileName()),
                               opened->warnings);
    else if (!opened->analysisError.isEmpty())
        m_message->showMessage(MessageBar::Kind::Warning, opened->analysisError);
    else
        m_message->clear();
    statusBar()->showMessage(tr("%1: %2 operators on %3 tracks, %4 counters; read in %5 s, analysed in %6 s")
                                 .arg(QFileInfo(opened->path).fileName())
                                 .arg(t.operatorCount())
                                 .arg(t.tracks().size())
                                 .arg(t.counters().size())
                                 .arg(opened->loadSeconds, 0, 'f', 2)
                                 .arg(opened->analysisSeconds, 0, 'f', 2),
                             15000);
    // Granularity "per occurrence" wants an occurrence list to look at: the worst one's.
    if (m_settings->granularity() == SettingsPanel::PerOccurrence) onGranularity(SettingsPanel::PerOccurrence, false);
    // An operator picked on the preview: told again, so Details and Breakdown show it with the
    // analysis (they started over on it).
    if (const quint32 s = m_selection->selected(); s != kNone) m_selection->select(s);
    updateActions();
}

void MainWindow::onReportShown() {
    // Keep the selection in the re-thresholded tables.
    if (const quint32 s = m_selection->selected(); s != kNone)
        m_anomalyPanel->selectSourceRow(m_anomalies->rowOfSlice(s));
    updateSummary();
    updateActions();
}

const ReportNote* noteOfKind(const std::vector<ReportNote>& notes, std::string_view kind) {
    for (const ReportNote& n : notes)
        if (n.kind == kind) return &n;
    return nullptr;
}

QString bottleneckVersusTable(const Report& r) {
    // The table is ranked by predicted gain when the what-if ran (else by score: how unusual a
    // run is); the bottleneck adds up time (extra wait with a measured or estimated cause,
    // clusters' gaps included). Say so when the two point at different resources, so the user
    // does not read the first row as the bottleneck.
    const Resource b = r.summary.bottleneck;
    if (b == Resource::None || r.anomalies.empty()) return {};
    const bool byGain = r.whatIf.computed;
    std::vector<std::size_t> order(r.anomalies.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (byGain)
        std::stable_sort(order.begin(), order.end(),
                         [&r](std::size_t x, std::size_t y) { return r.anomalies.gainNs(x) > r.anomalies.gainNs(y); });
    const std::size_t top = std::min<std::size_t>(r.anomalies.size(), 5);
    std::size_t same = 0;
    for (std::size_t i = 0; i < top; ++i) same += r.anomalies.cause(order[i]) == b;
    if (same * 2 > top) return {};
    TimeNs flaggedWait = 0;
    for (std::size_t k = 0; k < r.anomalies.size(); ++k)
        if (r.anomalies.cause(k) == b) flaggedWait += r.anomalies.excessNs(k);
    QStringList parts;
    if (flaggedWait > 0) parts << QObject::tr("%1 of the flagged operators' extra wait").arg(durationText(flaggedWait));
    if (b == Resource::Sync && r.summary.clusterWaitNs > 0)
        parts
            << QObject::tr("%1 in the gaps of sync clusters (Clusters tab)").arg(durationText(r.summary.clusterWaitNs));
    const QString ranked =
        byGain ? QObject::tr("The table is ranked by predicted gain (what fixing the run would save end to end)")
               : QObject::tr("The table is sorted by score (the most unusual runs first)");
    return QObject::tr(
               "%6: %1 of its top %2 rows wait for %3, the first for %4. "
               "The bottleneck adds up time instead, and %5 counts as %3.")
        .arg(same)
        .arg(top)
        .arg(resourceLabel(b), resourceLabel(r.anomalies.cause(order.front())), parts.join(QObject::tr(" plus ")),
             ranked);
}

QString whatIfSummaryText(const Report& r) {
    const WhatIfSummary& w = r.whatIf;
    if (!w.computed) return {};
    const double n = static_cast<double>(std::max<std::size_t>(w.iterations, 1));
    auto gain = [n](TimeNs ns) {
        if (ns < 0) return QObject::tr("not computed");
        return QObject::tr("%1 (%2 per iteration)")
            .arg(durationText(ns), durationText(static_cast<TimeNs>(static_cast<double>(ns) / n)));
    };
    QString text =
        QObject::tr("<b>Predicted end-to-end gain</b> of removing each resource's extra wait (the run: %1 in %2 %3):")
            .arg(durationText(w.totalNs))
            .arg(w.iterations)
            .arg(w.iterations == 1 ? QObject::tr("iteration") : QObject::tr("iterations"));
    if (w.resources.empty()) text += QObject::tr(" no resource caused extra wait");
    for (const ResourceGain& g : w.resources) {
        text += QObject::tr("<br>&nbsp;&nbsp;%1: %2 of its %3 extra wait")
                    .arg(resourceLabel(g.resource).toHtmlEscaped(), gain(g.gainNs), durationText(g.extraWaitNs));
        // A gain above the wait says where the difference comes from (advice.h).
        const std::string why = gainAboveWait(r, g);
        if (!why.empty())
            text += QStringLiteral(" <span style='color:#666'>(%1)</span>")
                        .arg(QString::fromStdString(why).toHtmlEscaped());
    }
    if (w.allGainNs >= 0) text += QObject::tr("<br>&nbsp;&nbsp;everything at once: %1").arg(gain(w.allGainNs));
    if (!w.criticalTrack.empty())
        text += QObject::tr("<br>The critical path runs mostly on %1 (View ▸ Critical Path).")
                    .arg(QString::fromStdString(w.criticalTrack).toHtmlEscaped());
    return text;
}

void MainWindow::updateSummary() {
    const ReportPtr r = m_session->report();
    if (!r) {
        const bool analysing = m_session->previewing();
        m_settings->setSummary(analysing ? tr("Analysing contention: the findings appear here when it ends.")
                                         : QString());
        m_reportInfo->setText(analysing ? tr("analysing…") : m_session->current() ? tr("no analysis") : QString());
        return;
    }
    const ReportSummary& s = r->summary;
    QString text = tr("<b>%1</b> flagged operators, <b>%2</b> contention windows, <b>%3</b> clusters.")
                       .arg(r->anomalies.size())
                       .arg(r->windows.size())
                       .arg(r->clusters.size());
    if (s.anomalyWaitNs > 0) {
        text += tr("<br>Extra wait %1 in flagged operators").arg(durationText(s.anomalyWaitNs));
        if (s.operatorTimeNs > 0)
            text += tr(" (%1% of %2 operator time)")
                        .arg(100.0 * static_cast<double>(s.anomalyWaitNs) / static_cast<double>(s.operatorTimeNs), 0,
                             'f', 1)
                        .arg(durationText(s.operatorTimeNs));
    }
    if (s.clusterWaitNs > 0)
        text += tr("<br>%1 in the gaps of tiny-operator clusters").arg(durationText(s.clusterWaitNs));
    if (s.bottleneck != Resource::None)
        text += tr("<br>Bottleneck <b>%1</b> (%2% of the extra wait with a measured or estimated cause).")
                    .arg(resourceLabel(s.bottleneck))
                    .arg(s.bottleneckShare * 100, 0, 'f', 0);
    else if (s.extraWaitNs > 0)
        text += tr("<br>No bottleneck shown by the evidence.");
    const QString gains = whatIfSummaryText(*r);
    if (!gains.isEmpty())
        text += QStringLiteral("<br>") + gains;
    else if (m_session->gainsPending())
        text +=
            tr("<br><b>Predicted end-to-end gain</b>: computing… (the what-if replays these findings; the "
               "tables rank them by score meanwhile)");
    const QString why = bottleneckVersusTable(*r);
    if (!why.isEmpty()) text += QStringLiteral("<br><span style='color:#444'>%1</span>").arg(why.toHtmlEscaped());
    if (s.bottleneck != Resource::None)
        text += tr("<br><b>What to try first:</b> %1.").arg(QString::fromUtf8(adviceFor(s.bottleneck)).toHtmlEscaped());
    for (const ReportNote& n : r->notes)
        text += QStringLiteral("<br><span style='color:#666'>• %1</span>")
                    .arg(QString::fromStdString(n.text).toHtmlEscaped());
    m_settings->setSummary(text);
    m_reportInfo->setText(tr("%1 flagged · %2 windows · %3 clusters")
                              .arg(r->anomalies.size())
                              .arg(r->windows.size())
                              .arg(r->clusters.size()));
}

void MainWindow::updateActions() {
    const bool haveReport = m_session->report() != nullptr;
    m_saveJson->setEnabled(haveReport);
    m_saveMarkdown->setEnabled(haveReport);
    m_exportPng->setEnabled(m_session->current() != nullptr);
    // A compare wants the baseline's analysis: not while it runs.
    m_compare->setEnabled(m_session->current() != nullptr && !m_session->previewing());
    m_saveSession->setEnabled(m_session->current() != nullptr);
}

CompareWindow* MainWindow::compareWith(const QString& path) {
    if (!m_session->currentPtr()) return nullptr;
    auto* w = new CompareWindow(this);
    w->setWindowFlag(Qt::Window);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->resize(size());
    w->setThresholds(m_settings->thresholds());
    w->openAgainst(m_session->currentPtr(), m_session->report(), path);
    w->show();
    return w;
}

void MainWindow::selectSlice(quint32 slice, bool reveal) {
    const OpenedTrace* cur = m_session->current();
    if (!cur || slice >= cur->trace->slices().size()) slice = kNone;
    m_selection->select(slice);  // every view shows it, also when it was selected already
    if (reveal && slice != kNone) m_timeline->selectSlice(slice, true);
}

void MainWindow::onSliceSelected(quint32 slice) {
    m_details->showSlice(slice);
    highlightBreakdowns(slice == kNone ? std::vector<std::uint32_t>{} : std::vector<std::uint32_t>{slice});
    m_breakdown->showSlice(slice);
    m_anomalyPanel->selectSourceRow(slice == kNone ? -1 : m_anomalies->rowOfSlice(slice));
    if (m_browser->level() == OperatorBrowser::LevelKind::Occurrences)
        m_browser->occurrencePanel()->selectSourceRow(slice == kNone ? -1
                                                                     : m_browser->occurrenceModel()->rowOfSlice(slice));
}

void MainWindow::onGranularity(int g, bool raiseDock) {
    QSettings().setValue(QStringLiteral("analysis/granularity"), g);
    if (g == SettingsPanel::PerOccurrence) {
        // Every flagged occurrence, one per row; the Network view lists the occurrences of the
        // selected (or worst) operator.
        const ReportPtr r = m_session->report();
        std::uint32_t slice = m_selection->selected();
        if (slice == kNone && r && !r->anomalies.empty()) slice = r->anomalies.front().slice;
        const SliceViewPtr slices = m_session->current() ? m_session->current()->sliceView() : nullptr;
        if (r && slices && slices->signatureOf(slice) != kNone) m_browser->openSignature(slices->signatureOf(slice));
        if (QDockWidget* d = dock(QStringLiteral("dock.flagged")); d && raiseDock) d->raise();
    } else {
        m_browser->setGrouping(g == SettingsPanel::PerOperatorType ? OperatorBrowser::Grouping::Type
                               : g == SettingsPanel::PerIteration  ? OperatorBrowser::Grouping::Iteration
                                                                   : OperatorBrowser::Grouping::Signature);
        if (QDockWidget* d = dock(QStringLiteral("dock.network")); d && raiseDock) d->raise();
    }
}

void MainWindow::zoomToWindow(quint32 w) {
    const ReportPtr r = m_session->report();
    if (!r || w >= r->windows.size()) return;
    m_timeline->zoomTo(r->windows[w].start, r->windows[w].end, 0.25);
    m_windowPanel->selectSourceRow(static_cast<int>(w));
    showWindow(w);
}

void MainWindow::showWindow(quint32 w) {
    const ReportPtr r = m_session->report();
    if (!r || w >= r->windows.size()) return;
    // The window replaces the operator selection in every pane.
    m_selection->select(kNone);
    const ContentionWindow& cw = r->windows[w];
    std::vector<std::pair<std::uint32_t, TimeNs>> ops;
    for (const WindowOp& op : cw.ops) ops.emplace_back(op.slice, op.extraWaitNs);
    std::vector<std::uint32_t> slices;
    for (const WindowOp& op : cw.ops) slices.push_back(op.slice);
    highlightBreakdowns(slices);
    m_details->showWindow(w);
    m_breakdown->showGroup(tr("<b>Contention window #%1</b> (%2, %3 operators): where its operators' time went")
                               .arg(cw.id)
                               .arg(resourceLabel(cw.resource))
                               .arg(cw.ops.size()),
                           std::move(ops));
}

void MainWindow::showPattern(quint32 index) {
    const ReportPtr r = m_session->report();
    if (!r || index >= r->patterns.size()) return;
    const quint32 s = m_patterns->index(static_cast<int>(index), 0).data(SliceRole).toUInt();
    if (s == kNone) return;
    selectSlice(s, true);  // every view shows the costliest run (and drops any earlier marks)
    m_timeline->markPattern(r->patterns[index], s);
    m_breakdown->showPattern(index);
}

void MainWindow::showCluster(quint32 c) {
    const ReportPtr r = m_session->report();
    const OpenedTrace* cur = m_session->current();
    if (!r || !cur || c >= r->clusters.size()) return;
    m_selection->select(kNone);
    const Cluster& cl = r->clusters[c];
    std::vector<std::pair<std::uint32_t, TimeNs>> ops;
    const auto& slices = cur->trace->slices();
    for (std::uint32_t s = cl.firstSlice; s <= cl.lastSlice && s < slices.size(); ++s)
        if (slices[s].track == cl.track) ops.emplace_back(s, slices[s].dur);
    std::vector<std::uint32_t> members;
    for (const auto& [s, dur] : ops) members.push_back(s);
    highlightBreakdowns(members);
    m_details->showCluster(c);
    m_breakdown->showGroup(tr("<b>Sync cluster #%1</b> (%2 operators, %3 in gaps): its longest operators")
                               .arg(cl.id)
                               .arg(cl.ops)
                               .arg(durationText(cl.waitNs)),
                           std::move(ops));
}

std::optional<Failure> MainWindow::saveReport(const QString& path, const QString& format) {
    const OpenedTrace* cur = m_session->current();
    const ReportPtr r = m_session->report();
    if (!cur || !r) return saveRefused(tr("there is no report to save (open a trace and let the analysis finish)"));
    const std::string text =
        format == QStringLiteral("json") ? reportJsonText(*r, cur->trace.get()) : reportToMarkdown(*r, *cur->trace);
    return saveFileAtomically(path, text);
}

std::optional<Failure> MainWindow::exportViewPng(const QString& path) {
    if (!m_session->current()) return saveRefused(tr("there is no trace on screen"));
    QImage image(m_timeline->size() * m_timeline->devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(m_timeline->devicePixelRatioF());
    {
        QPainter p(&image);
        m_timeline->paintTimeline(p);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return saveRefused(tr("could not encode the image"));
    return saveFileAtomically(path, bytes.toStdString());
}

}  // namespace contend::gui
