#include "app/gui/cluster_window.h"

#include <algorithm>
#include <vector>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/analysis_session.h"
#include "app/gui/app_menus.h"
#include "app/gui/cluster_compare_window.h"
#include "app/gui/loading_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "app/gui/save_file.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"
#include "widgets/cluster/cluster_models.h"
#include "widgets/cluster/rank_breakdowns_view.h"
#include "widgets/cluster/step_heatmap.h"
#include "widgets/common/text.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

quint32 findCollectiveSlice(const Trace& trace, const Report& report, const ClusterCollective& k) {
    const auto& slices = trace.slices();
    if (k.lateStartNs != 0)
        for (std::uint32_t i = 0; i < slices.size(); ++i)
            if (slices[i].start == k.lateStartNs && trace.str(slices[i].name) == k.name) return i;
    // An older report (no late_start_ns): the ordinal-th collective of the key in the step, as
    // the merge counted them (the rank's collectives in start order).
    std::vector<const CollectiveRun*> inStep;
    for (const CollectiveRun& run : report.distributed.collectives)
        if (run.iteration == k.iteration && run.name < report.distributed.collectiveNames.size() &&
            collectiveKey(report.distributed.collectiveNames[run.name]) == k.key)
            inStep.push_back(&run);
    if (k.ordinal >= inStep.size()) return kNone;
    const CollectiveRun& run = *inStep[k.ordinal];
    for (std::uint32_t i = 0; i < slices.size(); ++i)
        if (slices[i].start == run.startNs && slices[i].dur == run.durNs) return i;
    return kNone;
}

ClusterWindow::ClusterWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("ClusterWindow"));
    setWindowTitle(tr("Contend — cluster"));
    m_centre = new QStackedWidget(this);
    m_loading = new LoadingPanel(m_centre);
    auto* content = new QWidget(m_centre);
    auto* box = new QVBoxLayout(content);
    box->setContentsMargins(4, 4, 4, 4);
    m_message = new MessageBar(content);
    m_summary = new QLabel(content);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heatmap = new StepHeatmap(content);
    m_heatmap->setTitle(tr("<b>Ranks × steps</b> (double-click a cell to open that rank at that step)"));
    m_tabs = new QTabWidget(content);
    m_collectives = new LateCollectiveModel(this);
    m_ranks = new RankModel(this);
    m_collectivePanel = new TablePanel(m_collectives, tr("Filter collectives…"), m_tabs);
    m_rankPanel = new TablePanel(m_ranks, tr("Filter ranks…"), m_tabs);
    m_notes = new QLabel(m_tabs);
    m_notes->setWordWrap(true);
    m_notes->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_notes->setMargin(8);
    m_tabs->addTab(m_collectivePanel, tr("Late collectives"));
    m_tabs->addTab(m_rankPanel, tr("Ranks"));
    m_breakdowns = new RankBreakdownsView(m_tabs);
    m_tabs->addTab(m_breakdowns, tr("Breakdowns (HTA)"));
    m_tabs->addTab(m_notes, tr("Notes"));
    auto* top = new QWidget(content);
    auto* topBox = new QVBoxLayout(top);
    topBox->setContentsMargins(0, 0, 0, 0);
    topBox->addWidget(m_summary);
    topBox->addWidget(m_heatmap, 1);
    m_chain = new QLabel(content);
    m_chain->setWordWrap(true);
    m_chain->setTextFormat(Qt::RichText);
    m_chain->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bottom = new QWidget(content);
    auto* bottomBox = new QVBoxLayout(bottom);
    bottomBox->setContentsMargins(0, 0, 0, 0);
    bottomBox->addWidget(m_tabs, 1);
    bottomBox->addWidget(m_chain);
    auto* split = new QSplitter(Qt::Vertical, content);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    box->addWidget(m_message);
    box->addWidget(split, 1);
    m_centre->addWidget(content);
    m_centre->addWidget(m_loading);
    setCentralWidget(m_centre);
    buildMenus();
    statusBar()->showMessage(tr("Open a cluster report (contend-cli merge / cluster) or a folder of ranks."));

    connect(m_loading, &LoadingPanel::cancelRequested, this, &ClusterWindow::cancel);
    connect(m_heatmap, &StepHeatmap::cellActivated, this,
            [this](int rank, quint32 step) { openRank(rank, static_cast<qint64>(step)); });
    connect(m_rankPanel, &TablePanel::rowOpened, this,
            [this](const QModelIndex& src) { openRank(m_ranks->rankOf(src.row())); });
    connect(m_collectivePanel, &TablePanel::rowPicked, this, [this](const QModelIndex& src) {
        const int k = m_collectives->collectiveOf(src.row());
        if (!m_cluster || k < 0) return;
        const ClusterCollective& c = m_cluster->report->collectives[static_cast<std::size_t>(k)];
        m_chain->setText(tr("<b>Why:</b> %1; the others waited up to %2 (mean %3). <i>Double-click to open rank %4 "
                            "at this collective.</i>")
                             .arg(QString::fromStdString(c.cause.text).toHtmlEscaped(), durationText(c.maxWaitNs),
                                  durationText(c.meanWaitNs))
                             .arg(c.lateRank));
    });
    connect(m_collectivePanel, &TablePanel::rowOpened, this,
            [this](const QModelIndex& src) { openCollective(m_collectives->collectiveOf(src.row())); });
    setAcceptDrops(true);
    resize(1400, 900);
}

void ClusterWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !e->mimeData()->urls().isEmpty() && e->mimeData()->urls().front().isLocalFile())
        e->acceptProposedAction();
}

void ClusterWindow::dropEvent(QDropEvent* e) {
    // Another cluster replaces this one; a single trace opens in a main window of its own.
    const QString path = e->mimeData()->urls().front().toLocalFile();
    e->acceptProposedAction();
    if (isClusterPath(path)) {
        open(path);
        return;
    }
    auto* w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    w->openPath(path);
}

ClusterWindow::~ClusterWindow() {
    if (m_load) {
        m_load->cancel();
        m_load->wait();
    }
}

void ClusterWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Open Cluster &Report…"), this, &ClusterWindow::chooseReport);
    file->addAction(tr("Open Cluster &Folder…"), this, &ClusterWindow::chooseFolder);
    file->addAction(tr("Compare &Cluster…"), this, &ClusterWindow::chooseCompare);
    file->addSeparator();
    file->addAction(tr("Save Cluster Report as &JSON…"), this, [this] { chooseSave(QStringLiteral("json")); });
    file->addAction(tr("Save Cluster Report as &Markdown…"), this, [this] { chooseSave(QStringLiteral("markdown")); });
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    addQuitAction(file);
    // The main window's Edit, View and Help: Ctrl+C copies the focused table's rows.
    addCopyAction(menuBar()->addMenu(tr("&Edit")), this);
    addPaletteAction(menuBar()->addMenu(tr("&View")));
    addHelpMenu(this);
}

void ClusterWindow::open(const QString& path) {
    if (m_load) {
        // The load in progress stops within a fraction of a second (between read chunks or
        // analysis stages); waiting keeps one worker at a time and none outliving the window.
        m_load->disconnect(this);
        m_load->cancel();
        m_load->wait();
    }
    const QString abs = QFileInfo(path).absoluteFilePath();
    auto* t = new ClusterLoadThread(abs, 2, this);
    m_load = t;
    connect(t, &ClusterLoadThread::progress, m_loading, &LoadingPanel::setStage);
    connect(t, &ClusterLoadThread::done, this, &ClusterWindow::onDone);
    connect(t, &ClusterLoadThread::failed, this, &ClusterWindow::onFailed);
    connect(t, &ClusterLoadThread::cancelled, this, [this] {
        m_loading->stop();
        m_centre->setCurrentIndex(0);
        m_message->showMessage(MessageBar::Kind::Info, tr("Opening the cluster was cancelled"));
        emit cancelled();
    });
    connect(t, &QThread::finished, t, &QObject::deleteLater);
    m_loading->start(abs);
    m_centre->setCurrentWidget(m_loading);
    t->start();
}

void ClusterWindow::cancel() {
    if (m_load) m_load->cancel();
}

void ClusterWindow::onFailed(const QString& message) {
    m_loading->stop();
    m_centre->setCurrentIndex(0);
    QStringList lines{message};
    if (m_cluster) lines << tr("Still showing %1.").arg(QFileInfo(m_cluster->path).fileName());
    m_message->showMessage(MessageBar::Kind::Error, tr("Could not open the cluster"), lines);
    emit failed(message);
}

QString ClusterWindow::summaryText(const ClusterReport& c) {
    std::size_t held = 0, explained = 0;
    for (const ClusterCollective& k : c.collectives) {
        held += k.heldUp;
        explained += k.heldUp && k.hasCause;
    }
    QString t = tr("<b>%1 ranks</b>, %2, %3 collectives matched across ranks, %4 held up by a slow rank (%5 "
                   "explained by the late rank's own findings).")
                    .arg(c.ranks.size())
                    .arg(c.iterations.size() == 1 ? tr("1 step") : tr("%1 steps").arg(c.iterations.size()))
                    .arg(c.collectives.size())
                    .arg(held)
                    .arg(explained);
    if (c.slowRanks.empty()) {
        t += tr("<br><b>No slow rank</b> in any step.");
    } else {
        QStringList parts;
        for (const SlowRank& s : c.slowRanks)
            parts << tr("rank %1 in %2 of %3 steps (excess compute %4)")
                         .arg(s.rank)
                         .arg(s.iterations.size())
                         .arg(c.iterations.size())
                         .arg(durationText(s.excessNs));
        t += tr("<br><b>Slow ranks</b>: %1.").arg(parts.join(QStringLiteral("; ")));
    }
    // msprof-analyze's spread of compute, (max - min) / mean, over the steps.
    double worst = 0, sum = 0;
    std::uint32_t worstStep = 0;
    for (const ClusterIteration& it : c.iterations) {
        sum += it.spread;
        if (it.spread > worst) worst = it.spread, worstStep = it.index;
    }
    if (!c.iterations.empty())
        t += tr("<br>Spread of compute across ranks, (max − min) / mean: mean %1%, largest %2% (step %3).")
                 .arg(100 * sum / static_cast<double>(c.iterations.size()), 0, 'f', 1)
                 .arg(100 * worst, 0, 'f', 1)
                 .arg(worstStep);
    t += tr("<br><span style='color:#555'>The test: a rank is slow in a step when its compute (step less its waits "
            "in collectives) is above the median by more than %1 × 1.4826 × max(MAD, %2% of the median), or it held "
            "up a collective: arrived later than the next rank by more than %1 × 1.4826 × the MAD of the others' "
            "waits (and %2% of the median compute).</span>")
             .arg(c.settings.k)
             .arg(c.settings.minExcess * 100);
    return t;
}

void ClusterWindow::onDone(OpenedClusterPtr cluster) {
    m_loading->stop();
    m_centre->setCurrentIndex(0);
    m_cluster = std::move(cluster);
    const ClusterReport& c = *m_cluster->report;
    setWindowTitle(
        tr("Contend — cluster %1 (%2 ranks)").arg(QFileInfo(m_cluster->path).fileName()).arg(c.ranks.size()));
    m_summary->setText(summaryText(c));
    m_chain->clear();
    m_heatmap->setReport(m_cluster->report);
    m_collectives->setReport(m_cluster->report);
    std::vector<QString> traces;
    int unreachable = 0;
    for (int rank : c.ranks) {
        QString why;
        const QString p = rankTracePath(*m_cluster, rank, &why);
        unreachable += p.isEmpty();
        traces.push_back(p.isEmpty() ? tr("not reachable") : p);
    }
    m_ranks->setReport(m_cluster->report, std::move(traces));
    m_breakdowns->setReport(m_cluster->report);
    QStringList notes;
    for (const ClusterNote& n : c.notes) notes << QStringLiteral("• ") + QString::fromStdString(n.text).toHtmlEscaped();
    m_notes->setText(notes.isEmpty() ? tr("No notes.") : notes.join(QStringLiteral("<br>")));
    m_tabs->setCurrentWidget(m_collectives->rowCount() > 0 ? static_cast<QWidget*>(m_collectivePanel) : m_rankPanel);
    if (unreachable)
        m_message->showMessage(
            MessageBar::Kind::Warning,
            tr("%n rank trace(s) not reachable from here: opening those ranks will not work", nullptr, unreachable),
            {tr("The Ranks tab says which; the cluster report names each rank's trace (ranks[].trace) "
                "or its per-rank report.")});
    else
        m_message->clear();
    // A report read from a file says which build wrote it (reports before 0.7.0 do not).
    const QString writtenBy =
        c.producer.known() ? tr("; written by %1").arg(QString::fromStdString(c.producer.text())) : QString();
    statusBar()->showMessage(tr("%1: %2 ranks, %3; %4 in %5 s%6")
                                 .arg(QFileInfo(m_cluster->path).fileName())
                                 .arg(c.ranks.size())
                                 .arg(c.iterations.size() == 1 ? tr("1 step") : tr("%1 steps").arg(c.iterations.size()))
                                 .arg(m_cluster->fromFolder ? tr("analysed") : tr("read"))
                                 .arg(m_cluster->seconds, 0, 'f', 2)
                                 .arg(writtenBy),
                             15000);
    emit opened();
}

MainWindow* ClusterWindow::openTrace(int rank, const QString& path) {
    auto* w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->resize(size());
    w->show();
    w->openPath(path);
    // The main window names the file once it opens; say which rank it is after that.
    QPointer<MainWindow> guard(w);
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = connect(w->session(), &AnalysisSession::opened, this, [guard, rank, path, conn] {
        disconnect(*conn);
        if (guard) guard->setWindowTitle(tr("Contend — rank %1 — %2").arg(rank).arg(QFileInfo(path).fileName()));
    });
    return w;
}

qint64 ClusterWindow::worstStep(int rank) const {
    if (!m_cluster) return -1;
    qint64 best = -1;
    TimeNs most = 0;
    for (const ClusterIteration& it : m_cluster->report->iterations)
        for (const RankStep& rs : it.ranks)
            if (rs.rank == rank && rs.computeNs - it.medianComputeNs > most) {
                most = rs.computeNs - it.medianComputeNs;
                best = it.index;
            }
    return best;
}

quint32 stepCulprit(const Report& report, TimeNs start, TimeNs end) {
    quint32 best = kNone;
    TimeNs most = 0;
    const AnomalyList& a = report.anomalies;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a.startNs(k) >= start && a.startNs(k) < end && a.excessNs(k) > most) {
            most = a.excessNs(k);
            best = a.slice(k);
        }
    return best;
}

MainWindow* ClusterWindow::openRank(int rank, qint64 step) {
    if (!m_cluster) return nullptr;
    QString why;
    const QString path = rankTracePath(*m_cluster, rank, &why);
    if (path.isEmpty()) {
        m_message->showMessage(MessageBar::Kind::Error, tr("Cannot open rank %1").arg(rank), {why});
        return nullptr;
    }
    MainWindow* w = openTrace(rank, path);
    QPointer<MainWindow> guard(w);
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = connect(w->session(), &AnalysisSession::opened, this, [this, guard, rank, step, conn] {
        disconnect(*conn);
        if (!guard) return;
        const ReportPtr r = guard->session()->report();
        // The step asked for, or for a whole rank the step where its compute was furthest
        // above the step's median (where a slow rank was slow); then the culprit of that step,
        // the finding with the most extra wait in it, selected and in view.
        const qint64 at = step >= 0 ? step : worstStep(rank);
        if (r && at >= 0)
            for (const IterationStats& it : r->iterations) {
                if (it.index != static_cast<std::uint32_t>(at)) continue;
                const quint32 culprit = stepCulprit(*r, it.start, it.end);
                // Selected and revealed first (its track expanded and scrolled to), then the
                // whole step shown around it.
                if (culprit != kNone) guard->selectSlice(culprit, true);
                guard->timeline()->zoomTo(it.start, it.end, 0.02);
                if (culprit != kNone) {
                    guard->statusBar()->showMessage(
                        tr("Rank %1, step %2: the finding with the most extra wait in the step is selected")
                            .arg(rank)
                            .arg(at),
                        15000);
                }
            }
        emit rankOpened(guard, rank);
    });
    return w;
}

MainWindow* ClusterWindow::openCollective(int index) {
    if (!m_cluster || index < 0 || index >= static_cast<int>(m_cluster->report->collectives.size())) return nullptr;
    const ClusterCollective k = m_cluster->report->collectives[static_cast<std::size_t>(index)];
    QString why;
    const QString path = rankTracePath(*m_cluster, k.lateRank, &why);
    if (path.isEmpty()) {
        m_message->showMessage(MessageBar::Kind::Error, tr("Cannot open rank %1").arg(k.lateRank), {why});
        return nullptr;
    }
    MainWindow* w = openTrace(k.lateRank, path);
    QPointer<MainWindow> guard(w);
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = connect(w->session(), &AnalysisSession::opened, this, [this, guard, k, conn] {
        disconnect(*conn);
        if (!guard) return;
        const OpenedTrace* cur = guard->session()->current();
        const ReportPtr r = guard->session()->report();
        quint32 slice = cur && r ? findCollectiveSlice(*cur->trace, *r, k) : kNone;
        if (slice != kNone) {
            guard->selectSlice(slice, true);
            const Slice& s = cur->trace->slices()[slice];
            // The collective and a little of what came before it (the finding that delayed it).
            guard->timeline()->zoomTo(s.start - s.dur, s.end() + s.dur / 2, 0.1);
            guard->statusBar()->showMessage(tr("Rank %1: %2 #%3 in step %4, the collective it held up")
                                                .arg(k.lateRank)
                                                .arg(QString::fromStdString(k.key))
                                                .arg(k.ordinal)
                                                .arg(k.iteration),
                                            15000);
        } else {
            guard->messageBar()->showMessage(MessageBar::Kind::Warning,
                                             tr("%1 #%2 of step %3 is not in this trace")
                                                 .arg(QString::fromStdString(k.name))
                                                 .arg(k.ordinal)
                                                 .arg(k.iteration),
                                             {tr("The cluster report may not be of this trace.")});
        }
        emit rankOpened(guard, k.lateRank);
        emit collectiveShown(guard, slice);
    });
    return w;
}

ClusterCompareWindow* ClusterWindow::compareWith(const QString& path) {
    if (!m_cluster) return nullptr;
    auto* w = new ClusterCompareWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->resize(size());
    w->show();
    w->open(m_cluster->path, path);
    return w;
}

std::optional<Failure> ClusterWindow::saveReport(const QString& path, const QString& format) {
    if (!m_cluster) return saveRefused(tr("there is no cluster open"));
    const std::string text = format == QStringLiteral("json") ? jsonText(clusterToJson(*m_cluster->report))
                                                              : clusterToMarkdown(*m_cluster->report);
    return saveFileAtomically(path, text);
}

void ClusterWindow::chooseReport() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open cluster report"), QString(),
                                                      tr("Cluster report (*.json);;All files (*)"));
    if (!path.isEmpty()) open(path);
}

void ClusterWindow::chooseFolder() {
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open a folder of ranks"));
    if (!path.isEmpty()) open(path);
}

void ClusterWindow::chooseCompare() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with cluster report"), QString(),
                                                      tr("Cluster report (*.json);;All files (*)"));
    if (!path.isEmpty()) compareWith(path);
}

void ClusterWindow::chooseSave(const QString& format) {
    chooseAndSaveReport(this, m_message, format, tr("cluster report"), QStringLiteral("cluster"),
                        tr("Could not save the cluster report"),
                        [this](const QString& path, const QString& f) { return saveReport(path, f); });
}

}  // namespace contend::gui
