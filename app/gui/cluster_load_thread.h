#pragma once
// Opens a cluster off the GUI thread: a cluster report (CLUSTER.json, read back), or a folder of
// ranks (core/pipeline/cluster_run.h: the ranks found as contend-cli cluster finds them, loaded and
// analysed two at a time under the memory budget, each dropped once its report is cut down, then
// merged). Progress per rank; Cancel stops between read chunks and analysis stages. Emits exactly
// one of done / failed / cancelled.
#include <memory>

#include <QMetaType>
#include <QString>

#include "app/gui/load_worker.h"
#include "core/analysis/ranks/rank_merge.h"

namespace contend::gui {

struct OpenedCluster {
    QString path;             // the report or the folder the user opened
    bool fromFolder = false;  // analysed here (else read from a report)
    std::shared_ptr<const ClusterReport> report;
    double seconds = 0;
};
using OpenedClusterPtr = std::shared_ptr<const OpenedCluster>;

// A path the app opens as a cluster: a cluster report file, or a folder of several ranks.
bool isClusterPath(const QString& path);

// Where rank `rank`'s trace is, for the drill-down: the cluster report's ranks[].trace, else its
// `report` when that is a trace or a per-rank report naming one (trace.path); a relative path is
// tried against the cluster report's folder, the rank report's folder and the working folder.
// Empty with *why (in words, naming what was tried) when it is not reachable.
QString rankTracePath(const OpenedCluster& cluster, int rank, QString* why = nullptr);

class ClusterLoadThread : public LoadWorker {
    Q_OBJECT
  public:
    explicit ClusterLoadThread(QString path, int jobs = 2, QObject* parent = nullptr);

  signals:
    void progress(double fraction, const QString& stage);
    void done(contend::gui::OpenedClusterPtr cluster);
    // failed(message) and cancelled() come from LoadWorker.

  protected:
    void run() override;

  private:
    int m_jobs;
};

}  // namespace contend::gui

Q_DECLARE_METATYPE(contend::gui::OpenedClusterPtr)
