#pragma once
// Opens one trace off the GUI thread: read (with progress, cancellable), build the timeline
// index, prepare the analysis and build the first report. Emits exactly one of done / failed /
// cancelled, and before done, once the trace is read and indexed, indexed() with a preview (the
// trace and its timeline, no analysis) that the window can show while the analysis runs. A cancel is honoured while reading (between chunks) and between the analysis'
// stages, so the thread stops within a fraction of a second (contend-cli bench-load --cancel and
// bench-analyze measure the longest wait).
#include <QMetaType>
#include <QString>

#include "app/gui/load_worker.h"
#include "app/gui/opened_trace.h"

namespace contend::gui {

// The stages of opening a trace, in order (the progress text is for people; code decides by
// this).
enum class LoadPhase { Reading, Indexing, Analysing, Reporting, Done };

class LoadThread : public LoadWorker {
    Q_OBJECT
  public:
    LoadThread(QString path, AnalysisSettings settings, QObject* parent = nullptr);
    // The what-if's replays of the first report (for the session's re-thresholds); call after
    // done, once: the thread no longer touches it then.
    WhatIfCachePtr takeWhatIfCache() { return std::move(m_cache); }

  signals:
    // `text` says the stage with its numbers ("Reading run.json.gz: 120 of 260 MB").
    void progress(double fraction, const QString& text, contend::gui::LoadPhase phase);
    void indexed(contend::gui::OpenedTracePtr preview);
    void done(contend::gui::OpenedTracePtr opened);
    // failed(message) and cancelled() come from LoadWorker.

  protected:
    void run() override;

  private:
    AnalysisSettings m_settings;
    WhatIfCachePtr m_cache;
};

}  // namespace contend::gui

Q_DECLARE_METATYPE(contend::gui::LoadPhase)
