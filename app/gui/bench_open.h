#pragma once
// `contend --bench-open TRACE [--size WxH]`: how soon a trace can be looked at (progressive
// opening). Opens TRACE in a main window (offscreen) as File > Open does and prints when the
// timeline came (read and indexed: the preview), the loader's own read time, when the analysis
// was in, and the timeline's frames while the analysis ran: the bench zooms and pans the
// preview every 100 ms as a user would and times each repaint, and it times the event loop's
// lateness (a 10 ms timer) over the same span. It ends with one line
//   preview_s=A load_s=B preview_over_load=A/B open_s=C frames=N frame_median_ms=X frame_max_ms=Y
//   loop_late_max_ms=Z
#include <QStringList>

namespace contend::gui {

int runBenchOpen(const QStringList& args);

}  // namespace contend::gui
