#pragma once
// A timeline frame for the draw-list tests: a trace's timeline data, its layout, an optional
// report with its overlay, and buildDrawList over a time range.
#include <memory>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/report_overlay.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/track_layout.h"

namespace contend::test {

using namespace contend::widgets;

struct DrawFrame {
    TimelineDataPtr data;
    TrackLayout layout;
    std::shared_ptr<Report> report;
    SliceView slices;  // the per-slice view beside the report (the critical path's slack)
    ReportOverlay overlay;
    bool criticalPath = false;  // DrawInput::criticalPath

    explicit DrawFrame(TracePtr t, LayoutOptions o = {}) : data(makeTimelineData(std::move(t))) {
        layout = TrackLayout(*data->trace, data->index, o);
    }
    void setReport(Report r, SliceView view = {}) {
        report = std::make_shared<Report>(std::move(r));
        slices = std::move(view);
        overlay = ReportOverlay(*data->trace, data->index, *report, slices);
    }
    DrawList draw(TimeNs t0, TimeNs t1, double width = 1000, double height = 2000, std::uint32_t selected = kNone,
                  DrawOptions options = {}) const {
        DrawInput in;
        in.trace = data->trace.get();
        in.index = &data->index;
        in.layout = &layout;
        in.counterLods = &data->counters;
        in.report = report.get();
        in.overlay = report ? &overlay : nullptr;
        in.axis = TimeAxis{t0, t1, width};
        in.viewHeight = height;
        in.selected = selected;
        in.criticalPath = criticalPath;
        return buildDrawList(in, options);
    }
    // Folds not cut into 8 px marks: one mark per run.
    DrawList drawUncut(TimeNs t0, TimeNs t1, double width) const {
        DrawOptions o;
        o.maxFoldPx = 1e9f;
        return draw(t0, t1, width, 2000, kNone, o);
    }
};

}  // namespace contend::test
