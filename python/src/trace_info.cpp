#include "python/src/trace_info.h"

#include <pybind11/stl.h>
#include <string>

#include "core/trace/trace_format.h"

namespace contend::py {

namespace pyb = pybind11;

pyb::dict traceInfo(const Trace& t) {
    pyb::dict d;
    d["path"] = t.source().path;
    d["format"] = std::string(formatName(t.traceFormat()));
    d["gzip"] = t.source().gzip;
    d["folder"] = t.source().folder;
    d["side_files"] = t.source().sideFiles;
    pyb::dict details;
    for (const auto& [what, value] : t.source().details) details[pyb::str(what)] = value;
    d["details"] = details;
    d["events"] = t.stats().events;
    d["phases"] = t.stats().phases;
    d["operators"] = t.slices().size();
    d["device_operators"] = t.deviceSliceCount();
    pyb::list tracks;
    for (std::uint32_t idx : t.trackOrder()) {
        const Track& tr = t.tracks()[idx];
        pyb::dict row;
        row["pid"] = tr.pid;
        row["tid"] = tr.tid;
        row["name"] = tr.label();
        row["kind"] = trackKindName(tr.kind);
        row["operators"] = tr.size();
        tracks.append(row);
    }
    d["tracks"] = tracks;
    pyb::list counters;
    for (const auto& c : t.counters()) {
        pyb::dict row;
        row["name"] = c.name;
        row["key"] = c.key;
        row["unit"] = c.unit;
        row["process"] = c.processName;
        row["samples"] = c.times.size();
        counters.append(row);
    }
    d["counters"] = counters;
    d["flows"] = t.flows().size();
    d["begin_ns"] = t.begin();
    d["end_ns"] = t.end();
    d["span_ns"] = t.span();
    pyb::list warnings;
    for (const auto& w : t.stats().warnings) {
        pyb::dict row;
        row["kind"] = w.kind;
        row["count"] = w.count;
        row["unit"] = std::string(w.unitName());
        row["first"] = w.example;
        warnings.append(row);
    }
    d["warnings"] = warnings;
    d["truncated"] = t.stats().truncated;
    d["load_seconds"] = t.stats().seconds;
    d["rank"] = t.rank();
    return d;
}

}  // namespace contend::py
