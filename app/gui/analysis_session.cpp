#include "app/gui/analysis_session.h"

#include <chrono>
#include <exception>

#include <QElapsedTimer>
#include <QFileInfo>

#include "app/gui/load_thread.h"
#include "core/analysis/whatif/whatif.h"

namespace contend::gui {

void ReportWorker::build(quint64 generation, quint64 request, OpenedTracePtr trace, Thresholds thresholds,
                         WhatIfCachePtr cache) {
    const PreparedPtr prepared = trace ? trace->prepared : nullptr;
    QElapsedTimer t;
    t.start();
    auto ms = [&t] { return static_cast<double>(t.nsecsElapsed()) / 1e6; };
    auto wanted = [live = m_live, latest = m_latest, generation, request] {
        return live->load() == generation && latest->load() == request;
    };
    // A step a newer one made stale before it began is not shown at all.
    const ReportPtr findings = prepared && wanted() ? buildFindingsForApp(*prepared, thresholds) : nullptr;
    if (!findings || !wanted()) {
        emit built(generation, request, nullptr, nullptr, ms(), 0, false);
        return;
    }
    emit built(generation, request, findings, overlayForApp(*trace, *findings), ms(), 0, true);
    double whatIfMs = 0;
    const ReportPtr full = addGainsForApp(*prepared, *findings, wanted, cache.get(), &whatIfMs);
    emit built(generation, request, full, full && wanted() ? overlayForApp(*trace, *full) : nullptr, ms(), whatIfMs,
               false);
}

AnalysisSession::AnalysisSession(QObject* parent) : QObject(parent) {
    qRegisterMetaType<OpenedTracePtr>("contend::gui::OpenedTracePtr");
    qRegisterMetaType<ReportPtr>("contend::gui::ReportPtr");
    qRegisterMetaType<PreparedPtr>("contend::gui::PreparedPtr");
    qRegisterMetaType<Thresholds>("contend::Thresholds");
    qRegisterMetaType<WhatIfCachePtr>("contend::gui::WhatIfCachePtr");
    qRegisterMetaType<OverlayPtr>("contend::gui::OverlayPtr");
    auto* worker = new ReportWorker(m_live, m_latest);
    worker->moveToThread(&m_reportThread);
    connect(&m_reportThread, &QThread::finished, worker, &QObject::deleteLater);
    connect(this, &AnalysisSession::buildRequested, worker, &ReportWorker::build, Qt::QueuedConnection);
    connect(
        worker, &ReportWorker::built, this,
        [this](quint64 generation, quint64 request, ReportPtr report, OverlayPtr overlay, double ms, double whatIfMs,
               bool gainsPending) {
            if (!gainsPending) m_building = false;
            if (generation == m_generation && report) {
                m_report = std::move(report);
                m_overlay = std::move(overlay);
                m_reportRequest = request;
                m_gainsPending = gainsPending;
                if (gainsPending) {
                    m_lastFindingsMs = static_cast<double>(m_requestClock.nsecsElapsed()) / 1e6;
                    m_lastFindingsBuildMs = ms;
                } else {
                    m_lastBuildMs = ms;
                    m_lastWhatIfMs = whatIfMs;
                }
                emit reportChanged(m_report);
            }
            if (!m_building && m_pending) dispatchBuild();
        },
        Qt::QueuedConnection);
    m_reportThread.setObjectName(QStringLiteral("contend-report"));
    m_reportThread.start();
}

AnalysisSession::~AnalysisSession() {
    // Current and abandoned loads alike: a QThread must not be destroyed while it runs.
    for (LoadThread* t : findChildren<LoadThread*>()) {
        t->cancel();
        t->wait();
    }
    m_live->store(~quint64{0});  // a what-if still running stops at its next replay
    m_reportThread.quit();
    m_reportThread.wait();
}

QString AnalysisSession::loadingPath() const { return m_load ? m_load->path() : QString(); }

void AnalysisSession::open(const QString& path, const Thresholds& thresholds) {
    if (m_load) {
        // The old load finishes (or stops) on its own and deletes itself; its signals are cut.
        m_load->cancel();
        disconnect(m_load, nullptr, this, nullptr);
        const QString old = m_load->path();
        m_load = nullptr;
        if (previewing()) {
            keepPreview();
            emit opened(m_current);
        } else {
            emit cancelled(old);
        }
    }
    m_thresholds = thresholds;
    const quint64 request = ++m_request;
    m_latest->store(request);
    AnalysisSettings settings;
    settings.coefficient = thresholds.coefficient;
    settings.overlapRatio = thresholds.overlapRatio;
    auto* load = new LoadThread(path, settings, this);
    m_load = load;
    connect(load, &QThread::finished, load, &QObject::deleteLater);
    connect(load, &LoadThread::progress, this, &AnalysisSession::progress);
    connect(load, &LoadThread::indexed, this, [this, load](OpenedTracePtr preview) {
        if (load != m_load || !m_previews) return;
        m_current = std::move(preview);
        m_report = nullptr;
        m_overlay = nullptr;
        m_gainsPending = false;
        // A build still running for the previous trace must not land (and stops); its cache
        // goes with it.
        m_live->store(++m_generation);
        m_cache = nullptr;
        m_building = false;
        emit previewed(m_current);
    });
    connect(load, &LoadThread::done, this, [this, load, request](OpenedTracePtr t) {
        if (load != m_load) return;
        finishLoad();
        m_current = std::move(t);
        m_report = m_current->report;
        m_overlay = m_current->overlay;
        m_gainsPending = false;
        m_reportRequest = request;
        // The first report's replays start the cache; a build still running holds the old one.
        m_cache = m_cacheEnabled ? load->takeWhatIfCache() : nullptr;
        m_live->store(++m_generation);
        m_building = false;
        m_pending = false;
        emit opened(m_current);
        // Thresholds asked for while it opened: its first report was built at the earlier ones.
        if (m_current && m_current->prepared && m_reportRequest != m_request) {
            m_pending = true;
            dispatchBuild();
        }
    });
    connect(load, &LoadThread::failed, this, [this, load, path](const QString& message) {
        if (load != m_load) return;
        finishLoad();
        emit failed(path, message);
    });
    connect(load, &LoadThread::cancelled, this, [this, load, path]() {
        if (load != m_load) return;
        finishLoad();
        emit cancelled(path);
    });
    emit busyChanged(true);
    load->start();
}

void AnalysisSession::finishLoad() {
    m_load = nullptr;
    emit busyChanged(false);
}

void AnalysisSession::cancel() {
    if (!m_load) return;
    m_load->cancel();
    disconnect(m_load, nullptr, this, nullptr);
    const QString path = m_load->path();
    if (previewing()) {
        keepPreview();
        finishLoad();
        emit opened(m_current);
        return;
    }
    finishLoad();
    emit cancelled(path);
}

void AnalysisSession::keepPreview() {
    auto kept = std::make_shared<OpenedTrace>(*m_current);
    kept->analysing = false;
    kept->analysisError = tr("The analysis of %1 was cancelled: its timeline is shown without findings (open it "
                             "again to analyse it).")
                              .arg(QFileInfo(kept->path).fileName());
    m_current = std::move(kept);
    m_report = nullptr;
    m_overlay = nullptr;
    m_gainsPending = false;
    m_pending = false;
}

void AnalysisSession::adopt(OpenedTracePtr trace, ReportPtr report) {
    m_current = std::move(trace);
    m_report = report ? std::move(report) : (m_current ? m_current->report : nullptr);
    // The trace's overlay only if it was built for this report.
    m_overlay = m_current && m_current->report == m_report ? m_current->overlay : nullptr;
    if (m_report) m_thresholds = m_report->settings.thresholds();
    m_reportRequest = ++m_request;
    m_latest->store(m_request);
    m_gainsPending = false;
    m_live->store(++m_generation);  // a build still running for an earlier trace must not land (and stops)
    m_building = false;
    m_pending = false;
    // Its own cache: the session that opened the trace may re-threshold it at the same time.
    m_cache = m_cacheEnabled && m_current ? makeWhatIfCache(m_current->prepared) : nullptr;
    if (m_current) emit opened(m_current);
}

void AnalysisSession::setThresholds(const Thresholds& thresholds) {
    m_thresholds = thresholds;
    m_latest->store(++m_request);  // a what-if still running for an older step stops
    m_requestClock.start();
    if (!m_current || !m_current->prepared) return;
    m_pending = true;
    if (!m_building) dispatchBuild();
}

void AnalysisSession::dispatchBuild() {
    if (!m_current || !m_current->prepared) {
        m_pending = false;
        return;
    }
    m_pending = false;
    m_building = true;
    emit buildRequested(m_generation, m_request, m_current, m_thresholds, m_cache);
}

}  // namespace contend::gui
