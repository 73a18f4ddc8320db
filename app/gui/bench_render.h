#pragma once
// `contend --bench-render TRACE` / `contend --bench-render --synthetic N`: renders the timeline
// into an offscreen 1600x900 image at several zoom levels and prints frame times, ending with one
// line `median_frame_ms=X max_frame_ms=Y`. A frame is the full repaint path: draw list + paint,
// with the analysis overlays (flagged operators, window bands, cluster brackets) of a report at
// --coefficient / --overlap (the defaults unless given; --no-analysis draws the trace alone).
#include <QStringList>

namespace contend::gui {

int runBenchRender(const QStringList& args);

}  // namespace contend::gui
