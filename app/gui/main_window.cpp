// MainWindow, part 1: building the window (views, docks, menus, status bar), wiring the views
// to each other, and persisting the layout and settings. Part 2 (main_window_actions.cpp)
// handles opened traces, reports, selection and export.
#include "app/gui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include "app/gui/analysing_strip.h"
#include "app/gui/analysis_session.h"
#include "app/gui/app_menus.h"
#include "app/gui/dock_tab_tips.h"
#include "app/gui/guide_window.h"
#include "app/gui/load_thread.h"
#include "app/gui/loading_panel.h"
#include "app/gui/message_bar.h"
#include "app/gui/recent_files.h"
#include "app/gui/save_file.h"
#include "app/gui/search_bar.h"
#include "app/gui/settings_panel.h"
#include "app/gui/view_binder.h"
#include "app/gui/welcome_panel.h"
#include "core/io/reader_table.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/breakdowns/breakdowns_chart.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"
#include "widgets/common/view_state.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/cluster_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/pattern_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/window_model.h"
#include "widgets/timeline/range_measure.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Contend"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    m_session = new AnalysisSession(this);
    m_session->setPreviews(true);  // the timeline as soon as the trace is read
    buildViews();
    buildDocks();
    buildMenus();
    buildStatusBar();
    wire();
    wireBreakdowns();
    resize(1600, 1000);
    m_defaultState = saveState(kStateVersion);
    restoreSettings();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildViews() {
    auto* central = new QWidget(this);
    auto* box = new QVBoxLayout(central);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(2);
    m_message = new MessageBar(central);
    m_centre = new QStackedWidget(central);
    m_timeline = new TimelineView(m_centre);
    m_loading = new LoadingPanel(m_centre);
    m_welcome = new WelcomePanel(m_centre);
    m_centre->addWidget(m_timeline);
    m_centre->addWidget(m_loading);
    m_centre->addWidget(m_welcome);
    m_centre->setCurrentWidget(m_welcome);  // until a trace is open
    m_search = new SearchBar(central);
    m_search->hide();
    m_strip = new AnalysingStrip(central);
    m_strip->hide();
    box->addWidget(m_message);
    box->addWidget(m_strip);
    box->addWidget(m_search);
    box->addWidget(m_centre, 1);
    setCentralWidget(central);

    m_settings = new SettingsPanel(this);
    m_anomalies = new AnomalyModel(this);
    m_windows = new WindowModel(this);
    m_clusters = new ClusterModel(this);
    m_anomalyPanel = new TablePanel(m_anomalies, tr("Filter by name, track, cause…"), this);
    m_windowPanel = new TablePanel(m_windows, tr("Filter windows…"), this);
    m_clusterPanel = new TablePanel(m_clusters, tr("Filter clusters…"), this);
    m_patterns = new PatternModel(this);
    m_patternPanel = new TablePanel(m_patterns, tr("Filter patterns by operator, partner, cause…"), this);
    // Ranked by the predicted end-to-end gain (what a fix would save); a click on Score or any
    // other header re-sorts. Findings without a gain ("-") come last.
    m_anomalyPanel->sortBy(AnomalyModel::Gain, Qt::DescendingOrder);
    m_windowPanel->sortBy(WindowModel::Gain, Qt::DescendingOrder);
    m_clusterPanel->sortBy(ClusterModel::Gain, Qt::DescendingOrder);
    // Patterns by what they cost: the systematic time lost beside each partner.
    m_patternPanel->sortBy(PatternModel::Cost, Qt::DescendingOrder);
    m_browser = new OperatorBrowser(this);
    m_heatmap = new HeatmapView(this);
    m_breakdown = new BreakdownView(this);
    m_breakdowns = new widgets::BreakdownsChart(this);
    m_details = new OperatorDetails(this);

    // The views subscribe: to the session for traces and reports (in this order), to the zoom
    // for the visible range, to the selection for the operator in focus.
    m_binder = new ViewBinder(m_session, this);
    m_binder->add({m_timeline, m_search, m_browser, m_heatmap, m_breakdown, m_breakdowns, m_details, m_anomalies,
                   m_windows, m_clusters, m_patterns});
    m_zoom = new ZoomControl(this);
    m_selection = new SelectionControl(this);
    m_timeline->bindZoom(m_zoom);
    m_heatmap->bindZoom(m_zoom);
    m_timeline->bindSelection(m_selection);
}

void MainWindow::buildDocks() {
    // Tabbed docks get short tab titles that fit a 1280 px window; the full name is the tab's
    // tooltip and the View menu's entry (DockTabTips).
    m_dockTabs = new DockTabTips(this);
    auto make = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area,
                       const QString& fullTitle = QString()) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
        DockTabTips::setTitles(d, title, fullTitle.isEmpty() ? title : fullTitle);
        addDockWidget(area, d);
        m_docks << d;
        return d;
    };
    QDockWidget* settings = make(m_settings, tr("Settings"), QStringLiteral("dock.settings"), Qt::LeftDockWidgetArea);
    QDockWidget* details = make(m_details, tr("Details"), QStringLiteral("dock.details"), Qt::LeftDockWidgetArea);
    QDockWidget* heat =
        make(m_heatmap, tr("Contention heatmap"), QStringLiteral("dock.heatmap"), Qt::TopDockWidgetArea);
    QDockWidget* flagged = make(m_anomalyPanel, tr("Flagged"), QStringLiteral("dock.flagged"), Qt::BottomDockWidgetArea,
                                tr("Flagged operators"));
    QDockWidget* network = make(m_browser, tr("Network"), QStringLiteral("dock.network"), Qt::BottomDockWidgetArea);
    QDockWidget* windows = make(m_windowPanel, tr("Windows"), QStringLiteral("dock.windows"), Qt::BottomDockWidgetArea,
                                tr("Contention windows"));
    QDockWidget* clusters =
        make(m_clusterPanel, tr("Clusters"), QStringLiteral("dock.clusters"), Qt::BottomDockWidgetArea);
    QDockWidget* patterns =
        make(m_patternPanel, tr("Patterns"), QStringLiteral("dock.patterns"), Qt::BottomDockWidgetArea);
    QDockWidget* breakdown =
        make(m_breakdown, tr("Breakdown"), QStringLiteral("dock.breakdown"), Qt::BottomDockWidgetArea);
    QDockWidget* breakdowns = make(m_breakdowns, tr("HTA"), QStringLiteral("dock.breakdowns"), Qt::BottomDockWidgetArea,
                                   tr("Breakdowns (HTA)"));
    splitDockWidget(settings, details, Qt::Vertical);
    splitDockWidget(flagged, breakdown, Qt::Horizontal);
    tabifyDockWidget(flagged, network);
    tabifyDockWidget(network, windows);
    tabifyDockWidget(windows, clusters);
    tabifyDockWidget(clusters, patterns);
    tabifyDockWidget(patterns, breakdowns);
    flagged->raise();
    resizeDocks({settings}, {290}, Qt::Horizontal);
    resizeDocks({settings, details}, {330, 400}, Qt::Vertical);
    resizeDocks({heat}, {190}, Qt::Vertical);
    resizeDocks({flagged}, {310}, Qt::Vertical);
    resizeDocks({flagged, breakdown}, {740, 570}, Qt::Horizontal);
}

bool MainWindow::showsLoading() const { return m_centre->currentWidget() == m_loading; }

void MainWindow::changeEvent(QEvent* e) {
    QMainWindow::changeEvent(e);
    // View > Dark Palette: the summary's HTML is written in the palette's colours.
    if (e->type() == QEvent::PaletteChange) updateSummary();
}

bool MainWindow::showsWelcome() const { return m_centre->currentWidget() == m_welcome; }

QDockWidget* MainWindow::dock(const QString& objectName) const {
    for (QDockWidget* d : m_docks)
        if (d->objectName() == objectName) return d;
    return nullptr;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Trace…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    QAction* folder = file->addAction(tr("Open Ascend Profiler &Folder…"), this, &MainWindow::chooseFolder);
    folder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_compare = file->addAction(tr("&Compare with…"), this, &MainWindow::chooseCompareFile);
    m_compare->setToolTip(tr("Open a second trace and compare it with this one (the baseline)"));
    addClusterActions(file);
    addSessionActions(file);
    file->addSeparator();
    m_saveJson =
        file->addAction(tr("Save Report as &JSON…"), this, [this] { chooseReportFile(QStringLiteral("json")); });
    m_saveJson->setShortcut(QKeySequence::Save);
    m_saveMarkdown = file->addAction(tr("Save Report as &Markdown…"), this,
                                     [this] { chooseReportFile(QStringLiteral("markdown")); });
    m_saveMarkdown->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_exportPng = file->addAction(tr("Export View as &PNG…"), this, &MainWindow::chooseViewPng);
    m_exportPng->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    addQuitAction(file);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* find = edit->addAction(tr("&Find Operators…"), m_search, &SearchBar::activate);
    find->setShortcut(QKeySequence::Find);
    QAction* findNext = edit->addAction(tr("Find &Next"), m_search, &SearchBar::next);
    findNext->setShortcut(QKeySequence::FindNext);
    QAction* findPrev = edit->addAction(tr("Find &Previous"), m_search, &SearchBar::previous);
    findPrev->setShortcut(QKeySequence::FindPrevious);
    edit->addSeparator();
    addCopyAction(edit, this);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // The timeline's keys work from anywhere in the window: as window shortcuts they reach the
    // timeline whatever has focus, except a text field or spin box, which takes the key for
    // itself (Qt's ShortcutOverride), so typing a filter or a number never zooms.
    m_timelineKeys = addTimelineKeys(m_viewMenu, this, [this](int key) { m_timeline->navigateKey(key); });
    m_viewMenu->addSeparator();
    m_criticalPath = m_viewMenu->addAction(tr("&Critical Path"));
    m_criticalPath->setCheckable(true);
    m_criticalPath->setChecked(true);
    m_criticalPath->setShortcut(QKeySequence(Qt::Key_P));
    m_criticalPath->setShortcutContext(Qt::WindowShortcut);
    m_criticalPath->setToolTip(
        tr("Show the critical path (operators with no slack: any delay to them delays the run) "
           "as a bar under each track it runs on"));
    m_timeline->setCriticalPathShown(true);
    connect(m_criticalPath, &QAction::toggled, m_timeline, &TimelineView::setCriticalPathShown);
    m_viewMenu->addSeparator();
    addTrackActions(m_viewMenu);
    for (QDockWidget* d : m_docks) m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("Reset Layout"), this, [this] { restoreState(m_defaultState, kStateVersion); });
    m_viewMenu->addSeparator();
    addPaletteAction(m_viewMenu);

    addHelpMenu(this);
    rebuildRecentMenu();
}

void MainWindow::buildStatusBar() {
    m_reportInfo = new QLabel(this);
    m_frameInfo = new QLabel(this);
    m_frameInfo->setMinimumWidth(90);
    m_frameInfo->setStyleSheet(widgets::themedHtml(QStringLiteral("color: #777")));
    statusBar()->addPermanentWidget(m_reportInfo);
    statusBar()->addPermanentWidget(m_frameInfo);
    statusBar()->showMessage(tr("Open a trace with Ctrl+O, or drop one here."));
}

void MainWindow::wire() {
    // Session -> window.
    // While a trace opens the centre says which, at what stage, and offers Cancel.
    connect(m_session, &AnalysisSession::progress, this, [this](double f, const QString& text, LoadPhase) {
        // Every phase has its fraction (the analysis by its stages, load_thread.cpp).
        m_loading->setStage(f, text);
        m_strip->setStage(f, text);
        statusBar()->showMessage(text);
    });
    connect(m_session, &AnalysisSession::busyChanged, this, [this](bool busy) {
        if (busy)
            m_loading->start(m_session->loadingPath());
        else
            m_loading->stop();
        // Done: the timeline, or the start page again when nothing is open (the first trace
        // failed or was cancelled).
        QWidget* idle = m_session->current() ? static_cast<QWidget*>(m_timeline) : m_welcome;
        if (!busy) m_welcome->refresh();
        m_centre->setCurrentWidget(busy ? static_cast<QWidget*>(m_loading) : idle);
        if (!busy) m_strip->hide();
    });
    connect(m_welcome, &WelcomePanel::openFileRequested, this, &MainWindow::chooseFile);
    connect(m_welcome, &WelcomePanel::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePanel::openClusterRequested, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open a folder of ranks"));
        if (!path.isEmpty()) openCluster(path);
    });
    connect(m_welcome, &WelcomePanel::openPathRequested, this, &MainWindow::openAny);
    connect(m_welcome, &WelcomePanel::guideRequested, this, [] { GuideWindow::showSection(); });
    connect(m_loading, &LoadingPanel::cancelRequested, m_session, &AnalysisSession::cancel);
    connect(m_strip, &AnalysingStrip::cancelRequested, m_session, &AnalysisSession::cancel);
    connect(m_binder, &ViewBinder::traceShown, this, &MainWindow::onTraceShown);
    connect(m_session, &AnalysisSession::failed, this, &MainWindow::onFailed);
    connect(m_session, &AnalysisSession::cancelled, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Cancelled opening %1").arg(QFileInfo(path).fileName()), 5000);
    });
    connect(m_binder, &ViewBinder::reportShown, this, &MainWindow::onReportShown);

    // Settings -> session (live re-threshold).
    connect(m_settings, &SettingsPanel::thresholdsChanged, this, [this](const Thresholds& t) {
        m_session->setThresholds(t);
        saveThresholds(t);
    });
    connect(m_settings, &SettingsPanel::granularityChanged, this, [this](int g) { onGranularity(g); });
    // The Network dock's grouping and level are the granularity: whichever control moves, the
    // other follows. The browser tells only the user's moves (a new trace or report starting
    // it over is not one).
    auto followBrowser = [this] {
        int g = SettingsPanel::WholeNetwork;
        if (m_browser->level() == OperatorBrowser::LevelKind::Occurrences)
            g = SettingsPanel::PerOccurrence;
        else if (m_browser->grouping() == OperatorBrowser::Grouping::Type)
            g = SettingsPanel::PerOperatorType;
        else if (m_browser->grouping() == OperatorBrowser::Grouping::Iteration)
            g = SettingsPanel::PerIteration;
        if (g == m_settings->granularity()) return;
        m_settings->setValues(m_settings->thresholds(), g);
        QSettings().setValue(QStringLiteral("analysis/granularity"), g);
    };
    connect(m_browser, &OperatorBrowser::groupingChanged, this, followBrowser);
    connect(m_browser, &OperatorBrowser::levelChanged, this, followBrowser);

    connect(m_timeline, &TimelineView::rangeMeasured, this, [this](qint64 t0, qint64 t1) {
        const OpenedTrace* cur = m_session->current();
        if (!cur) return;
        if (t1 <= t0) {
            if (m_details->shown() == OperatorDetails::Shown::Range) m_details->showSlice(m_selection->selected());
            return;
        }
        m_details->showRange(measureRange(*cur->trace, m_session->report().get(), t0, t1));
        if (QDockWidget* d = dock(QStringLiteral("dock.details"))) d->raise();
        statusBar()->showMessage(tr("Range %1; Esc clears it").arg(durationText(t1 - t0)), 8000);
    });
    connect(m_search, &SearchBar::matchPicked, this, [this](quint32 s) { selectSlice(s, true); });

    // Selection between the views (the zoom is shared through m_zoom).
    connect(m_selection, &SelectionControl::selectionChanged, this, &MainWindow::onSliceSelected);
    // The heatmap over the timeline draws a time at the same x as the timeline does.
    m_heatmap->alignTimeAxisWith(m_timeline, [t = m_timeline] { return t->timeArea(); });
    connect(m_timeline, &TimelineView::frameRendered, this,
            [this](double ms) { m_frameInfo->setText(tr("frame %1 ms").arg(ms, 0, 'f', 1)); });
    connect(m_anomalyPanel, &TablePanel::rowPicked, this,
            [this](const QModelIndex& i) { selectSlice(i.data(SliceRole).toUInt(), true); });
    connect(m_browser, &OperatorBrowser::occurrencePicked, this, [this](quint32 s) { selectSlice(s, true); });
    connect(m_browser, &OperatorBrowser::signaturePicked, this, [this](quint32 sig) {
        if (m_selection->selected() == kNone) m_breakdown->showSignature(sig);
    });
    connect(m_browser, &OperatorBrowser::spanPicked, this,
            [this](qint64 a, qint64 b) { m_timeline->zoomTo(a, b, 0.02); });
    auto zoomRow = [this](const QModelIndex& i) {
        const qint64 a = i.data(StartRole).toLongLong(), b = i.data(EndRole).toLongLong();
        if (a >= 0 && b >= a) m_timeline->zoomTo(a, b, 0.25);
    };
    connect(m_windowPanel, &TablePanel::rowPicked, this, [this, zoomRow](const QModelIndex& i) {
        zoomRow(i);
        showWindow(static_cast<quint32>(i.row()));
    });
    // A pattern: its costliest run selected, all its runs marked, its two distributions.
    connect(m_patternPanel, &TablePanel::rowPicked, this,
            [this](const QModelIndex& i) { showPattern(static_cast<quint32>(i.row())); });
    connect(m_clusterPanel, &TablePanel::rowPicked, this, [this, zoomRow](const QModelIndex& i) {
        zoomRow(i);
        showCluster(static_cast<quint32>(i.row()));
    });
    connect(m_details, &OperatorDetails::sliceLinkActivated, this, [this](quint32 s) { selectSlice(s, true); });
    connect(m_details, &OperatorDetails::guideLinkActivated, this,
            [](const QString& section) { GuideWindow::showSection(section); });
    connect(m_heatmap, &HeatmapView::zoomRequested, this,
            [this](qint64 a, qint64 b) { m_timeline->zoomTo(a, b, 0.15); });
    connect(m_heatmap, &HeatmapView::sliceActivated, this, [this](quint32 s) { selectSlice(s, false); });
    connect(m_heatmap, &HeatmapView::windowActivated, this, [this](quint32 w) {
        m_windowPanel->selectSourceRow(static_cast<int>(w));
        showWindow(w);
    });
    connect(m_details, &OperatorDetails::windowLinkActivated, this, [this](quint32 id) {
        const ReportPtr r = m_session->report();
        if (!r) return;
        for (std::size_t i = 0; i < r->windows.size(); ++i)
            if (r->windows[i].id == id) zoomToWindow(static_cast<quint32>(i));
    });
}

void MainWindow::restoreSettings() {
    QSettings s;
    m_settings->setValues(savedThresholds(), s.value(QStringLiteral("analysis/granularity"), 0).toInt());
    onGranularity(m_settings->granularity(), false);
    m_criticalPath->setChecked(s.value(QStringLiteral("view/criticalPath"), true).toBool());
    restoreLayout(s.value(QStringLiteral("window/geometry")).toByteArray(),
                  s.value(QStringLiteral("window/state")).toByteArray());
}

bool MainWindow::layoutUsable() const {
    // Every visible dock's view at least its minimum size (and never a sliver), the window on
    // a screen and big enough to hold the docks.
    for (const QDockWidget* d : m_docks) {
        if (d->isHidden() || d->isFloating() || !d->widget()) continue;
        const QWidget* w = d->widget();
        const QSize need = w->minimumSize().expandedTo(QSize(60, 40));
        if (w->width() < need.width() || w->height() < need.height()) return false;
    }
    return width() >= 640 && height() >= 400;
}

bool MainWindow::restoreLayout(const QByteArray& geometry, const QByteArray& state) {
    const QRect beforeGeometry = this->geometry();
    bool ok = true;
    if (!geometry.isEmpty()) ok = restoreGeometry(geometry) && ok;
    if (!state.isEmpty()) ok = restoreState(state, kStateVersion) && ok;
    m_checkLayoutOnShow = ok && !state.isEmpty() && !isVisible();
    if (ok && isVisible()) {
        // Sizes are only known once laid out.
        if (QLayout* l = layout()) l->activate();
        ok = layoutUsable();
    }
    if (!ok) {
        setGeometry(beforeGeometry);
        restoreState(m_defaultState, kStateVersion);
        statusBar()->showMessage(tr("The saved window layout could not be used; showing the default layout."), 8000);
    }
    return ok;
}

void MainWindow::saveSettings() const {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState(kStateVersion));
    saveThresholds(m_settings->thresholds());
    s.setValue(QStringLiteral("analysis/granularity"), m_settings->granularity());
    s.setValue(QStringLiteral("view/criticalPath"), m_criticalPath->isChecked());
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (!m_checkLayoutOnShow) return;
    m_checkLayoutOnShow = false;
    // A layout restored before the window was shown is checked once it is laid out.
    QTimer::singleShot(0, this, [this] {
        if (layoutUsable()) return;
        restoreState(m_defaultState, kStateVersion);
        statusBar()->showMessage(
            tr("The saved window layout squeezed a pane below its readable size; showing the default layout."), 8000);
    });
}

void MainWindow::closeEvent(QCloseEvent* e) {
    saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile()) {
                e->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls()) {
        if (u.isLocalFile()) {
            openAny(u.toLocalFile());
            e->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = RecentFiles::load();
    for (const QString& f : files) {
        QAction* a = m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] { openPath(f); });
        a->setToolTip(f);
        a->setStatusTip(f);
    }
    if (files.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear List"), this, [this] {
        RecentFiles::clear();
        rebuildRecentMenu();
    });
}

// The format table's (core/io/reader_table.h): every format's patterns as "Traces", an
// entry per kind of file, all files.
QString MainWindow::traceFileFilter() { return QString::fromStdString(openDialogFilter()); }

void MainWindow::chooseFile() {
    const QString dir = QFileInfo(RecentFiles::load().value(0)).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), dir, traceFileFilter());
    if (!path.isEmpty()) openAny(path);  // a cluster report opens in the cluster window
}

void MainWindow::chooseCompareFile() {
    const QString dir = m_session->current() ? QFileInfo(m_session->current()->path).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with trace"), dir, traceFileFilter());
    if (!path.isEmpty()) compareWith(path);
}

void MainWindow::chooseFolder() {
    // A rank folder (*_ascend_pt) or its ASCEND_PROFILER_OUTPUT: the text export, the database
    // export, or both (the database is read).
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Ascend profiler folder"));
    if (!path.isEmpty()) openAny(path);  // a folder of several ranks opens as a cluster
}

void MainWindow::chooseReportFile(const QString& format) {
    const OpenedTrace* cur = m_session->current();
    const QString base =
        cur ? QFileInfo(cur->path).completeBaseName().remove(QStringLiteral(".json")) : QStringLiteral("report");
    chooseAndSaveReport(this, m_message, format, tr("report"), base + QStringLiteral(".report"),
                        tr("Could not save the report"),
                        [this](const QString& path, const QString& f) { return saveReport(path, f); });
}

void MainWindow::chooseViewPng() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export view as PNG"), QStringLiteral("timeline.png"), tr("PNG (*.png)"));
    if (path.isEmpty()) return;
    if (const std::optional<Failure> failed = exportViewPng(path))
        m_message->showMessage(MessageBar::Kind::Error, tr("Could not export the view"), {failureText(*failed)});
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

}  // namespace contend::gui
