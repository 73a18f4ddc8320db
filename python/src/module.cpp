// contend._core: the Python module over core (python/README.md). Every number comes from core;
// this file only calls core's pipeline and hands its values to Python. The Python package
// (python/contend) turns them into DataFrames.
#include <memory>
#include <mutex>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/compare/compare.h"
#include "core/analysis/whatif/whatif.h"
#include "core/common/version.h"
#include "core/io/load.h"
#include "core/io/reader_table.h"
#include "core/pipeline/analyze_trace.h"
#include "core/pipeline/cluster_run.h"
#include "core/report/compare/compare_report.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"
#include "python/src/report_tables.h"
#include "python/src/run_control.h"
#include "python/src/trace_info.h"

namespace contend::py {

namespace pyb = pybind11;

namespace {

// A core Failure on its way to Python, where it becomes a contend.Error of its kind
// (python/contend/_errors.py) carrying the kind, the file and the place.
struct CoreError : std::runtime_error {
    explicit CoreError(Failure f) : std::runtime_error(f.message()), failure(std::move(f)) {}
    Failure failure;
};

const char* kindName(Failure::Kind k) {
    switch (k) {
    case Failure::Kind::Unreadable: return "unreadable";
    case Failure::Kind::Malformed: return "malformed";
    case Failure::Kind::NotATrace: return "not_a_trace";
    case Failure::Kind::OutOfMemory: return "out_of_memory";
    case Failure::Kind::Cancelled: return "cancelled";
    case Failure::Kind::Unsupported: return "unsupported";
    case Failure::Kind::Internal: return "internal";
    case Failure::Kind::Invalid: return "invalid";
    case Failure::Kind::Other: break;
    }
    return "other";
}

void raiseFailure(const Failure& f) { throw CoreError(f); }

// A result's value, or its failure raised: a KeyboardInterrupt or a progress callback's error
// that stopped the run first.
template <class T>
T valueOf(Result<T>&& r, RunControl* control) {
    if (control) {
        control->raiseIfStopped();
        if (control->stopped()) raiseFailure(Failure::cancelled(r ? std::string() : r.failure().file));
    }
    if (!r) raiseFailure(r.failure());
    return std::move(r).value();
}

LoadOptions loadOptions(std::uint64_t memoryLimit) {
    LoadOptions o;
    o.memoryLimitBytes = memoryLimit;
    return o;
}

void checkThresholds(double coefficient, double overlap) {
    if (!Thresholds::coefficientInRange(coefficient))
        raiseFailure(Failure::of(Failure::Kind::Invalid, coefficientRangeText("coefficient")));
    if (!Thresholds::overlapRatioInRange(overlap))
        raiseFailure(Failure::of(Failure::Kind::Invalid, overlapRatioRangeText("overlap")));
}

// A loaded trace.
struct PyTrace {
    TracePtr trace;
};

// An analysis: the report at its thresholds, and what re-thresholds it cheaply (the prepared
// analysis and the what-if's replays, as the app's slider keeps them).
struct PyAnalysis {
    TracePtr trace;
    PreparedAnalysisPtr prepared;
    std::shared_ptr<WhatIfCache> cache;
    // The cache serves one predictGains at a time (whatif.h): re-thresholds of the same analysis
    // from several Python threads take turns on it.
    std::shared_ptr<std::mutex> cacheLock = std::make_shared<std::mutex>();
    std::shared_ptr<const Report> report;
    PipelineTimes times;
    bool whatIf = true;  // analysed with the what-if: its re-thresholds run it too
};

PyTrace load(const std::string& path, std::uint64_t memoryLimit, const pyb::object& progress) {
    RunControl control(progress);
    LoadOptions options = loadOptions(memoryLimit);
    options.progress = control.loadHook();
    LoadResult loaded = Failure::cancelled(path);
    control.run([&] { loaded = loadTrace(path, options); });
    return PyTrace{valueOf(std::move(loaded), &control)};
}

PyAnalysis analyze(const pyb::object& source, double coefficient, double overlap, const std::string& config,
                   bool whatIf, std::uint64_t memoryLimit, const pyb::object& progress) {
    checkThresholds(coefficient, overlap);
    RunControl control(progress);
    PipelineOptions options;
    options.load = loadOptions(memoryLimit);
    options.load.progress = control.loadHook();
    options.analysis.coefficient = coefficient;
    options.analysis.overlapRatio = overlap;
    options.analysis.configPath = config;
    options.whatIf = whatIf;
    options.keepGoing = control.keepGoingHook();
    options.prepareProgress = control.prepareHook();
    options.keepWhatIfCache = whatIf;
    PipelineOutputs made;
    Result<Report> report = Failure::cancelled();
    if (pyb::isinstance<PyTrace>(source)) {
        TracePtr trace = source.cast<PyTrace&>().trace;
        control.run([&] { report = analyzeTrace(trace, options, &made); });
    } else {
        const std::string path = source.cast<std::string>();
        control.run([&] { report = analyzeTrace(path, options, &made); });
    }
    Report value = valueOf(std::move(report), &control);
    PyAnalysis out;
    out.trace = made.trace;
    out.prepared = made.prepared;
    out.cache = made.whatIfCache;
    out.report = std::make_shared<const Report>(std::move(value));
    out.times = made.times;
    out.whatIf = whatIf;
    return out;
}

PyAnalysis rethreshold(const PyAnalysis& a, double coefficient, double overlap) {
    checkThresholds(coefficient, overlap);
    if (!a.prepared)
        throw std::invalid_argument("a report read from a file cannot be re-thresholded: analyse its trace instead");
    PyAnalysis out = a;
    out.times = {};
    ReportStageOptions stage;
    stage.whatIf = a.whatIf;
    stage.cache = a.cache.get();
    stage.times = &out.times;
    Result<Report> r = Failure::cancelled();
    {
        pyb::gil_scoped_release nogil;
        std::lock_guard<std::mutex> lock(*a.cacheLock);
        r = reportOf(*a.prepared, Thresholds{coefficient, overlap}, stage);
    }
    out.report = std::make_shared<const Report>(valueOf(std::move(r), nullptr));
    return out;
}

std::string toJson(const PyAnalysis& a, int schema) {
    if (schema < 2 || schema > 4) throw std::invalid_argument("schema is 2, 3 or 4 (contend.report/2, /3 or /4)");
    pyb::gil_scoped_release nogil;
    std::ostringstream out;
    writeReportJson(out, *a.report, a.trace.get(), static_cast<ReportSchemaVersion>(schema));
    return std::move(out).str();
}

std::string toMarkdown(const PyAnalysis& a) {
    if (!a.trace) throw std::invalid_argument("a report read from a file has no trace to write the Markdown with");
    pyb::gil_scoped_release nogil;
    return reportToMarkdown(*a.report, *a.trace);
}

// A saved report (contend.report/4, /3, /2 or /1) read as core reads it (compare, merge): its tables
// and header, no trace and nothing to re-threshold.
PyAnalysis readReport(const std::string& text, const std::string& path) {
    Result<Report> r = Failure::cancelled(path);
    {
        pyb::gil_scoped_release nogil;
        nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded())
            r = Failure::of(Failure::Kind::Malformed, "not JSON", path);
        else if (Result<Report> read = reportFromJson(j); !read)
            r = Failure::of(Failure::Kind::Malformed, "not a usable report: " + read.failure().reason, path);
        else
            r = std::move(read);
    }
    PyAnalysis out;
    out.report = std::make_shared<const Report>(valueOf(std::move(r), nullptr));
    out.whatIf = out.report->whatIf.computed;
    return out;
}

pyb::dict timesOf(const PipelineTimes& t) {
    pyb::dict d;
    d["load_ms"] = t.loadMs;
    d["prepare_ms"] = t.prepareMs;
    d["report_ms"] = t.reportMs;
    d["what_if_ms"] = t.whatIfMs;
    return d;
}

// compareReports on two analyses: the contend.compare/1 JSON (the CLI's compare --json) and
// its Markdown.
pyb::tuple compare(const PyAnalysis& base, const PyAnalysis& now, double tolerance, std::size_t maxNewAnomalies,
                   std::size_t maxNewWindows) {
    CompareSettings settings;
    settings.endToEndTolerance = tolerance;
    settings.maxNewAnomalies = maxNewAnomalies;
    settings.maxNewWindows = maxNewWindows;
    std::string json, markdown;
    {
        pyb::gil_scoped_release nogil;
        const CompareResult r = compareReports(*base.report, *now.report, settings);
        json = jsonText(compareToJson(r));
        markdown = compareToMarkdown(r);
    }
    return pyb::make_tuple(json, markdown);
}

// A folder of ranks analysed and merged as `contend-cli cluster` does: the cluster JSON and
// its Markdown.
pyb::tuple cluster(const std::string& dir, int jobs, double k, double minExcess, std::uint64_t memoryLimit,
                   const pyb::object& progress) {
    if (jobs < 1 || jobs > 256)
        raiseFailure(Failure::of(Failure::Kind::Invalid, "jobs needs an integer from 1 to 256"));
    const std::vector<std::string> traces = findRankTraces(dir);
    if (traces.empty())
        raiseFailure(
            Failure::of(Failure::Kind::NotATrace, "no rank traces (*.json, *.json.gz, *_ascend_pt folders)", dir));
    RunControl control(progress);
    ClusterRunOptions run;
    run.jobs = jobs;
    run.load = loadOptions(memoryLimit);
    run.keepGoing = control.keepGoingHook();
    run.rankDone = [&control](std::size_t done, std::size_t total, const std::string&) {
        control.stage("ranks analysed: " + std::to_string(done) + " of " + std::to_string(total),
                      static_cast<double>(done) / static_cast<double>(total));
    };
    ClusterRunResult result = Failure::cancelled(dir);
    control.run([&] { result = analyseRanks(traces, run); });
    std::vector<RankInput> inputs = valueOf(std::move(result), &control);
    if (const std::string bad = checkRanks(inputs); !bad.empty())
        raiseFailure(Failure::of(Failure::Kind::Invalid, bad, dir));
    RankMergeSettings settings;
    settings.k = k;
    settings.minExcess = minExcess;
    std::string json, markdown;
    {
        pyb::gil_scoped_release nogil;
        const ClusterReport c = mergeRanks(std::move(inputs), settings);
        json = jsonText(clusterToJson(c));
        markdown = clusterToMarkdown(c);
    }
    return pyb::make_tuple(json, markdown);
}

}  // namespace

}  // namespace contend::py

PYBIND11_MODULE(_core, m) {
    using namespace contend;
    using namespace contend::py;
    namespace pyb = pybind11;
    m.doc() = "Contend's core (C++), for the contend package: load, analyse, compare, cluster.";

    pyb::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const CoreError& e) {
            const Failure& f = e.failure;
            pyb::object error =
                pyb::module_::import("contend._errors")
                    .attr("from_failure")(kindName(f.kind), f.file, f.offset, f.line, f.column, f.reason, f.message());
            PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
        }
    });

    pyb::class_<PyTrace>(m, "Trace")
        .def("info", [](const PyTrace& t) { return traceInfo(*t.trace); })
        .def_property_readonly("path", [](const PyTrace& t) { return t.trace->source().path; });

    pyb::class_<PyAnalysis>(m, "Analysis")
        .def("table", [](const PyAnalysis& a, const std::string& name) { return reportTable(*a.report, name); })
        .def("header", [](const PyAnalysis& a) { return reportHeader(*a.report); })
        .def("to_json", &toJson, pyb::arg("schema") = 4)
        .def("to_markdown", &toMarkdown)
        .def("rethreshold", &rethreshold, pyb::arg("coefficient"), pyb::arg("overlap"))
        .def("times", [](const PyAnalysis& a) { return timesOf(a.times); })
        .def("trace", [](const PyAnalysis& a) {
            if (!a.trace) throw std::invalid_argument("a report read from a file has no trace: load its trace");
            return PyTrace{a.trace};
        });

    m.def("table_names", &reportTableNames);
    m.def("read_report", &readReport, pyb::arg("text"), pyb::arg("path"));
    m.def("load", &load, pyb::arg("path"), pyb::arg("memory_limit"), pyb::arg("progress"));
    m.def("analyze", &analyze, pyb::arg("source"), pyb::arg("coefficient"), pyb::arg("overlap"), pyb::arg("config"),
          pyb::arg("what_if"), pyb::arg("memory_limit"), pyb::arg("progress"));
    m.def("compare", &compare, pyb::arg("base"), pyb::arg("new"), pyb::arg("tolerance"), pyb::arg("max_new_anomalies"),
          pyb::arg("max_new_windows"));
    m.def("cluster", &cluster, pyb::arg("folder"), pyb::arg("jobs"), pyb::arg("k"), pyb::arg("min_excess"),
          pyb::arg("memory_limit"), pyb::arg("progress"));
    m.def("formats", [] {
        pyb::list out;
        for (const FormatInfo* f : traceFormats())
            out.append(pyb::make_tuple(std::string(f->name), std::string(f->description)));
        return out;
    });
    m.def("version", [] { return std::string(version()) + " (" + std::string(commit()) + ")"; });
}
