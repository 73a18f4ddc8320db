#pragma once
// Opens one trace off the GUI thread: read (with progress, cancellable), build the timeline
// index, prepare the analysis and build the first report. Emits exactly one of done / failed /
// cancelled. A cancel is honoured while reading (between chunks) and between the analysis'
// stages, so the thread stops within a fraction of a second (contend-cli bench-load --cancel and
// bench-analyze measure the longest wait).
#include <atomic>

#include <QString>
#include <QThread>

#include "app/gui/opened_trace.h"

namespace contend::gui {

class LoadThread : public QThread {
    Q_OBJECT
  public:
    LoadThread(QString path, AnalysisSettings settings, QObject* parent = nullptr);
    void cancel() { m_cancel = true; }
    bool isCancelled() const { return m_cancel; }
    const QString& path() const { return m_path; }
    // The what-if's replays of the first report (for the session's re-thresholds); call after
    // done, once: the thread no longer touches it then.
    WhatIfCachePtr takeWhatIfCache() { return std::move(m_cache); }

  signals:
    void progress(double fraction, const QString& phase);
    void done(contend::gui::OpenedTracePtr opened);
    void failed(const QString& message);
    void cancelled();

  protected:
    void run() override;

  private:
    QString m_path;
    AnalysisSettings m_settings;
    std::atomic<bool> m_cancel{false};
    WhatIfCachePtr m_cache;
};

}  // namespace contend::gui
