#include "app/gui/load_thread.h"

#include <algorithm>
#include <climits>
#include <optional>

#include <QElapsedTimer>
#include <QFileInfo>

#include "app/gui/app_analysis.h"
#include "core/pipeline/analyze_trace.h"

namespace contend::gui {

QStringList describeWarnings(const Trace& trace) {
    QStringList out;
    const ImportStats& st = trace.stats();
    if (st.truncated) out << QObject::tr("The file ends early (truncated): every complete event was loaded.");
    for (const ImportWarning& w : st.warnings) {
        const int n = static_cast<int>(std::min<std::uint64_t>(w.count, INT_MAX));
        QString counted;
        if (w.unit == ProblemUnit::Byte)
            counted = QObject::tr("%n byte(s)", nullptr, n);
        else if (w.unit == ProblemUnit::String)
            counted = QObject::tr("%n string(s)", nullptr, n);
        else if (w.unit == ProblemUnit::Value)
            counted = QObject::tr("%n value(s)", nullptr, n);
        else
            counted = QObject::tr("%n event(s)", nullptr, n);
        QString line = QObject::tr("%1: %2").arg(counted, QString::fromStdString(w.kind));
        if (!w.example.empty()) line += QObject::tr(" (first at %1)").arg(QString::fromStdString(w.example));
        out << line;
    }
    return out;
}

LoadThread::LoadThread(QString path, AnalysisSettings settings, QObject* parent)
    : LoadWorker(std::move(path), parent), m_settings(std::move(settings)) {
    setObjectName(QStringLiteral("contend-load"));
}

void LoadThread::run() {
    QElapsedTimer timer;
    timer.start();
    auto opened = std::make_shared<OpenedTrace>();
    opened->path = path();
    const QFileInfo info(path());
    // A file's size gives the reading stage its numbers (a folder's parts are read one by one).
    const double mb = info.isFile() ? static_cast<double>(info.size()) / 1e6 : 0;
    auto reading = [&](double f) {
        if (mb <= 0) return tr("Reading %1: %2%").arg(info.fileName()).arg(f * 100, 0, 'f', 0);
        return tr("Reading %1: %2 of %3 MB")
            .arg(info.fileName())
            .arg(f * mb, 0, 'f', mb < 10 ? 1 : 0)
            .arg(mb, 0, 'f', mb < 10 ? 1 : 0);
    };
    emit progress(0, reading(0), LoadPhase::Reading);
    // Core's pipeline (analyze_trace.h), as contend-cli analyze runs it; the hooks index the
    // timeline between the load and the analysis and tell each stage as it starts. The analysis
    // weighs itself against what the load's memory budget leaves (the same CONTEND_MAX_MEMORY /
    // three quarters of the available memory), and says so instead of running into the OOM
    // killer.
    PipelineOptions options;
    options.analysis = m_settings;
    options.keepGoing = keepGoing();
    options.keepWhatIfCache = true;
    double last = -1;
    options.load.progress = [&](double f) {
        if (f - last >= 0.01) {
            last = f;
            emit progress(0.6 * f, reading(f), LoadPhase::Reading);
        }
        return !isCancelled();
    };
    QString counts;
    bool empty = false;
    options.loaded = [&](const TracePtr& trace) -> std::optional<Failure> {
        opened->trace = trace;
        opened->warnings = describeWarnings(*trace);
        opened->loadSeconds = static_cast<double>(timer.elapsed()) / 1e3;
        if (trace->operatorCount() == 0) {
            empty = true;
            return Failure::of(Failure::Kind::NotATrace, "the file holds no operators");
        }
        counts = tr("%L1 operators on %L2 tracks, %L3 counters")
                     .arg(trace->operatorCount())
                     .arg(trace->tracks().size())
                     .arg(trace->counters().size());
        emit progress(0.65, tr("Indexing the timeline: %1").arg(counts), LoadPhase::Indexing);
        opened->timeline = widgets::makeTimelineData(trace);
        if (isCancelled()) return Failure::cancelled();
        auto preview = std::make_shared<OpenedTrace>(*opened);
        preview->analysing = true;
        emit indexed(preview);
        emit progress(0.7, tr("Analysing contention: %1").arg(counts), LoadPhase::Analysing);
        timer.restart();
        return std::nullopt;
    };
    // Each stage as it starts, with its share of the analysis (0.7-0.95 of the whole open).
    options.prepareProgress = [&](PrepareStage s) {
        emit progress(0.7 + 0.25 * prepareStageStart(s),
                      tr("Analysing contention, %1 (%2 of %3): %4")
                          .arg(QString::fromUtf8(prepareStageName(s)))
                          .arg(static_cast<int>(s) + 1)
                          .arg(kPrepareStages)
                          .arg(counts),
                      LoadPhase::Analysing);
    };
    options.prepared = [&](const PreparedAnalysisPtr& prepared) {
        opened->prepared = prepared;
        emit progress(0.95,
                      tr("Building the report and the what-if at coefficient %1, overlap %2")
                          .arg(m_settings.coefficient, 0, 'f', 2)
                          .arg(m_settings.overlapRatio, 0, 'f', 2),
                      LoadPhase::Reporting);
    };
    PipelineOutputs made;
    Result<Report> analysed = analyzeTrace(path().toStdString(), options, &made);
    if (isCancelled() || analysed.cancelled()) {
        emit cancelled();
        return;
    }
    if (!made.trace) {  // the load failed
        emit failed(QString::fromStdString(analysed.failure().message()));
        return;
    }
    if (empty) {
        emit failed(tr("%1: the file holds no operators (no complete or begin/end events)").arg(path()));
        return;
    }
    // The trace opens whatever the analysis says: its timeline without findings, and why.
    // The queue tracks, after the preview: the analysis' series (no second HTA scope), or the
    // trace's own when the analysis failed.
    opened->queues = opened->prepared ? widgets::makeQueueTracks(*made.trace, opened->prepared->queueSeries())
                                      : widgets::makeQueueTracks(*made.trace);
    if (analysed) {
        m_cache = made.whatIfCache;
        opened->report = shareReport(std::move(analysed).value());
        opened->overlay = overlayForApp(*opened, *opened->report);
    } else {
        opened->prepared = nullptr;  // no report to re-threshold
        opened->analysisError = tr("The analysis failed: %1").arg(QString::fromStdString(analysed.failure().message()));
    }
    opened->analysisSeconds = static_cast<double>(timer.elapsed()) / 1e3;
    emit progress(1.0, tr("Done"), LoadPhase::Done);
    emit done(opened);
}

}  // namespace contend::gui
