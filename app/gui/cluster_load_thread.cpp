#include "app/gui/cluster_load_thread.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include "core/io/reader_table.h"
#include "core/pipeline/cluster_run.h"
#include "core/report/ranks/cluster_report.h"

namespace contend::gui {

bool isClusterPath(const QString& path) {
    const QFileInfo info(path);
    if (info.isDir()) return isClusterFolder(path.toStdString());
    return info.isFile() && looksLikeClusterReport(path.toStdString());
}

namespace {

// A per-rank report's trace.path, or empty.
QString traceOfReport(const QString& reportPath) {
    std::ifstream in(reportPath.toStdString(), std::ios::binary);
    if (!in) return {};
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("trace") || !j["trace"].is_object()) return {};
    const nlohmann::json& t = j["trace"];
    if (!t.contains("path") || !t["path"].is_string()) return {};
    return QString::fromStdString(t["path"].get<std::string>());
}

// A contend.report document (named in its first or last megabyte, as the writer puts it), not a
// trace: an older cluster report's ranks[].report is one of those, or the trace itself.
bool isReportFile(const QString& p) {
    QFile f(p);
    if (!f.open(QIODevice::ReadOnly)) return p.endsWith(QStringLiteral(".report.json"));
    constexpr qint64 kWindow = 1 << 20;
    const QByteArray needle("\"contend.report/");
    if (f.read(kWindow).contains(needle)) return true;
    if (f.size() <= kWindow) return false;
    f.seek(f.size() - kWindow);
    return f.read(kWindow).contains(needle);
}

// `p` as it stands, then against each base folder; the first that exists.
QString resolve(const QString& p, const QStringList& bases, QStringList& tried) {
    if (p.isEmpty()) return {};
    if (QFileInfo(p).isAbsolute()) {
        tried << p;
        return QFileInfo::exists(p) ? p : QString();
    }
    for (const QString& b : bases) {
        const QString c = QDir(b).absoluteFilePath(p);
        tried << c;
        if (QFileInfo::exists(c)) return QDir::cleanPath(c);
    }
    return {};
}

}  // namespace

QString rankTracePath(const OpenedCluster& cluster, int rank, QString* why) {
    const ClusterReport& c = *cluster.report;
    std::size_t r = 0;
    while (r < c.ranks.size() && c.ranks[r] != rank) ++r;
    if (r == c.ranks.size()) {
        if (why) *why = QObject::tr("rank %1 is not in the cluster").arg(rank);
        return {};
    }
    const QString clusterDir =
        cluster.fromFolder ? QFileInfo(cluster.path).absoluteFilePath() : QFileInfo(cluster.path).absolutePath();
    QStringList bases{clusterDir, QDir::currentPath()};
    QStringList tried;
    const QString trace = r < c.traces.size() ? QString::fromStdString(c.traces[r]) : QString();
    const QString source = QString::fromStdString(c.sources[r]);
    if (QString found = resolve(trace, bases, tried); !found.isEmpty()) return found;
    if (!source.isEmpty() && !isReportFile(source)) {
        if (QString found = resolve(source, bases, tried); !found.isEmpty()) return found;
    } else if (!source.isEmpty()) {
        // An older cluster report: its rank report may say where the trace is.
        if (const QString report = resolve(source, bases, tried); !report.isEmpty()) {
            const QString named = traceOfReport(report);
            bases.prepend(QFileInfo(report).absolutePath());
            if (QString found = resolve(named, bases, tried); !found.isEmpty()) return found;
        }
    }
    if (why) {
        if (tried.isEmpty())
            *why = QObject::tr(
                       "rank %1's trace is not reachable: the cluster report does not say where it is (it "
                       "predates ranks[].trace); open the trace with File ▸ Open Trace")
                       .arg(rank);
        else
            *why = QObject::tr("rank %1's trace is not reachable: none of %2 exists")
                       .arg(rank)
                       .arg(tried.join(QStringLiteral(", ")));
    }
    return {};
}

ClusterLoadThread::ClusterLoadThread(QString path, int jobs, QObject* parent)
    : LoadWorker(std::move(path), parent), m_jobs(jobs) {
    setObjectName(QStringLiteral("contend-cluster"));
}

void ClusterLoadThread::run() {
    QElapsedTimer timer;
    timer.start();
    auto out = std::make_shared<OpenedCluster>();
    out->path = path();
    const QFileInfo info(path());
    if (!info.exists()) {
        emit failed(tr("%1: no such file or folder").arg(path()));
        return;
    }
    if (info.isFile()) {
        emit progress(-1, tr("Reading the cluster report %1").arg(info.fileName()));
        auto c = readClusterReport(path().toStdString());
        if (!c) {
            emit failed(QString::fromStdString(c.failure().message()));
            return;
        }
        out->report = std::make_shared<const ClusterReport>(std::move(c).value());
    } else {
        out->fromFolder = true;
        const std::vector<std::string> traces = findRankTraces(path().toStdString());
        if (traces.size() < 2) {
            // What a rank is comes from the format table (core/io/reader_table.h).
            emit failed(tr("%1: not a cluster: %n rank trace(s) found (%2), two at least are needed", nullptr,
                           static_cast<int>(traces.size()))
                            .arg(path(), QString::fromStdString(rankLayoutWords(", "))));
            return;
        }
        emit progress(0, tr("Analysing %1 ranks, %2 at a time").arg(traces.size()).arg(m_jobs));
        ClusterRunOptions o;
        o.jobs = m_jobs;
        o.keepGoing = keepGoing();
        o.rankDone = [this](std::size_t done, std::size_t total, const std::string& trace) {
            emit progress(static_cast<double>(done) / static_cast<double>(total),
                          tr("Analysed %1 of %2 ranks (last: %3)")
                              .arg(done)
                              .arg(total)
                              .arg(QFileInfo(QString::fromStdString(trace)).fileName()));
        };
        ClusterRunResult r = analyseRanks(traces, o);
        if (isCancelled() || r.cancelled()) {
            emit cancelled();
            return;
        }
        if (!r) {
            emit failed(QString::fromStdString(r.failure().message()));
            return;
        }
        emit progress(1, tr("Merging %1 ranks").arg(r.value().size()));
        out->report = std::make_shared<const ClusterReport>(mergeRanks(std::move(r.value())));
    }
    out->seconds = static_cast<double>(timer.elapsed()) / 1e3;
    if (isCancelled()) {
        emit cancelled();
        return;
    }
    emit done(out);
}

}  // namespace contend::gui
