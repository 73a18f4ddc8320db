#pragma once
// A saved session (File > Save Session…, *.contend-session): a small JSON file with a format
// version that brings a working view back: the trace (or Ascend folder), the thresholds, the
// window's dock layout, the selected operator, the visible time range, and the timeline's
// tracks (order, pinned, hidden, filter; counter tracks pinned or hidden). Nothing in it is an
// index into the trace: tracks are named by pid and tid as the file writes them, counters by their
// label, the operator by its track, start and name, so a
// session still finds them after the trace is read again. Reading never throws: a damaged or
// foreign file is a Failure that names the file and the place (byte, line, column) or the key.
// Pure apart from the Qt types it names; no window (main_window_session.cpp does the actions).
//
//   {"format": "contend-session", "version": 1,
//    "trace": "/abs/path/run.json.gz", "traceRelative": "run.json.gz",
//    "thresholds": {"coefficient": 3.0, "overlap": 0.7},
//    "window": {"state": "<base64 QMainWindow::saveState>"},
//    "range": {"start": 1683564902136198000, "end": 1683564902236198000},
//    "selection": {"pid": "0", "tid": "7", "start": 1683564902136199000, "name": "gemm"},
//    "tracks": {"order": [{"pid": "0", "tid": "7"}, ...], "pinned": [...], "hidden": [...],
//               "filter": {"text": "stream", "deviceOnly": false},
//               "pinnedCounters": ["GPU 0 / dram bytes/s"], "hiddenCounters": [...]}}
// The counter keys came after version 1's first files; a file without them pins and hides no
// counter, and an older Contend ignores them.
#include <optional>
#include <string>
#include <vector>

#include <QString>

#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"
#include "widgets/timeline/track_arrangement.h"

namespace contend::gui {

inline constexpr int kSessionFormatVersion = 1;
// The Save / Open dialogs' filter.
QString sessionFileFilter();

struct SessionTrackRef {
    std::string pid;
    std::string tid;
    friend bool operator==(const SessionTrackRef& a, const SessionTrackRef& b) {
        return a.pid == b.pid && a.tid == b.tid;
    }
};

struct SessionSelection {
    SessionTrackRef track;
    TimeNs start = 0;  // absolute, as in the trace
    std::string name;
};

struct SessionState {
    std::string tracePath;      // absolute
    std::string traceRelative;  // from the session file's folder (a moved pair still opens)
    Thresholds thresholds;
    std::string windowState;  // base64 of QMainWindow::saveState, "" for none
    bool hasRange = false;
    TimeNs rangeStart = 0, rangeEnd = 0;  // absolute ns
    std::optional<SessionSelection> selection;
    std::vector<SessionTrackRef> order, pinned, hidden;
    widgets::TrackFilter filter;
    std::vector<std::string> pinnedCounters, hiddenCounters;  // counter tracks by label
};

std::string sessionToJson(const SessionState& state);
// `file` names the session in failures.
Result<SessionState> sessionFromJson(const std::string& bytes, const std::string& file);
Result<SessionState> readSessionFile(const QString& path);
// The trace a session opens: its absolute path if that exists, else the one relative to the
// session file's folder if that exists, else the absolute path (which then fails to open).
QString sessionTracePath(const SessionState& state, const QString& sessionPath);

SessionTrackRef trackRef(const Trace& trace, std::uint32_t track);
// The track named by `ref`, kNone when the trace has none.
std::uint32_t findTrack(const Trace& trace, const SessionTrackRef& ref);
// The arrangement as refs into `state` (order, pinned, hidden, filter, counters).
void storeTracks(const Trace& trace, const widgets::TrackArrangement& arrangement, SessionState& state);
// The saved arrangement on `trace`; tracks and counters the trace lacks are left out and counted
// in `missing`.
widgets::TrackArrangement restoreTracks(const Trace& trace, const SessionState& state, int* missing = nullptr);
SessionSelection selectionRef(const Trace& trace, std::uint32_t slice);
// The slice on the selection's track starting at its start with its name, kNone when none.
std::uint32_t findSelection(const Trace& trace, const SessionSelection& selection);

}  // namespace contend::gui
