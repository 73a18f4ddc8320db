// contend-cli info: what a trace holds, as text or JSON.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli/commands.h"
#include "core/io/load.h"
#include "core/io/reader_table.h"
#include "core/report/single/report_json.h"
#include "core/trace/conventions.h"
#include "core/trace/time_format.h"

namespace contend::cli {

namespace {

// The formats come from the format table (core/io/reader_table.h), one line each.
std::string infoHelp() {
    std::string h =
        "usage: contend-cli info TRACE [--json]\n"
        "\n"
        "TRACE is a trace file or folder in one of these formats (an Ascend profiler folder with\n"
        "both exports is read from its database, and `read:` says so):\n" +
        formatLines();
    h += "Prints the format with what the file says about the capture (GPUs or NPUs, exporter,\n"
         "schema version), events per phase as written in the file (rows per table for a\n"
         "database), operators (slices), tracks with their names, counter series with units,\n"
         "flows, the time span and import warnings.\n"
         "  --json   print the same as one JSON object\n";
    return h;
}

}  // namespace

nlohmann::json infoJson(const Trace& t) {
    using nlohmann::json;
    json j;
    j["path"] = t.source().path;
    j["format"] = std::string(formatName(t.traceFormat()));
    j["gzip"] = t.source().gzip;
    if (!t.source().sideFiles.empty()) j["side_files"] = t.source().sideFiles;
    if (!t.source().details.empty()) {
        json details = json::object();
        for (const auto& [what, value] : t.source().details) details[what] = value;
        j["details"] = details;
    }
    j["events"] = t.stats().events;
    j["phases"] = t.stats().phases;
    j["operators"] = t.slices().size();
    j["device_operators"] = t.deviceSliceCount();
    json tracks = json::array();
    for (std::uint32_t idx : t.trackOrder()) {
        const Track& tr = t.tracks()[idx];
        tracks.push_back({{"pid", tr.pid},
                          {"tid", tr.tid},
                          {"name", tr.label()},
                          {"kind", trackKindName(tr.kind)},
                          {"operators", tr.size()}});
    }
    j["tracks"] = tracks;
    json counters = json::array();
    std::uint64_t samples = 0;
    for (const auto& c : t.counters()) {
        counters.push_back({{"name", c.name},
                            {"key", c.key},
                            {"id", c.id},
                            {"unit", c.unit},
                            {"process", c.processName},
                            {"samples", c.times.size()}});
        samples += c.times.size();
    }
    j["counters"] = counters;
    j["counter_samples"] = samples;
    j["flows"] = t.flows().size();
    j["begin_ns"] = t.begin();
    j["end_ns"] = t.end();
    j["span_ns"] = t.span();
    json warnings = json::array();
    for (const auto& w : t.stats().warnings)
        warnings.push_back(
            {{"kind", w.kind}, {"count", w.count}, {"unit", std::string(w.unitName())}, {"first", w.example}});
    j["warnings"] = warnings;
    j["truncated"] = t.stats().truncated;
    j["load_seconds"] = t.stats().seconds;
    return j;
}

int runInfo(int argc, char** argv) {
    std::string path;
    bool asJson = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(infoHelp().c_str(), stdout);
            return kExitOk;
        }
        if (a == "--json")
            asJson = true;
        else if (!a.empty() && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "contend-cli info: unknown option '%s'\n%s", a.c_str(), infoHelp().c_str());
            return kExitUsage;
        } else if (path.empty())
            path = a;
        else {
            std::fprintf(stderr, "contend-cli info: more than one TRACE given\n%s", infoHelp().c_str());
            return kExitUsage;
        }
    }
    if (path.empty()) {
        std::fputs(infoHelp().c_str(), stderr);
        return kExitUsage;
    }
    LoadResult r = loadTrace(path, cliLoadOptions());
    if (!r) {
        std::fprintf(stderr, "contend-cli: %s\n", r.failure().message().c_str());
        return kExitBadInput;
    }
    const Trace& t = *r.value();
    if (asJson) {
        std::cout << jsonText(infoJson(t));
        return kExitOk;
    }
    std::printf("trace:     %s%s\n", t.source().path.c_str(), t.source().gzip ? " (gzip)" : "");
    if (!t.source().folder.empty()) std::printf("folder:    %s\n", t.source().folder.c_str());
    for (const auto& f : t.source().sideFiles) std::printf("joined:    %s\n", f.c_str());
    std::printf("format:    %s\n", std::string(formatName(t.traceFormat())).c_str());
    for (const auto& [what, value] : t.source().details)
        std::printf("  %-14s %s\n", (what + ":").c_str(), value.c_str());
    std::printf("events:    %llu (", static_cast<unsigned long long>(t.stats().events));
    bool first = true;
    for (const auto& [ph, n] : t.stats().phases) {
        std::printf("%s%s:%llu", first ? "" : " ", ph.c_str(), static_cast<unsigned long long>(n));
        first = false;
    }
    std::printf(")\n");
    std::printf("operators: %zu (%zu on device streams)\n", t.slices().size(), t.deviceSliceCount());
    std::printf("span:      %s (%lld .. %lld ns)\n", formatDuration(t.span()).c_str(),
                static_cast<long long>(t.begin()), static_cast<long long>(t.end()));
    std::printf("flows:     %zu\n", t.flows().size());
    std::printf("tracks:    %zu\n", t.tracks().size());
    for (std::uint32_t idx : t.trackOrder()) {
        const Track& tr = t.tracks()[idx];
        std::printf("  %-7s %-48s pid=%s tid=%s  %u operators\n", trackKindName(tr.kind), tr.label().c_str(),
                    tr.pid.c_str(), tr.tid.c_str(), tr.size());
    }
    std::printf("counters:  %zu series\n", t.counters().size());
    for (const auto& c : t.counters()) {
        std::printf("  %-48s unit=%-6s %zu samples%s%s\n", c.label().c_str(), c.unit.empty() ? "-" : c.unit.c_str(),
                    c.times.size(), c.processName.empty() ? "" : "  in ", c.processName.c_str());
    }
    if (t.stats().truncated) std::printf("TRUNCATED: the file ends early; every complete event was loaded\n");
    std::printf("warnings:  %zu kinds\n", t.stats().warnings.size());
    for (const auto& w : t.stats().warnings)
        std::printf("  %-40s %llu %s%s (first at %s)\n", w.kind.c_str(), static_cast<unsigned long long>(w.count),
                    std::string(w.unitName()).c_str(), w.count == 1 ? "" : "s", w.example.c_str());
    return kExitOk;
}

}  // namespace contend::cli
