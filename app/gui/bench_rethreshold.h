#pragma once
// `contend --bench-rethreshold TRACE [--no-cache] [--repeat N]`: opens TRACE through the app's
// AnalysisSession (load, prepare, first report with the what-if) and drags the thresholds as a
// slider does, one step at a time: coefficient 3.0 down to 2.0 and back by 0.1, then overlap
// 0.70 down to 0.50 and back by 0.05. Each step is the app's re-threshold (setThresholds, the
// report worker's buildReport, the findings back on the GUI thread, then the what-if and the
// gains back); it prints each step's time from the request to the findings (what the tables
// show at once) and to the gains, the worker's build and its what-if part, and ends with one line
//   steps=N cache=on findings_median_ms=F findings_max_ms=G rethreshold_median_ms=X
//   rethreshold_max_ms=Y whatif_median_ms=Z whatif_max_ms=W
// --no-cache runs the what-if from scratch on every step (as before the cache), for comparison.
// --window runs it through a main window, so the times include the views taking each report.
#include <QStringList>

namespace contend::gui {

int runBenchRethreshold(const QStringList& args);

}  // namespace contend::gui
