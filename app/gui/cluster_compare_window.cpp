#include "app/gui/cluster_compare_window.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "app/gui/app_menus.h"
#include "app/gui/loading_panel.h"
#include "app/gui/message_bar.h"
#include "widgets/cluster/cluster_models.h"
#include "widgets/cluster/step_heatmap.h"
#include "widgets/tables/table_panel.h"

namespace contend::gui {

using namespace contend::widgets;

ClusterCompareWindow::ClusterCompareWindow(QWidget* parent)
    : QMainWindow(parent),
      m_centre(new QStackedWidget(this)),
      m_loading(new LoadingPanel(m_centre)),
      m_message(new MessageBar(this)),
      m_verdict(new QLabel(this)),
      m_base(new StepHeatmap(this)),
      m_new(new StepHeatmap(this)),
      m_model(new RankCompareModel(this)),
      m_panel(new TablePanel(m_model, tr("Filter ranks…"), this)) {
    setObjectName(QStringLiteral("ClusterCompareWindow"));
    setWindowTitle(tr("Contend — compare clusters"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_base->setPeer(m_new);
    m_new->setPeer(m_base);
    auto* content = new QWidget(m_centre);
    auto* box = new QVBoxLayout(content);
    box->setContentsMargins(4, 4, 4, 4);
    box->addWidget(m_message);
    box->addWidget(m_verdict);
    auto* maps = new QSplitter(Qt::Horizontal, content);
    maps->addWidget(m_base);
    maps->addWidget(m_new);
    auto* split = new QSplitter(Qt::Vertical, content);
    split->addWidget(maps);
    split->addWidget(m_panel);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    box->addWidget(split, 1);
    m_centre->addWidget(content);
    m_centre->addWidget(m_loading);
    setCentralWidget(m_centre);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    addQuitAction(file);
    // The main window's Edit, View and Help: Ctrl+C copies the focused table's rows.
    addCopyAction(menuBar()->addMenu(tr("&Edit")), this);
    addPaletteAction(menuBar()->addMenu(tr("&View")));
    addHelpMenu(this);
    connect(m_loading, &LoadingPanel::cancelRequested, this, &ClusterCompareWindow::cancel);
    resize(1400, 900);
}

ClusterCompareWindow::~ClusterCompareWindow() {
    if (m_load) {
        m_load->cancel();
        m_load->wait();
    }
}

void ClusterCompareWindow::open(const QString& base, const QString& now) {
    m_paths[0] = QFileInfo(base).absoluteFilePath();
    m_paths[1] = QFileInfo(now).absoluteFilePath();
    m_sides[0].reset();
    m_sides[1].reset();
    setWindowTitle(
        tr("Contend — compare clusters %1 vs %2").arg(QFileInfo(base).fileName(), QFileInfo(now).fileName()));
    load(0);
}

void ClusterCompareWindow::cancel() {
    if (m_load) m_load->cancel();
}

void ClusterCompareWindow::load(int side) {
    if (m_load) {
        // The load in progress stops within a fraction of a second (between read chunks or
        // analysis stages); waiting keeps one worker at a time and none outliving the window.
        m_load->disconnect(this);
        m_load->cancel();
        m_load->wait();
    }
    auto* t = new ClusterLoadThread(m_paths[side], 2, this);
    m_load = t;
    connect(t, &ClusterLoadThread::progress, m_loading, [this, side](double f, const QString& stage) {
        m_loading->setStage(f, (side == 0 ? tr("Baseline: %1") : tr("Comparison: %1")).arg(stage));
    });
    connect(t, &ClusterLoadThread::done, this, [this, side](OpenedClusterPtr c) {
        m_sides[side] = std::move(c);
        if (side == 0)
            load(1);
        else
            finish();
    });
    auto fail = [this](const QString& message) {
        m_loading->stop();
        m_centre->setCurrentIndex(0);
        m_message->showMessage(MessageBar::Kind::Error, tr("Could not compare the clusters"), {message});
        emit failed(message);
    };
    connect(t, &ClusterLoadThread::failed, this, fail);
    connect(t, &ClusterLoadThread::cancelled, this, [fail] { fail(tr("cancelled")); });
    connect(t, &QThread::finished, t, &QObject::deleteLater);
    m_loading->start(m_paths[side]);
    m_centre->setCurrentWidget(m_loading);
    t->start();
}

void ClusterCompareWindow::finish() {
    m_loading->stop();
    m_centre->setCurrentIndex(0);
    const ClusterReport& a = *m_sides[0]->report;
    const ClusterReport& b = *m_sides[1]->report;
    m_cmp = std::make_shared<const ClusterComparison>(compareClusters(a, b));
    m_verdict->setText(
        tr("<b>%1</b> (baseline, %2 ranks) vs <b>%3</b> (%4 ranks)<br><span style='font-size:large'>%5</span>")
            .arg(QFileInfo(m_paths[0]).fileName().toHtmlEscaped())
            .arg(a.ranks.size())
            .arg(QFileInfo(m_paths[1]).fileName().toHtmlEscaped())
            .arg(b.ranks.size())
            .arg(QString::fromStdString(m_cmp->verdict).toHtmlEscaped()));
    m_base->setTitle(tr("<b>Baseline</b> %1").arg(QFileInfo(m_paths[0]).fileName().toHtmlEscaped()));
    m_new->setTitle(tr("<b>Comparison</b> %1").arg(QFileInfo(m_paths[1]).fileName().toHtmlEscaped()));
    m_base->setReport(m_sides[0]->report);
    m_new->setReport(m_sides[1]->report);
    m_model->setComparison(m_cmp);
    m_message->clear();
    emit compared();
}

}  // namespace contend::gui
