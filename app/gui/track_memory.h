#pragma once
// The timeline's tracks remembered per trace, as Nsight Systems keeps a report's rows: what the
// user pinned, hid, moved and filtered (counters included) comes back when the same trace (or
// Ascend folder) is opened again. Kept in the app's settings (QSettings, "tracks/perTrace"),
// keyed by the trace's absolute path, the kKeep traces used last; tracks named by pid and tid
// and counters by their label, as a session names them (session_file.h), so nothing depends on
// the order a reader gives them. A trace back in the trace's own arrangement is forgotten.
#include <optional>

#include <QString>
#include <QStringList>

#include "core/trace/trace.h"
#include "widgets/timeline/track_arrangement.h"

namespace contend::gui {

class TrackMemory {
  public:
    static constexpr int kKeep = 20;
    // Remembers `arrangement` for the trace at `path` as the newest entry (the oldest beyond
    // kKeep go); the trace's own arrangement forgets it.
    static void remember(const QString& path, const Trace& trace, const widgets::TrackArrangement& arrangement);
    // What was remembered for the trace at `path`, on `trace` (tracks and counters it no longer
    // has left out); nothing when nothing was.
    static std::optional<widgets::TrackArrangement> recall(const QString& path, const Trace& trace);
    static void forget(const QString& path);
    // The traces remembered, newest first (absolute paths).
    static QStringList paths();
};

}  // namespace contend::gui
