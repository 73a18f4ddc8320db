// MainWindow, sessions: File > Save Session… and Open Session… (the format: session_file.h).
// Opening one opens its trace with its thresholds; once the analysis is in, the layout, the
// tracks, the range and the selection follow. A session that cannot be read, or whose trace is
// missing or fails to open, is an error in the message bar, and the trace already open stays.
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "app/gui/save_file.h"
#include "app/gui/session_file.h"
#include "app/gui/settings_panel.h"
#include "app/gui/view_binder.h"
#include "widgets/common/view_state.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

void MainWindow::addSessionActions(QMenu* file) {
    file->addSeparator();
    QAction* open = file->addAction(tr("Open &Session…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), sessionFileFilter());
        if (!path.isEmpty()) openSession(path);
    });
    open->setObjectName(QStringLiteral("actionOpenSession"));
    open->setToolTip(tr("Open a saved session: its trace, thresholds, layout, tracks, range and selection"));
    m_saveSession = file->addAction(tr("Save S&ession…"), this, [this] {
        const OpenedTrace* cur = m_session->current();
        const QString base = cur ? QFileInfo(cur->path).completeBaseName() : QStringLiteral("session");
        QString path = QFileDialog::getSaveFileName(this, tr("Save session"), base + QStringLiteral(".contend-session"),
                                                    sessionFileFilter());
        if (path.isEmpty()) return;
        if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".contend-session");
        if (const std::optional<Failure> failed = saveSession(path))
            m_message->showMessage(MessageBar::Kind::Error, tr("Could not save the session"), {failureText(*failed)});
        else
            statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    });
    m_saveSession->setObjectName(QStringLiteral("actionSaveSession"));
    m_saveSession->setToolTip(tr("Save the trace's path, thresholds, layout, tracks, range and selection"));
    m_saveSession->setEnabled(false);

    // Once the views have the trace (queued: after the window's own onTraceShown, which starts
    // the new trace with nothing selected), a session waiting for it is applied.
    connect(
        m_binder, &ViewBinder::traceShown, this,
        [this](OpenedTracePtr opened) {
            if (!m_pendingSession || !opened || opened->analysing ||
                QFileInfo(opened->path) != QFileInfo(QString::fromStdString(m_pendingSession->tracePath)))
                return;
            const std::shared_ptr<SessionState> s = std::move(m_pendingSession);
            applySession(*s, m_pendingSessionPath);
        },
        Qt::QueuedConnection);
    connect(
        m_session, &AnalysisSession::failed, this, [this](const QString& path) { sessionOpenFailed(path); },
        Qt::QueuedConnection);
    connect(
        m_session, &AnalysisSession::cancelled, this, [this](const QString& path) { sessionOpenFailed(path); },
        Qt::QueuedConnection);
}

std::optional<Failure> MainWindow::saveSession(const QString& path) {
    const OpenedTrace* cur = m_session->current();
    if (!cur) return saveRefused(tr("no trace is open: a session keeps an open trace's view"));
    const Trace& trace = *cur->trace;
    SessionState s;
    s.tracePath = QFileInfo(cur->path).absoluteFilePath().toStdString();
    s.traceRelative =
        QFileInfo(path).absoluteDir().relativeFilePath(QFileInfo(cur->path).absoluteFilePath()).toStdString();
    s.thresholds = m_settings->thresholds();
    s.windowState = saveState(kStateVersion).toBase64().toStdString();
    if (m_zoom->isSet()) {
        s.hasRange = true;
        s.rangeStart = m_zoom->start();
        s.rangeEnd = std::max(m_zoom->end(), m_zoom->start() + 1);
    }
    if (m_selection->selected() < trace.slices().size()) s.selection = selectionRef(trace, m_selection->selected());
    storeTracks(trace, m_timeline->trackArrangement(), s);
    return saveFileAtomically(path, sessionToJson(s));
}

bool MainWindow::openSession(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    auto refuse = [&](const QStringList& why) {
        QStringList lines = why;
        if (m_session->current())
            lines << tr("Still showing %1.").arg(QFileInfo(m_session->current()->path).fileName());
        m_message->showMessage(MessageBar::Kind::Error, tr("Could not open the session %1").arg(name), lines);
        statusBar()->showMessage(tr("Could not open the session %1").arg(name), 8000);
        return false;
    };
    Result<SessionState> read = readSessionFile(QFileInfo(path).absoluteFilePath());
    if (!read) return refuse({failureText(read.failure())});
    const SessionState& s = read.value();
    const QString trace = sessionTracePath(s, path);
    if (!QFileInfo::exists(trace))
        return refuse({tr("%1: the trace it opens, %2, does not exist (nor %3 beside the session).")
                           .arg(QFileInfo(path).absoluteFilePath(), trace,
                                QString::fromStdString(s.traceRelative.empty() ? s.tracePath : s.traceRelative))});
    const OpenedTrace* cur = m_session->current();
    if (cur && !m_session->busy() && QFileInfo(cur->path) == QFileInfo(trace)) {
        applySession(s, path);  // the trace is open: no need to read it again
        return true;
    }
    // The first report is built with the session's thresholds; if the trace then fails to open,
    // the panel goes back to the thresholds of the trace that stays.
    m_pendingSession = std::make_shared<SessionState>(s);
    m_pendingSession->tracePath = QFileInfo(trace).absoluteFilePath().toStdString();  // the one opened
    m_pendingSessionPath = QFileInfo(path).absoluteFilePath();
    m_thresholdsBeforeSession = m_settings->thresholds();
    m_settings->setValues(s.thresholds, m_settings->granularity());
    openPath(trace);
    return true;
}

void MainWindow::sessionOpenFailed(const QString& tracePath) {
    // Only the failure of the session's own trace (not of a load it cancelled).
    if (!m_pendingSession || QFileInfo(tracePath) != QFileInfo(QString::fromStdString(m_pendingSession->tracePath)))
        return;
    const std::shared_ptr<SessionState> s = std::move(m_pendingSession);
    m_settings->setValues(m_thresholdsBeforeSession, m_settings->granularity());
    if (m_session->current() && m_session->thresholds() != m_thresholdsBeforeSession)
        m_session->setThresholds(m_thresholdsBeforeSession);
    // The window's own handler said why the trace did not open; the title names the session.
    QStringList lines{tr("Its trace %1 could not be opened (above).").arg(tracePath)};
    if (m_session->current()) lines << tr("Still showing %1.").arg(QFileInfo(m_session->current()->path).fileName());
    const QString previous = m_message->text();
    if (!previous.isEmpty()) lines.prepend(previous);
    m_message->showMessage(MessageBar::Kind::Error,
                           tr("Could not open the session %1").arg(QFileInfo(m_pendingSessionPath).fileName()), lines);
}

void MainWindow::applySession(const SessionState& s, const QString& sessionPath) {
    const OpenedTrace* cur = m_session->current();
    if (!cur) return;
    const Trace& trace = *cur->trace;
    QStringList notRestored;
    if (s.thresholds != m_settings->thresholds() || s.thresholds != m_session->thresholds()) {
        m_settings->setValues(s.thresholds, m_settings->granularity());
        m_session->setThresholds(s.thresholds);
    }
    saveThresholds(s.thresholds);
    if (!s.windowState.empty() &&
        !restoreLayout(QByteArray(), QByteArray::fromBase64(QByteArray::fromStdString(s.windowState))))
        notRestored << tr("the window layout (the default is shown)");
    int missing = 0;
    m_timeline->setTrackArrangement(restoreTracks(trace, s, &missing));
    if (missing > 0) notRestored << tr("%n track(s) the trace no longer has", nullptr, missing);
    if (s.hasRange) m_timeline->zoomTo(s.rangeStart, s.rangeEnd, 0.0);
    if (s.selection) {
        const std::uint32_t slice = findSelection(trace, *s.selection);
        if (slice == kNone) {
            notRestored << tr("the selected operator %1").arg(QString::fromStdString(s.selection->name));
        } else {
            selectSlice(slice, false);
            const Slice& sl = trace.slices()[slice];
            m_timeline->scrollToRow(m_timeline->layout().rowOf(sl.track, sl.depth));
        }
    }
    const QString name = QFileInfo(sessionPath).fileName();
    if (notRestored.isEmpty()) {
        statusBar()->showMessage(tr("Restored the session %1").arg(name), 8000);
    } else {
        m_message->showMessage(MessageBar::Kind::Warning,
                               tr("Restored the session %1, except what the trace or this window lacks").arg(name),
                               {tr("Not restored: %1.").arg(notRestored.join(tr("; ")))});
    }
}

}  // namespace contend::gui
