#include "widgets/timeline/draw_list.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contend::widgets {

namespace {

// Pixel positions far outside the view are clipped before they are stored as floats.
constexpr double kClipPx = 4.0;

// The vertical scroll of a row: pinned rows do not scroll.
double scrollOf(const DrawInput& in, bool pinned) { return pinned ? 0.0 : in.scrollY; }
// The top of the view y a row may draw at: the scrolled rows pass under the pinned ones.
float clipTopOf(const DrawInput& in, bool pinned) {
    return pinned ? 0.0f : static_cast<float>(in.layout->pinnedHeight());
}
// Cuts [y, y + h) at `top`; false when nothing is left.
bool clipTop(float& y, float& h, float top) {
    if (y >= top) return true;
    h -= top - y;
    y = top;
    return h > 0;
}

struct Styler {
    const DrawInput& in;
    bool withReport() const { return in.report != nullptr && in.overlay != nullptr; }

    // Fill and outline of one slice.
    void style(DrawItem& item, std::uint32_t slice) const {
        const Slice& s = in.trace->slices()[slice];
        if (withReport()) {
            const std::uint32_t a = in.overlay->anomalyOf(slice);
            if (a != kNone && a < in.report->anomalies.size()) {
                flag(item, a);
                return;
            }
            item.fill = in.index->color(s, true);
        } else {
            item.fill = in.index->color(s, false);
        }
    }
    void flag(DrawItem& item, std::uint32_t a) const {
        // Compact fields (anomaly_list.h): drawing builds no Anomaly.
        const AnomalyList& list = in.report->anomalies;
        if (!item.is(kDrawFolded)) item.flagged = 1;
        item.slice = list.slice(a);
        item.fill = scoreColor(list.score(a), in.overlay->coefficient());
        item.outline = resourceColor(list.cause(a));
        item.flags |= kDrawFlagged;
    }
};

void addLane(const DrawInput& in, const DrawOptions& o, std::uint32_t rowIndex, const LayoutRow& row, DrawList& out) {
    if (row.lane == kNone) return;
    const Trace& trace = *in.trace;
    const TimelineIndex& index = *in.index;
    const Lane& lane = index.lane(row.lane);
    const auto& slices = trace.slices();
    const TimeAxis& ax = in.axis;
    const double width = ax.width();
    const double minPx = o.minPx;
    float y = static_cast<float>(row.y - scrollOf(in, row.pinned) + 1);
    float h = static_cast<float>(row.h - 2);
    if (!clipTop(y, h, clipTopOf(in, row.pinned))) return;
    Styler styler{in};

    auto [i, e] = index.visible(trace, row.lane, ax.t0, ax.t1);
    out.stats.searches += 2;
    auto emit = [&](double x0, double x1, std::uint32_t slice, std::uint32_t count) -> DrawItem& {
        DrawItem item;
        const double cx0 = std::max(x0, -kClipPx);
        const double cx1 = std::min(x1, width + kClipPx);
        item.x = static_cast<float>(cx0);
        item.w = static_cast<float>(std::max(cx1 - cx0, 1.0));
        item.y = y;
        item.h = h;
        item.slice = slice;
        item.count = count;
        item.row = rowIndex;
        out.items.push_back(item);
        return out.items.back();
    };

    // The loop reads the lane's own start / max-end arrays; a slice itself is read only when
    // it is drawn on its own.
    const TimeNs* starts = lane.starts.data();
    const TimeNs* ends = lane.maxEnd.data();  // == the slice's end: one depth's slices are disjoint
    while (i < e) {
        const std::uint32_t si = lane.slices[i];
        ++out.stats.walked;
        const double x0 = ax.toPx(starts[i]);
        const double x1 = ax.toPx(std::max(ends[i], starts[i]));
        if (x1 - x0 >= minPx) {
            const double sx1 = ax.toPx(slices[si].end());  // its own end, for the rare overlap
            DrawItem& item = emit(x0, sx1, si, 1);
            styler.style(item, si);
            if (std::min(sx1, width) - std::max(x0, 0.0) >= o.labelMinPx) item.flags |= kDrawLabel;
            ++i;
            continue;
        }
        // Fold a run of narrow slices: everything ending within minPx of the run's reach joins,
        // found by binary search; then the next slice joins if it is narrow and close.
        TimeNs reach = lane.maxEnd[i];
        std::uint32_t j = i + 1;
        for (;;) {
            const TimeNs next = ax.toTime(ax.toPx(reach) + minPx);
            const std::uint32_t k = index.firstEndingAtOrAfter(row.lane, j, next);
            ++out.stats.searches;
            if (k > j) {
                reach = std::max(reach, lane.maxEnd[std::min(k, e) - 1]);
                j = std::min(k, e);
            }
            if (j >= e) break;
            ++out.stats.walked;
            const double nx0 = ax.toPx(starts[j]);
            const double nx1 = ax.toPx(ends[j]);
            if (nx1 - nx0 >= minPx || nx0 - ax.toPx(reach) > minPx) break;
            // Long runs are cut into marks of about maxFoldPx so a flagged operator inside
            // colours its own neighbourhood, not the whole lane.
            if (ax.toPx(reach) - x0 >= o.maxFoldPx) break;
            reach = std::max(reach, ends[j]);
            ++j;
        }
        const std::uint32_t count = j - i;
        const double rx = ax.toPx(reach);
        if (count == 1) {
            DrawItem& item = emit(x0, std::max(rx, x0 + 1.0), si, 1);
            styler.style(item, si);
        } else {
            DrawItem& item = emit(x0, std::max(rx, x0 + minPx), si, count);
            item.flags |= kDrawFolded;
            out.stats.folded += count;
            item.fill = kFoldColor;
            if (styler.withReport()) {
                const std::uint32_t a = in.overlay->maxAnomaly(row.lane, i, j);
                if (a != kNone && a < in.report->anomalies.size()) styler.flag(item, a);
                item.flagged = in.overlay->anomalyCount(row.lane, i, j);
                out.stats.searches += 2;
            }
        }
        i = j;
    }
}

// One column per colPx pixels of a step series (`times`, the values `lod` was built on): the max
// of the value in effect in the column, as a fraction of the series' max.
DrawCounter columnsOf(const DrawInput& in, const DrawOptions& o, std::uint32_t rowIndex, const LayoutRow& row,
                      const std::vector<TimeNs>& times, const CounterLod& lod, DrawList& out) {
    DrawCounter dc;
    dc.row = rowIndex;
    dc.counter = row.counter;
    dc.y = static_cast<float>(row.y - scrollOf(in, row.pinned));
    dc.h = static_cast<float>(row.h);
    dc.clipTop = clipTopOf(in, row.pinned);
    dc.colPx = std::max(o.colPx, 0.25f);
    dc.maxValue = lod.globalMax();
    const double scale = dc.maxValue > 0 ? dc.maxValue : 1.0;
    // The last value stays in effect until the trace ends (or the last sample, if later).
    TimeNs stop = in.trace->end();
    if (!times.empty()) stop = std::max(stop, times.back());
    const auto cols = static_cast<std::size_t>(std::ceil(in.axis.width() / dc.colPx));
    dc.columns.assign(cols, std::numeric_limits<float>::quiet_NaN());
    CounterLod::Cursor cursor;
    TimeNs t1 = in.axis.toTime(0);
    for (std::size_t c = 0; c < cols; ++c) {
        const TimeNs t0 = t1;
        t1 = std::max(in.axis.toTime(static_cast<double>(c + 1) * dc.colPx), t0 + 1);
        if (t0 >= stop) break;
        const double v = lod.maxOver(times, t0, t1, cursor);
        out.stats.searches += 2;
        if (std::isfinite(v)) dc.columns[c] = static_cast<float>(std::clamp(v / scale, 0.0, 1.0));
    }
    return dc;
}

void addCounter(const DrawInput& in, const DrawOptions& o, std::uint32_t rowIndex, const LayoutRow& row,
                DrawList& out) {
    if (!in.counterLods || row.counter >= in.counterLods->size()) return;
    const CounterSeries& series = in.trace->counters()[row.counter];
    out.counters.push_back(columnsOf(in, o, rowIndex, row, series.times, (*in.counterLods)[row.counter], out));
}

// A stream's queue length, drawn like a counter.
void addQueue(const DrawInput& in, const DrawOptions& o, std::uint32_t rowIndex, const LayoutRow& row, DrawList& out) {
    if (!in.queues || row.counter >= in.queues->size()) return;
    const QueueTrack& q = (*in.queues)[row.counter];
    DrawCounter dc = columnsOf(in, o, rowIndex, row, q.series->times, q.lod, out);
    dc.queue = true;
    out.counters.push_back(std::move(dc));
}

// Tracks with a lane row in view, top to bottom, with their spans in content y.
struct ShownTrack {
    std::uint32_t track;
    int y0, y1;
    bool pinned;
};

std::vector<ShownTrack> shownTracks(const DrawInput& in, const DrawList& out) {
    std::vector<ShownTrack> shown;
    const auto& rows = in.layout->rows();
    for (std::uint32_t r : out.rows) {
        const LayoutRow& row = rows[r];
        if (row.kind != RowKind::Lane) continue;
        if (!shown.empty() && shown.back().track == row.track) continue;
        auto [y0, y1] = in.layout->trackSpan(row.track);
        if (y0 >= 0) shown.push_back({row.track, y0, y1, row.pinned});
    }
    return shown;
}

// The label of a window goes on the topmost shown track it joins.
bool isLabelTrack(const DrawInput& in, const WindowSpan& w, std::uint32_t track) {
    int best = std::numeric_limits<int>::max(), bestTrack = -1;
    for (std::uint32_t t : in.overlay->tracksOf(w)) {
        const int y0 = in.layout->trackSpan(t).first;
        if (y0 >= 0 && y0 < best) best = y0, bestTrack = static_cast<int>(t);
    }
    return bestTrack == static_cast<int>(track);
}

// Folds each shown track's span layers (windows or clusters) into runs and hands each run to
// `emit(track, layer, run)`.
template <class LayersOf, class Emit>
void foldSpans(const DrawInput& in, const DrawOptions& o, const std::vector<ShownTrack>& shown, DrawList& out,
               LayersOf layersOf, Emit emit) {
    std::vector<SpanRun> runs;
    for (const ShownTrack& st : shown) {
        for (const SpanLayer& layer : layersOf(st.track).layers()) {
            runs.clear();
            out.stats.searches += 2;
            SpanLayers::fold(layer, in.axis, o.minPx, o.maxFoldPx, runs, out.stats.findingsWalked);
            for (const SpanRun& run : runs) emit(st, layer, run);
        }
    }
}

void addBands(const DrawInput& in, const DrawOptions& o, const std::vector<ShownTrack>& shown, DrawList& out) {
    const double width = in.axis.width();
    foldSpans(
        in, o, shown, out, [&](std::uint32_t t) -> const SpanLayers& { return in.overlay->windowsOn(t); },
        [&](const ShownTrack& st, const SpanLayer& layer, const SpanRun& run) {
            const double x0 = std::max(run.x0, -kClipPx);
            const double x1 = std::min(run.x1, width + kClipPx);
            DrawBand b;
            b.x = static_cast<float>(x0);
            b.w = static_cast<float>(std::max(x1 - x0, 1.0));
            b.y = static_cast<float>(st.y0 - scrollOf(in, st.pinned));
            b.h = static_cast<float>(st.y1 - st.y0);
            const float top = clipTopOf(in, st.pinned);
            // Its label goes above it: only where that is not under the pinned tracks.
            const bool roomAbove = b.y - 11 >= top;
            if (!clipTop(b.y, b.h, top)) return;
            b.track = st.track;
            b.window = layer.ids[run.begin];
            b.merged = run.count();
            b.resource = run.count() == 1 ? in.overlay->windows()[b.window].resource
                                          : SpanLayers::dominant(layer, run.begin, run.end);
            b.label = roomAbove && b.w >= 60 && isLabelTrack(in, in.overlay->windows()[b.window], st.track);
            out.bands.push_back(b);
        });
}

void addBrackets(const DrawInput& in, const DrawOptions& o, const std::vector<ShownTrack>& shown, DrawList& out) {
    const double width = in.axis.width();
    foldSpans(
        in, o, shown, out, [&](std::uint32_t t) -> const SpanLayers& { return in.overlay->clustersOn(t); },
        [&](const ShownTrack& st, const SpanLayer& layer, const SpanRun& run) {
            double x0 = std::max(run.x0, -kClipPx);
            double x1 = std::min(run.x1, width + kClipPx);
            if (x1 - x0 < kMinBracketPx) {  // still a mark you can see and hover
                const double mid = (x0 + x1) / 2;
                x0 = mid - kMinBracketPx / 2;
                x1 = mid + kMinBracketPx / 2;
            }
            DrawBracket b;
            b.x = static_cast<float>(x0);
            b.w = static_cast<float>(x1 - x0);
            b.y = static_cast<float>(st.y0 - scrollOf(in, st.pinned));
            if (b.y < clipTopOf(in, st.pinned)) return;
            b.track = st.track;
            b.cluster = layer.ids[run.begin];
            b.clusters = run.count();
            b.ops = static_cast<std::uint32_t>(SpanLayers::weight(layer, run.begin, run.end));
            b.label = b.w >= 50;
            out.brackets.push_back(b);
        });
}

void addCritical(const DrawInput& in, const DrawOptions& o, const std::vector<ShownTrack>& shown, DrawList& out) {
    const double width = in.axis.width();
    foldSpans(
        in, o, shown, out, [&](std::uint32_t t) -> const SpanLayers& { return in.overlay->criticalOn(t); },
        [&](const ShownTrack& st, const SpanLayer& layer, const SpanRun& run) {
            double x0 = std::max(run.x0, -kClipPx);
            double x1 = std::min(run.x1, width + kClipPx);
            if (x1 - x0 < kMinPathPx) {
                const double mid = (x0 + x1) / 2;
                x0 = mid - kMinPathPx / 2;
                x1 = mid + kMinPathPx / 2;
            }
            DrawPath d;
            d.x = static_cast<float>(x0);
            d.w = static_cast<float>(x1 - x0);
            d.h = kPathHeightPx;
            d.y = static_cast<float>(st.y1 - scrollOf(in, st.pinned)) - d.h;
            if (d.y < clipTopOf(in, st.pinned)) return;
            d.track = st.track;
            d.slice = layer.ids[run.begin];
            d.stretches = run.count();
            d.slices = static_cast<std::uint32_t>(SpanLayers::weight(layer, run.begin, run.end));
            out.critical.push_back(d);
        });
}

// The marked slices of the visible lanes: found and folded by binary search per lane
// (span_layers.h), so thousands of marks cost what the lanes' width in pixels does.
void addMarks(const DrawInput& in, const DrawOptions& o, DrawList& out) {
    std::vector<SpanRun> runs;
    const double right = in.axis.width() + kClipPx;
    for (const std::uint32_t r : out.rows) {
        const LayoutRow& row = in.layout->rows()[r];
        if (row.kind != RowKind::Lane || row.lane == kNone) continue;
        const SpanLayers* spans = in.marks->inLane(row.lane);
        if (!spans) continue;
        float y = static_cast<float>(row.y - scrollOf(in, row.pinned));
        float h = static_cast<float>(row.h);
        if (y >= in.viewHeight || !clipTop(y, h, clipTopOf(in, row.pinned))) continue;
        for (const SpanLayer& layer : spans->layers()) {
            runs.clear();
            SpanLayers::fold(layer, in.axis, o.minPx, kMarkFoldPx, runs, out.stats.findingsWalked);
            for (const SpanRun& run : runs) {
                double x0 = run.x0, x1 = run.x1;
                DrawMark m;
                m.outline = run.count() == 1 && x1 - x0 >= kMarkOutlinePx;
                if (x1 - x0 < kMinMarkPx) {
                    const double mid = (x0 + x1) / 2;
                    x0 = mid - kMinMarkPx / 2;
                    x1 = mid + kMinMarkPx / 2;
                }
                x0 = std::max(x0, -kClipPx);
                x1 = std::min(x1, right);
                if (x1 <= x0) continue;
                m.x = static_cast<float>(x0);
                m.w = static_cast<float>(x1 - x0);
                m.y = y;
                m.h = m.outline ? h : std::min(h, kMarkTickPx);
                m.row = r;
                m.slice = layer.ids[run.begin];
                m.count = run.count();
                out.marks.push_back(m);
            }
        }
    }
}

void addSelection(const DrawInput& in, DrawList& out) {
    if (in.selected >= in.trace->slices().size()) return;
    const Slice& s = in.trace->slices()[in.selected];
    const int row = in.layout->rowOf(s.track, s.depth);
    if (row < 0) return;
    const LayoutRow& r = in.layout->rows()[static_cast<std::size_t>(row)];
    float y = static_cast<float>(r.y - scrollOf(in, r.pinned));
    float h = static_cast<float>(r.h);
    if (y >= in.viewHeight || !clipTop(y, h, clipTopOf(in, r.pinned))) return;
    if (s.end() < in.axis.t0 || s.start > in.axis.t1) return;
    double x0 = in.axis.toPx(s.start), x1 = in.axis.toPx(s.end());
    if (x1 - x0 < 3) {
        const double mid = (x0 + x1) / 2;
        x0 = mid - 1.5;
        x1 = mid + 1.5;
    }
    x0 = std::max(x0, -kClipPx);
    x1 = std::min(x1, in.axis.width() + kClipPx);
    DrawItem item;
    item.x = static_cast<float>(x0);
    item.w = static_cast<float>(x1 - x0);
    item.y = y;
    item.h = h;
    item.slice = in.selected;
    item.row = static_cast<std::uint32_t>(row);
    item.outline = kSelectionColor;
    out.selection = item;
}

}  // namespace

DrawList buildDrawList(const DrawInput& in, const DrawOptions& o) {
    DrawList out;
    if (!in.trace || !in.index || !in.layout) return out;
    const TrackLayout& layout = *in.layout;
    // The pinned rows (content y below pinnedHeight) in view without scrolling, then the rows the
    // scroll brings under them.
    const int pinned = layout.pinnedHeight();
    auto [pinnedFirst, pinnedLast] = layout.rowsIn(0, std::min(pinned, static_cast<int>(std::ceil(in.viewHeight))));
    auto [first, last] = layout.rowsIn(static_cast<int>(std::floor(in.scrollY)) + pinned,
                                       static_cast<int>(std::ceil(in.scrollY + in.viewHeight)));
    std::vector<std::size_t> visible;
    for (std::size_t r = pinnedFirst; r < pinnedLast; ++r) visible.push_back(r);
    for (std::size_t r = std::max(first, pinnedLast); r < last; ++r) visible.push_back(r);
    for (std::size_t r : visible) {
        out.rows.push_back(static_cast<std::uint32_t>(r));
        const LayoutRow& row = layout.rows()[r];
        if (row.kind == RowKind::Lane)
            addLane(in, o, static_cast<std::uint32_t>(r), row, out);
        else if (row.kind == RowKind::Counter)
            addCounter(in, o, static_cast<std::uint32_t>(r), row, out);
        else if (row.kind == RowKind::Queue)
            addQueue(in, o, static_cast<std::uint32_t>(r), row, out);
    }
    if (in.report && in.overlay) {
        const std::vector<ShownTrack> shown = shownTracks(in, out);
        addBands(in, o, shown, out);
        addBrackets(in, o, shown, out);
        if (in.criticalPath) addCritical(in, o, shown, out);
    }
    if (in.marks && !in.marks->empty()) addMarks(in, o, out);
    addSelection(in, out);
    return out;
}

int hitTest(const DrawList& list, float x, float y, float slack) {
    int best = -1;
    float bestDist = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < list.items.size(); ++i) {
        const DrawItem& it = list.items[i];
        if (y < it.y - 1 || y >= it.y + it.h + 1) continue;
        float d = 0;
        if (x < it.x)
            d = it.x - x;
        else if (x > it.x + it.w)
            d = x - (it.x + it.w);
        if (d <= slack && d < bestDist) {
            best = static_cast<int>(i);
            bestDist = d;
            if (d == 0) break;
        }
    }
    return best;
}

}  // namespace contend::widgets
