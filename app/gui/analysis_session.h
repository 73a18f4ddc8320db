#pragma once
// Owns the open trace and the work around it, all off the GUI thread: opening (LoadThread) and
// re-thresholding (buildReport on a worker thread, coalesced: while one runs, only the latest
// request waits, so dragging a slider never queues up work). The previous trace stays current
// until a new one has opened successfully. Each re-threshold's what-if reuses the replays of the
// reports before it on the same trace (WhatIfCache, whatif.h: seeded by the first report, kept
// per session, dropped with the trace), so a slider step replays only the findings and resources
// whose changes moved; the gains are those of a what-if from scratch.
//
// Progressive opening (setPreviews, the main window's): once the trace being opened is read and
// indexed it becomes current as a preview (OpenedTrace::analysing, no analysis yet, told by
// previewed()), so the window shows its timeline while the analysis runs; opened() follows with
// the same trace and its analysis. Until the preview the previous trace stays current (a failed
// or cancelled read keeps it); a Cancel after the preview keeps the new trace without findings,
// with the reason as its analysis error, and tells it by opened().
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QThread>

#include "app/gui/app_analysis.h"
#include "app/gui/load_thread.h"
#include "app/gui/opened_trace.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "widgets/heatmap/heatmap_grid.h"

namespace contend::gui {

// Builds a report for the session in two halves: the findings at the thresholds, told at once
// (built with gainsPending), then the what-if's gains on them, told again (gainsPending false;
// a null report when it stopped). The what-if stops as soon as `live` no longer holds the
// generation it was asked for (a newer trace, or the session closing) or `latest` no longer
// holds its request (a newer slider step).
class ReportWorker : public QObject {
    Q_OBJECT
  public:
    ReportWorker(std::shared_ptr<std::atomic<quint64>> live, std::shared_ptr<std::atomic<quint64>> latest)
        : m_live(std::move(live)), m_latest(std::move(latest)) {}
  public slots:
    // `trace`: the opened trace (its prepared analysis, and the drawing index the overlay is for).
    void build(quint64 generation, quint64 request, contend::gui::OpenedTracePtr trace, contend::Thresholds thresholds,
               contend::gui::WhatIfCachePtr cache);
  signals:
    // ms: from the start of the build; whatIfMs: the what-if part (0 for the findings); overlay:
    // the report's timeline overlay, built here so the GUI thread only takes it.
    void built(quint64 generation, quint64 request, contend::gui::ReportPtr report, contend::gui::OverlayPtr overlay,
               double ms, double whatIfMs, bool gainsPending);

  private:
    std::shared_ptr<std::atomic<quint64>> m_live;
    std::shared_ptr<std::atomic<quint64>> m_latest;
};

class AnalysisSession : public QObject {
    Q_OBJECT
  public:
    explicit AnalysisSession(QObject* parent = nullptr);
    ~AnalysisSession() override;

    // Starts opening `path` (a load in progress is cancelled). The thresholds are those the
    // first report is built with.
    void open(const QString& path, const Thresholds& thresholds);
    void cancel();
    // Whether a trace being opened becomes current as a preview before its analysis (off: the
    // previous trace stays current until the whole open is done). Takes effect with the next open.
    void setPreviews(bool on) { m_previews = on; }
    // The current trace is a preview whose analysis is still running.
    bool previewing() const { return m_current && m_current->analysing; }
    bool busy() const { return m_load != nullptr; }
    QString loadingPath() const;

    // Takes a trace opened elsewhere (the main window's, for a compare against it) as current,
    // so that setThresholds re-thresholds it here; tells `opened` as if it had opened it, with
    // `report` (or the trace's first) as report().
    void adopt(OpenedTracePtr trace, ReportPtr report);

    // Re-thresholds the current trace. Without a prepared analysis nothing is built now; a
    // trace still opening is re-thresholded once it is in.
    void setThresholds(const Thresholds& thresholds);
    bool rethresholding() const { return m_building; }
    // The thresholds last asked for (open, setThresholds or an adopted report's).
    const Thresholds& thresholds() const { return m_thresholds; }
    // Whether report() answers the latest thresholds asked for, gains included: decided by
    // counting requests, not by comparing the report's doubles with the editors'.
    bool reportCurrent() const { return m_report && m_reportRequest == m_request && !m_gainsPending; }
    // The findings of the latest thresholds are in (their gains may still be computing).
    bool findingsCurrent() const { return m_report && m_reportRequest == m_request; }
    // report() holds a re-threshold's findings whose what-if is still running (gains -1 for now;
    // a second reportChanged brings them, unless a newer step made them stale).
    bool gainsPending() const { return m_gainsPending; }
    // ms from the last re-threshold's request to its findings on the GUI thread.
    double lastFindingsMs() const { return m_lastFindingsMs; }
    // ms the worker took to build those findings.
    double lastFindingsBuildMs() const { return m_lastFindingsBuildMs; }

    const OpenedTrace* current() const { return m_current.get(); }
    OpenedTracePtr currentPtr() const { return m_current; }
    ReportPtr report() const { return m_report; }
    // report()'s timeline overlay when it was built off the GUI thread (null: the timeline builds it).
    OverlayPtr overlay() const { return m_overlay; }
    double lastBuildMs() const { return m_lastBuildMs; }
    double lastWhatIfMs() const { return m_lastWhatIfMs; }
    // The what-if cache is on unless turned off (contend --bench-rethreshold --no-cache measures
    // the re-threshold without it); takes effect with the next trace.
    void setWhatIfCacheEnabled(bool on) { m_cacheEnabled = on; }
    bool whatIfCacheEnabled() const { return m_cacheEnabled; }
    // The current trace's cache (null when off or without an analysis), for tests and benches.
    const WhatIfCache* whatIfCache() const { return m_cache.get(); }

  signals:
    void progress(double fraction, const QString& text, contend::gui::LoadPhase phase);
    void busyChanged(bool busy);
    // The trace being opened, read and indexed, now current without its analysis (previews on).
    void previewed(contend::gui::OpenedTracePtr preview);
    void opened(contend::gui::OpenedTracePtr trace);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);
    void reportChanged(contend::gui::ReportPtr report);
    void buildRequested(quint64 generation, quint64 request, contend::gui::OpenedTracePtr trace,
                        contend::Thresholds thresholds, contend::gui::WhatIfCachePtr cache);

  private:
    void dispatchBuild();
    void finishLoad();
    // A load abandoned after its preview: the preview stays current, without findings.
    void keepPreview();

    QPointer<LoadThread> m_load;
    OpenedTracePtr m_current;
    ReportPtr m_report;
    OverlayPtr m_overlay;  // m_report's, or null
    quint64 m_generation = 0;
    // m_generation as the worker sees it (its what-if stops when the two differ).
    std::shared_ptr<std::atomic<quint64>> m_live = std::make_shared<std::atomic<quint64>>(0);
    QThread m_reportThread;
    bool m_building = false;
    bool m_pending = false;
    Thresholds m_thresholds;
    // Threshold requests so far, and the one m_report was built for (or opened with).
    quint64 m_request = 0;
    quint64 m_reportRequest = 0;
    double m_lastBuildMs = 0;
    double m_lastWhatIfMs = 0;
    double m_lastFindingsMs = 0;
    double m_lastFindingsBuildMs = 0;
    bool m_gainsPending = false;
    QElapsedTimer m_requestClock;  // since the last setThresholds
    // m_request as the worker sees it (a what-if for an older request stops).
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    // Handed to the worker with each build; builds run one at a time, so one thread uses it.
    WhatIfCachePtr m_cache;
    bool m_cacheEnabled = true;
    bool m_previews = false;
};

}  // namespace contend::gui

Q_DECLARE_METATYPE(contend::gui::PreparedPtr)
Q_DECLARE_METATYPE(contend::Thresholds)
Q_DECLARE_METATYPE(contend::gui::WhatIfCachePtr)
