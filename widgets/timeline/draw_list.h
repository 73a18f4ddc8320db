#pragma once
// The timeline's draw list (pure, no Qt): what one frame shows, as rectangles, folded marks,
// bands, brackets and counter columns in viewport pixels. Building it touches only what is
// drawn: per visible lane two binary searches find the visible slices, and a run of slices
// narrower than `minPx` becomes one counted mark whose reach is found by binary search on the
// lane's running max end, so the slices it hides are never walked (Tracy's folded zones).
// Painting (timeline_painter.h) is a second, separate step.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"
#include "widgets/common/palette.h"
#include "widgets/timeline/counter_lod.h"
#include "widgets/timeline/queue_tracks.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/slice_marks.h"
#include "widgets/timeline/time_axis.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_index.h"
#include "widgets/timeline/track_layout.h"

namespace contend::widgets {

enum DrawFlags : std::uint8_t {
    kDrawFolded = 1 << 0,   // stands for `count` slices too narrow to draw one by one
    kDrawFlagged = 1 << 1,  // is (or hides) a flagged operator
    kDrawLabel = 1 << 2,    // wide enough to carry its name
};

struct DrawItem {
    float x = 0, w = 0, y = 0, h = 0;  // viewport pixels, x from the time area's left edge
    std::uint32_t slice = kNone;       // drawn slice; for a fold the worst flagged one, else the first
    std::uint32_t count = 1;           // slices it stands for
    std::uint32_t flagged = 0;         // of which flagged (anomalies), with a report
    std::uint32_t row = 0;             // TrackLayout row
    Argb fill = 0;
    Argb outline = 0;  // 0: none; else the cause's colour
    std::uint8_t flags = 0;
    bool is(DrawFlags f) const { return (flags & f) != 0; }
};

// A contention window shaded across one of the tracks it joins; windows narrower than minPx
// fold with their neighbours into one band, coloured by the resource most of them name.
struct DrawBand {
    float x = 0, w = 0, y = 0, h = 0;
    std::uint32_t track = 0;
    std::uint32_t window = kNone;           // index into Report::windows (the first, when folded)
    std::uint32_t merged = 1;               // windows folded into this band at this zoom
    Resource resource = Resource::Unknown;  // the dominant one, when folded
    bool label = false;                     // carries the resource name (topmost track, wide enough)
};

// A cluster of short operators, bracketed above its track; clusters narrower than minPx fold
// with their neighbours into one bracket (at least kMinBracketPx wide) that counts them.
// A stretch of the critical path under its track (the what-if's zero-slack slices); stretches
// narrower than minPx fold with their neighbours, like the bands, into one mark at least
// kMinPathPx wide.
struct DrawPath {
    float x = 0, w = 0, y = 0, h = 0;
    std::uint32_t track = 0;
    std::uint32_t slice = kNone;  // its first slice (the first stretch's, when folded)
    std::uint32_t stretches = 1;  // stretches folded into it at this zoom
    std::uint32_t slices = 0;     // critical slices it stands for
};

// A marked slice (DrawInput::marks: a contention pattern's runs beside its partner): an outline
// around a mark wide enough to show, else a tick along the top of its lane, at least
// kMinMarkPx wide, that stands for the marks folded into it at this zoom.
struct DrawMark {
    float x = 0, w = 0, y = 0, h = 0;  // the outline's rectangle, or the tick's
    std::uint32_t row = 0;             // TrackLayout row
    std::uint32_t slice = kNone;       // the first marked slice it stands for
    std::uint32_t count = 1;           // marked slices it stands for
    bool outline = false;              // an outline (one mark at least kMarkOutlinePx wide), else a tick
};

struct DrawBracket {
    float x = 0, w = 0, y = 0;
    std::uint32_t track = 0;
    std::uint32_t cluster = kNone;  // index into Report::clusters (the first, when folded)
    std::uint32_t clusters = 1;     // clusters it stands for
    std::uint32_t ops = 0;          // their operators
    bool label = false;
};

// One counter row as a column per `colPx` pixels: the max of the value in effect in the column,
// as a fraction of the series' max; NaN where the series has no value. A stream's queue length
// (a Queue row) is drawn the same way.
struct DrawCounter {
    std::uint32_t row = 0;
    std::uint32_t counter = 0;  // index into Trace::counters(), or into DrawInput::queues
    bool queue = false;         // a Queue row
    float y = 0, h = 0;
    float clipTop = 0;  // view y above which it is not drawn (under the pinned tracks)
    float colPx = 1;
    double maxValue = 0;
    std::vector<float> columns;
};

struct DrawStats {
    std::uint64_t walked = 0;          // slices looked at one by one
    std::uint64_t folded = 0;          // slices represented by folded marks
    std::uint64_t searches = 0;        // binary searches
    std::uint64_t findingsWalked = 0;  // windows and clusters looked at one by one
};

struct DrawList {
    std::vector<std::uint32_t> rows;  // visible TrackLayout rows, top to bottom
    std::vector<DrawItem> items;      // by row, then x
    std::vector<DrawBand> bands;
    std::vector<DrawBracket> brackets;
    std::vector<DrawPath> critical;  // with DrawInput::criticalPath
    std::vector<DrawCounter> counters;
    std::vector<DrawMark> marks;        // with DrawInput::marks
    std::optional<DrawItem> selection;  // outline of the selected slice, at least 3 px wide
    DrawStats stats;
};

struct DrawInput {
    const Trace* trace = nullptr;
    const TimelineIndex* index = nullptr;
    const TrackLayout* layout = nullptr;
    const Report* report = nullptr;                        // optional
    const ReportOverlay* overlay = nullptr;                // required with report
    const std::vector<CounterLod>* counterLods = nullptr;  // one per Trace::counters(), optional
    const std::vector<QueueTrack>* queues = nullptr;       // QueueTracks::tracks, for Queue rows
    TimeAxis axis;                                         // time area: x in [0, axis.widthPx)
    double scrollY = 0;  // content y at the viewport's top, under the layout's pinned rows
    double viewHeight = 0;
    std::uint32_t selected = kNone;     // selected slice
    bool criticalPath = false;          // draw the critical path (needs report and overlay)
    const SliceMarks* marks = nullptr;  // marked slices (a pattern's runs), optional
};

struct DrawOptions {
    float minPx = 2.0f;        // narrower than this folds
    float maxFoldPx = 8.0f;    // a folded run is cut into marks about this wide
    float labelMinPx = 30.0f;  // at least this wide to carry a label
    float colPx = 1.0f;        // counter column width
};

inline constexpr float kMinBracketPx = 3.0f;
inline constexpr float kMinPathPx = 2.0f;
inline constexpr float kPathHeightPx = 3.0f;
inline constexpr float kMinMarkPx = 5.0f;      // a tick's least width
inline constexpr float kMarkOutlinePx = 4.0f;  // a mark at least this wide is outlined
inline constexpr float kMarkTickPx = 6.0f;     // a tick's height
inline constexpr float kMarkFoldPx = 6.0f;     // folded marks are cut into ticks about this wide

DrawList buildDrawList(const DrawInput& in, const DrawOptions& options = {});

// Index of the item under (x, y) in viewport pixels, or -1. Folded marks are hit too.
int hitTest(const DrawList& list, float x, float y, float slackPx = 1.0f);

}  // namespace contend::widgets
