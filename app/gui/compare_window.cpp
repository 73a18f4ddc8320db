#include "app/gui/compare_window.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPixmap>
#include <QProgressBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/analysis_session.h"
#include "app/gui/app_menus.h"
#include "app/gui/save_file.h"
#include "app/gui/view_binder.h"
#include "core/report/compare/compare_report.h"
#include "core/report/single/report_json.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/text.h"
#include "widgets/common/view_state.h"
#include "widgets/compare/gain_check_view.h"
#include "widgets/compare/shift_chart.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

namespace {

QWidget* titled(QLabel* header, QWidget* body) {
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(0);
    header->setContentsMargins(6, 3, 6, 3);
    header->setTextFormat(Qt::RichText);
    l->addWidget(header);
    l->addWidget(body, 1);
    return w;
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Contend — compare"));
    for (Run& run : m_runs) run.session = new AnalysisSession(this);
    buildUi();
    buildMenu();
    for (Side side : {Base, New}) {
        Run& run = m_runs[side];
        AnalysisSession* s = run.session;
        // The run's views subscribe to its session; the window follows once they have it.
        run.binder = new ViewBinder(s, this);
        run.binder->add({run.timeline, run.heatmap, run.breakdown});
        connect(run.binder, &ViewBinder::traceShown, this, [this, side](OpenedTracePtr t) {
            m_pending = std::max(0, m_pending - 1);
            onOpened(side, std::move(t));
        });
        connect(s, &AnalysisSession::failed, this, &CompareWindow::onFailed);
        connect(run.binder, &ViewBinder::reportShown, this,
                [this, side](ReportPtr r) { onReportChanged(side, std::move(r)); });
        connect(s, &AnalysisSession::progress, this, [this](double f, const QString& phase) {
            m_progress->setValue(static_cast<int>(f * 100));
            statusBar()->showMessage(phase);
        });
    }
}

CompareWindow::~CompareWindow() = default;

std::pair<QString, QString> distinctLabels(const QString& basePath, const QString& newPath) {
    const QStringList a =
        QDir::cleanPath(QFileInfo(basePath).absoluteFilePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QStringList b =
        QDir::cleanPath(QFileInfo(newPath).absoluteFilePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    // Take trailing components until the two labels differ (or a path runs out).
    for (qsizetype n = 1; n <= std::max(a.size(), b.size()); ++n) {
        const QString la = a.mid(std::max<qsizetype>(0, a.size() - n)).join(QLatin1Char('/'));
        const QString lb = b.mid(std::max<qsizetype>(0, b.size() - n)).join(QLatin1Char('/'));
        if (la != lb || n >= a.size() || n >= b.size()) return {la, lb};
    }
    return {QFileInfo(basePath).fileName(), QFileInfo(newPath).fileName()};
}

void CompareWindow::buildMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Export Comparison as &JSON…"), this, [this] { chooseExport(QStringLiteral("json")); });
    file->addAction(tr("Export Comparison as &Markdown…"), this, [this] { chooseExport(QStringLiteral("markdown")); });
    file->addAction(tr("Export Window as &PNG…"), this, [this] { chooseExport(QStringLiteral("png")); });
    file->addSeparator();
    QAction* close = file->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);
    addQuitAction(file);
    // The main window's Edit, View and Help, with the same keys: W S A D F 0 move both timelines
    // (they share one zoom), Ctrl+C copies the focused table's rows.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    addCopyAction(edit, this);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    addTimelineKeys(view, this, [this](int key) { m_runs[Base].timeline->navigateKey(key); });
    view->addSeparator();
    addPaletteAction(view);
    addHelpMenu(this);
}

void CompareWindow::chooseExport(const QString& format) {
    const QString ext = format == QStringLiteral("json")       ? QStringLiteral(".compare.json")
                        : format == QStringLiteral("markdown") ? QStringLiteral(".compare.md")
                                                               : QStringLiteral(".compare.png");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export comparison"), QStringLiteral("comparison") + ext);
    if (path.isEmpty()) return;
    if (const std::optional<Failure> failed = exportComparison(path, format))
        statusBar()->showMessage(tr("Could not export: %1").arg(failureText(*failed)), 10000);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

std::optional<Failure> CompareWindow::exportComparison(const QString& path, const QString& format) {
    std::string bytes;
    if (format == QStringLiteral("png")) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (!grab().toImage().save(&buffer, "PNG")) return saveRefused(tr("could not encode the image"));
        bytes = png.toStdString();
    } else if (!m_result) {
        return saveRefused(tr("there is no comparison yet (both runs must be analysed)"));
    } else {
        bytes = format == QStringLiteral("json") ? jsonText(compareToJson(*m_result)) : compareToMarkdown(*m_result);
    }
    return saveFileAtomically(path, bytes);
}

void CompareWindow::buildUi() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* top = new QHBoxLayout;
    m_verdict = new QLabel(tr("Opening…"), central);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_alignBox = new QComboBox(central);
    m_alignBox->addItem(tr("Align: first iteration"));
    m_alignBox->addItem(tr("Align: trace start"));
    m_alignBox->setToolTip(
        tr("Line the two timelines up on the start of the first ProfilerStep, or on the start of each trace"));
    // The thresholds both runs are analysed with: changing one re-thresholds both and compares
    // again (a fix that only moved an operator below the coefficient shows as such here).
    m_coefSpin = new QDoubleSpinBox(central);
    m_coefSpin->setRange(Thresholds::kMinCoefficient, Thresholds::kMaxCoefficient);
    m_coefSpin->setSingleStep(0.1);
    m_coefSpin->setDecimals(2);
    m_coefSpin->setValue(m_thresholds.coefficient);
    m_coefSpin->setPrefix(tr("coefficient "));
    m_coefSpin->setToolTip(tr("Anomaly coefficient for both runs: an occurrence is flagged when its score exceeds it"));
    m_overlapSpin = new QDoubleSpinBox(central);
    m_overlapSpin->setRange(Thresholds::kMinOverlapRatio, Thresholds::kMaxOverlapRatio);
    m_overlapSpin->setSingleStep(0.05);
    m_overlapSpin->setDecimals(2);
    m_overlapSpin->setValue(m_thresholds.overlapRatio);
    m_overlapSpin->setPrefix(tr("overlap "));
    m_overlapSpin->setToolTip(tr("Overlap ratio threshold for contention windows in both runs"));
    top->addWidget(m_verdict, 1);
    top->addWidget(m_coefSpin, 0, Qt::AlignTop);
    top->addWidget(m_overlapSpin, 0, Qt::AlignTop);
    top->addWidget(m_alignBox, 0, Qt::AlignTop);
    layout->addLayout(top);
    m_message = new QLabel(central);
    m_message->setStyleSheet(QStringLiteral("QLabel { background: #FDECEA; color: #B71C1C; padding: 4px; }"));
    m_message->setWordWrap(true);
    m_message->hide();
    layout->addWidget(m_message);

    auto* vsplit = new QSplitter(Qt::Vertical, central);
    for (Side side : {Base, New}) {
        Run& run = m_runs[side];
        run.timeline = new TimelineView;
        run.header = new QLabel(side == Base ? tr("<b>Baseline</b>") : tr("<b>Comparison</b>"));
        run.heatmap = new HeatmapView;
        run.breakdown = new BreakdownView;
        vsplit->addWidget(titled(run.header, run.timeline));
    }

    auto* hsplit = new QSplitter(Qt::Horizontal);
    m_tabs = new QTabWidget;
    m_opModel = new CompareModel(CompareModel::Kind::Operators, this);
    m_anModel = new CompareModel(CompareModel::Kind::Anomalies, this);
    m_opPanel = new TablePanel(m_opModel, tr("Filter signatures…"));
    m_anPanel = new TablePanel(m_anModel, tr("Filter anomalies (status, name, cause)…"));
    m_patModel = new CompareModel(CompareModel::Kind::Patterns, this);
    m_patPanel = new TablePanel(m_patModel, tr("Filter patterns (status, operator, partner, cause)…"));
    // The change words and arrows, explained under the table.
    auto* ops = new QWidget;
    auto* opsBox = new QVBoxLayout(ops);
    opsBox->setContentsMargins(0, 0, 0, 0);
    opsBox->addWidget(m_opPanel, 1);
    auto* legend = new QLabel(changeLegend());
    legend->setWordWrap(true);
    legend->setStyleSheet(QStringLiteral("color: #555; padding: 2px 4px"));
    opsBox->addWidget(legend);
    m_tabs->addTab(ops, tr("Operators"));
    m_tabs->addTab(m_anPanel, tr("Anomalies"));
    m_tabs->addTab(m_patPanel, tr("Patterns"));
    m_gain = new GainCheckView;
    m_tabs->addTab(m_gain, tr("Predicted vs realised"));
    // Heatmaps and breakdowns (the selected operator's, following either timeline) side by side;
    // the heatmaps share their rows and one colour scale, so the two read alike.
    m_runs[Base].heatmap->setPeer(m_runs[New].heatmap);
    m_runs[New].heatmap->setPeer(m_runs[Base].heatmap);
    auto sideBySide = [this](auto member) {
        auto* w = new QWidget;
        auto* l = new QHBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(titled(new QLabel(tr("<b>Baseline</b>")), m_runs[Base].*member));
        l->addWidget(titled(new QLabel(tr("<b>Comparison</b>")), m_runs[New].*member));
        return w;
    };
    m_tabs->addTab(sideBySide(&Run::heatmap), tr("Heatmaps"));
    m_tabs->addTab(sideBySide(&Run::breakdown), tr("Breakdowns"));
    m_shift = new ShiftChart;
    hsplit->addWidget(m_tabs);
    hsplit->addWidget(m_shift);
    hsplit->setStretchFactor(0, 3);
    hsplit->setStretchFactor(1, 2);
    hsplit->setSizes({900, 600});
    vsplit->addWidget(hsplit);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 3);
    vsplit->setStretchFactor(2, 3);
    // Each timeline gets a third, the tables and the chart the rest.
    vsplit->setSizes({320, 320, 360});
    layout->addWidget(vsplit, 1);
    setCentralWidget(central);

    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(200);
    m_progress->setRange(0, 100);
    m_progress->hide();
    statusBar()->addPermanentWidget(m_progress);

    auto thresholdsEdited = [this] { setThresholds({m_coefSpin->value(), m_overlapSpin->value()}); };
    connect(m_coefSpin, &QDoubleSpinBox::valueChanged, this, thresholdsEdited);
    connect(m_overlapSpin, &QDoubleSpinBox::valueChanged, this, thresholdsEdited);
    connect(m_alignBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setAlignment(i == 0 ? Alignment::FirstIteration : Alignment::TraceStart); });
    // One visible range for both runs (the comparison's views at the alignment's offset); a
    // selection per run, and a pick in one selects the nearest same-signature operator in the
    // other. Each run's breakdown shows its run's selection.
    m_zoom = new ZoomControl(this);
    for (Side side : {Base, New}) {
        Run& run = m_runs[side];
        TimelineView* view = run.timeline;
        run.selection = new SelectionControl(this);
        view->bindZoom(m_zoom, side == Base ? 0 : m_offset);
        run.heatmap->bindZoom(m_zoom, side == Base ? 0 : m_offset);
        view->bindSelection(run.selection);
        connect(run.heatmap, &HeatmapView::zoomRequested, view, [view](qint64 a, qint64 b) { view->zoomTo(a, b); });
        connect(view, &TimelineView::slicePicked, this, [this, side](quint32 s) {
            m_runs[other(side)].selection->select(s == kNone ? kNone : matching(s, side));
        });
        connect(run.selection, &SelectionControl::selectionChanged, run.breakdown, &BreakdownView::showSlice);
    }
    connect(m_opPanel, &TablePanel::rowPicked, this,
            [this](const QModelIndex& i) { showRow(CompareModel::Kind::Operators, i.row()); });
    connect(m_anPanel, &TablePanel::rowPicked, this,
            [this](const QModelIndex& i) { showRow(CompareModel::Kind::Anomalies, i.row()); });
    // A pattern: its costliest run in each run that has it, on one scale.
    connect(m_patPanel, &TablePanel::rowPicked, this,
            [this](const QModelIndex& i) { showRow(CompareModel::Kind::Patterns, i.row()); });
}

void CompareWindow::setThresholds(const Thresholds& thresholds) {
    m_thresholds = thresholds;
    for (auto [spin, v] :
         {std::pair{m_coefSpin, thresholds.coefficient}, std::pair{m_overlapSpin, thresholds.overlapRatio}}) {
        if (!spin || std::abs(spin->value() - v) < 1e-9) continue;
        const QSignalBlocker block(spin);
        spin->setValue(v);
    }
    // Runs already open are re-thresholded; the compare follows when both reports are in.
    for (Run& run : m_runs) run.session->setThresholds(m_thresholds);
}

void CompareWindow::onReportChanged(Side side, ReportPtr report) {
    if (!report) return;
    m_runs[side].report = std::move(report);
    // Compare only reports made with the latest thresholds (the other run's may still be on its
    // way): each session counts the requests it was given and knows which one its report answers.
    auto current = [](const Run& run) { return run.trace && run.report && run.session->reportCurrent(); };
    if (current(m_runs[Base]) && current(m_runs[New]))
        tryCompare(false);
    else
        updateHeaders();
}

bool CompareWindow::busy() const { return m_pending > 0; }

void CompareWindow::startSession(Side side, const QString& path) {
    ++m_pending;
    m_progress->setValue(0);
    m_progress->show();
    m_runs[side].session->open(QFileInfo(path).absoluteFilePath(), m_thresholds);
}

void CompareWindow::open(const QString& basePath, const QString& newPath) {
    for (Run& run : m_runs) {
        run.trace.reset();
        run.report.reset();
    }
    m_pending = 0;
    m_message->hide();
    m_verdict->setText(tr("Opening %1 and %2…").arg(QFileInfo(basePath).fileName(), QFileInfo(newPath).fileName()));
    startSession(Base, basePath);
    startSession(New, newPath);
}

void CompareWindow::openAgainst(OpenedTracePtr base, ReportPtr baseReport, const QString& newPath) {
    m_pending = 0;
    m_message->hide();
    m_runs[New].trace.reset();
    m_runs[New].report.reset();
    m_verdict->setText(tr("Opening %1…").arg(QFileInfo(newPath).fileName()));
    if (!baseReport) baseReport = base->report;
    if (baseReport) {
        // The compare runs with the thresholds the baseline's report was made with.
        m_thresholds = baseReport->settings.thresholds();
        const QSignalBlocker b1(m_coefSpin), b2(m_overlapSpin);
        m_coefSpin->setValue(m_thresholds.coefficient);
        m_overlapSpin->setValue(m_thresholds.overlapRatio);
    }
    // The session tells its views (and onOpened) as if it had opened the trace.
    m_runs[Base].session->adopt(std::move(base), std::move(baseReport));
    startSession(New, newPath);
}

void CompareWindow::onOpened(Side side, OpenedTracePtr t) {
    if (m_pending == 0) m_progress->hide();
    m_runs[side].trace = std::move(t);
    m_runs[side].report = m_runs[side].binder->report();
    tryCompare();
}

void CompareWindow::onFailed(const QString& path, const QString& message) {
    m_pending = std::max(0, m_pending - 1);
    if (m_pending == 0) m_progress->hide();
    const QString text = tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), message);
    m_message->setText(text);
    m_message->show();
    m_verdict->setText(tr("No comparison."));
    emit failed(text);
}

void CompareWindow::tryCompare(bool resetView) {
    updateHeaders();
    const Run& base = m_runs[Base];
    const Run& now = m_runs[New];
    if (!base.trace || !now.trace) return;
    if (resetView) {
        // Both runs from the start, aligned (the comparison follows the baseline's reset).
        updateOffset();
        base.timeline->resetZoom();
    }
    if (!base.report || !now.report) {
        const QString why = !base.report ? base.trace->analysisError : now.trace->analysisError;
        m_message->setText(tr("No analysis to compare: %1").arg(why));
        m_message->show();
        emit failed(m_message->text());
        return;
    }
    // Pure and cheap (matching over the reports' anomalies, windows and signatures), so it runs here.
    auto result = std::make_shared<CompareResult>(compareReports(*base.report, *now.report));
    result->basePath = base.trace->path.toStdString();
    result->newPath = now.trace->path.toStdString();
    m_result = std::move(result);
    m_opModel->setResult(m_result);
    m_anModel->setResult(m_result);
    m_patModel->setResult(m_result);
    m_shift->setResult(*m_result);
    m_gain->setResult(m_result);

    const CompareResult& r = *m_result;
    const QString e2e = tr("end-to-end %1 → %2 (%3%4%)")
                            .arg(durationText(r.baseEndToEnd), durationText(r.newEndToEnd),
                                 r.endToEndChange > 0 ? QStringLiteral("+") : QString())
                            .arg(r.endToEndChange * 100, 0, 'f', 1);
    const QString counts = tr("anomalies: %1 resolved, %2 persisting, %3 new · windows: %4 resolved, %5 new")
                               .arg(r.anomalies.resolved.size())
                               .arg(r.anomalies.persisting.size())
                               .arg(r.anomalies.added.size())
                               .arg(r.windows.resolved.size())
                               .arg(r.windows.added.size());
    QString verdict =
        QStringLiteral("<b>%1</b><br>%2 · %3").arg(QString::fromStdString(r.verdict).toHtmlEscaped(), e2e, counts);
    // The what-if's check in one line (the tab "Predicted vs realised" has it per resource).
    if (r.gain.available)
        verdict += QStringLiteral("<br>") +
                   tr("predicted vs realised: %1").arg(QString::fromStdString(r.gain.text).toHtmlEscaped());
    m_verdict->setText(verdict);
    const auto labels = distinctLabels(base.trace->path, now.trace->path);
    setWindowTitle(tr("Contend — %1 vs %2 (coefficient %3, overlap %4)")
                       .arg(labels.first, labels.second)
                       .arg(base.report->settings.coefficient, 0, 'f', 2)
                       .arg(base.report->settings.overlapRatio, 0, 'f', 2));
    m_anPanel->sortBy(CompareModel::AnScoreNew, Qt::DescendingOrder);
    // Numbers get their width, names share the rest (TablePanel::fitColumns).
    m_opPanel->fitColumns();
    m_anPanel->fitColumns();
    m_patPanel->sortBy(CompareModel::PatCostBase, Qt::DescendingOrder);
    m_patPanel->fitColumns();

    updateBreakdowns();
    emit compared();
}

void CompareWindow::updateHeaders() {
    const Run& base = m_runs[Base];
    const Run& now = m_runs[New];
    const auto labels =
        base.trace && now.trace ? distinctLabels(base.trace->path, now.trace->path) : std::pair<QString, QString>();
    auto header = [](const QString& role, const Run& run, const QString& label) {
        const OpenedTracePtr& t = run.trace;
        if (!t) return QStringLiteral("<b>%1</b>").arg(role);
        QString s = QStringLiteral("<b>%1</b> — %2")
                        .arg(role, (label.isEmpty() ? QFileInfo(t->path).fileName() : label).toHtmlEscaped());
        if (const ReportPtr& r = run.report)
            s += QObject::tr(" · end-to-end %1 · %2 anomalies · %3 windows")
                     .arg(durationText(r->summary.endToEndNs))
                     .arg(r->anomalies.size())
                     .arg(r->windows.size());
        return s;
    };
    for (Side side : {Base, New}) {
        const Run& run = m_runs[side];
        run.header->setText(side == Base ? header(tr("Baseline"), run, labels.first)
                                         : header(tr("Comparison"), run, labels.second));
        run.header->setToolTip(run.trace ? run.trace->path : QString());
    }
}

}  // namespace contend::gui
