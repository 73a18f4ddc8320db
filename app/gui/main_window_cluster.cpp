// MainWindow, part 3: clusters. A cluster report or a folder of several ranks (the detection of
// contend-cli cluster) opens in its own cluster window; File ▸ Open Cluster… and Compare Cluster…
// live here so the rest of the main window stays about one trace.
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "app/gui/cluster_compare_window.h"
#include "app/gui/cluster_load_thread.h"
#include "app/gui/cluster_window.h"
#include "app/gui/main_window.h"

namespace contend::gui {

ClusterWindow* MainWindow::openCluster(const QString& path) {
    auto* w = new ClusterWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->resize(size());
    w->show();
    w->open(path);
    return w;
}

void MainWindow::openAny(const QString& path) {
    if (isClusterPath(path))
        openCluster(path);
    else
        openPath(path);
}

void MainWindow::addClusterActions(QMenu* file) {
    QAction* report = file->addAction(tr("Open C&luster…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open cluster report"), QString(),
                                                          tr("Cluster report (*.json);;All files (*)"));
        if (!path.isEmpty()) openCluster(path);
    });
    report->setToolTip(tr("A cluster report written by contend-cli merge or cluster"));
    QAction* folder = file->addAction(tr("Open Cluster F&older…"), this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open a folder of ranks"));
        if (!path.isEmpty()) openCluster(path);
    });
    folder->setToolTip(tr("A folder of per-rank traces (Kineto files with distributedInfo.rank, *_ascend_pt folders)"));
    file->addAction(tr("Compare Cl&uster…"), this, [this] {
        const QString base = QFileDialog::getOpenFileName(this, tr("Baseline cluster report"), QString(),
                                                          tr("Cluster report (*.json);;All files (*)"));
        if (base.isEmpty()) return;
        const QString now =
            QFileDialog::getOpenFileName(this, tr("Cluster report to compare with it"), QFileInfo(base).absolutePath(),
                                         tr("Cluster report (*.json);;All files (*)"));
        if (now.isEmpty()) return;
        auto* w = new ClusterCompareWindow;
        w->setAttribute(Qt::WA_DeleteOnClose);
        w->resize(size());
        w->show();
        w->open(base, now);
    });
}

}  // namespace contend::gui
