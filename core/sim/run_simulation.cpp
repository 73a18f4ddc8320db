#include "core/sim/run_simulation.h"

#include <chrono>
#include <cmath>

#include "core/common/output_sink.h"
#include "core/sim/model/null_workload.h"
#include "core/sim/model/project_x.h"
#include "core/sim/model/rng.h"
#include "core/sim/write/nsys_writer.h"
#include "core/sim/write/truth_writer.h"

namespace contend::sim {

namespace {

// Benchmark traces (--events) re-sample unchanged counters every 100 us rather than 10 us: the
// counters still step at every operator boundary, and kernels, not heartbeats, fill the file.
constexpr TimeNs kEventsCounterPeriodNs = 100000;

// Salt of the period mode's counter noise stream (one stream for the whole trace).
constexpr std::uint64_t kResampleNoiseSalt = 0x4e5a3;

// A probability as its shortest decimal to 3 places, integer math only: 0.5 -> "0.5".
std::string rateText(double rate) {
    const long long permille = std::llround(rate * 1000.0);
    std::string text = std::to_string(permille / 1000);
    std::string frac = std::to_string(1000 + permille % 1000).substr(1);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    return frac.empty() ? text : text + "." + frac;
}

// Why the request cannot run, or "" when it can.
std::string requestProblem(const SimulationRequest& request) {
    if (request.counters == CounterMode::Period && request.counterIntervalNs <= 0)
        return "period counters need a positive period";
    if (request.format == OutputFormat::NsysSqlite && request.tracePath == "-")
        return "an nsys-sqlite trace needs a file (--out FILE.sqlite), not stdout";
    if (request.format == OutputFormat::NsysSqlite && OutputSink::wantsGzip(request.tracePath, {request.gzip, 6}))
        return "an nsys-sqlite trace is a database: it cannot be gzipped";
    if (!(request.badRate >= 0.0 && request.badRate <= 1.0)) return "the bad-step rate must lie in [0, 1]";
    if (request.badRate != 1.0 && !isSingleCause(request.scenario))
        return "a bad-step rate applies to bandwidth, sync-cluster, cache and lock only, not " +
               std::string(scenarioName(request.scenario));
    if (!devicePreset(request.device)) return "unknown device '" + request.device + "' (" + devicePresetNames() + ")";
    return {};
}

}  // namespace

const char* outputFormatName(OutputFormat f) { return f == OutputFormat::NsysSqlite ? "nsys-sqlite" : "json"; }

std::optional<OutputFormat> parseOutputFormat(std::string_view text) {
    if (text == "json") return OutputFormat::KinetoJson;
    if (text == "nsys-sqlite") return OutputFormat::NsysSqlite;
    return std::nullopt;
}

CounterSetting defaultCounters(OutputFormat f) {
    // Nsight Systems samples GPU metrics at 10 kHz unless told otherwise.
    constexpr TimeNs kNsysDefaultPeriodNs = 100000;
    return f == OutputFormat::NsysSqlite ? CounterSetting{CounterMode::Period, kNsysDefaultPeriodNs}
                                         : CounterSetting{CounterMode::Full, 0};
}

std::string traceNameFor(const SimulationRequest& request) {
    std::string name = "contend-sim/" + std::string(scenarioName(request.scenario)) + (request.fixed ? "-fixed" : "") +
                       "/seed-" + std::to_string(request.seed);
    if (request.badRate != 1.0) name += "/bad-" + rateText(request.badRate);
    if (request.counters != CounterMode::Full)
        name += "/counters-" + counterSettingName({request.counters, request.counterIntervalNs});
    if (request.device != "simdevice") name += "/device-" + request.device;
    return name;
}

Result<SimulationSummary> runSimulation(const SimulationRequest& request) {
    SimulationSummary summary;
    const auto t0 = std::chrono::steady_clock::now();
    if (std::string problem = requestProblem(request); !problem.empty())
        return Failure::of(Failure::Kind::Invalid, std::move(problem));

    SimConfig config;
    config.device = *devicePreset(request.device);
    if (request.counterPeriodNs > 0)
        config.counterPeriodNs = request.counterPeriodNs;
    else if (request.events > 0)
        config.counterPeriodNs = kEventsCounterPeriodNs;
    if (request.counterNoise >= 0) config.counterNoise = request.counterNoise;
    // The null scenario runs its own workload; every other scenario is project X.
    const bool null = request.scenario == Scenario::Null;
    const ProjectX net(request.scenario, request.fixed, request.seed, request.badRate);
    const NullWorkload nullWork;
    Simulator sim(config, null ? NullWorkload::streams() : ProjectX::streams(), request.seed);

    const bool sqlite = request.format == OutputFormat::NsysSqlite;
    OutputSink::Options traceOptions;
    traceOptions.gzip = request.gzip;
    // Large benchmark traces: favour speed over size when compressing.
    if (request.events > 200000) traceOptions.gzipLevel = 1;
    std::unique_ptr<OutputSink> traceSink;
    if (!sqlite) {
        auto opened = OutputSink::open(request.tracePath, traceOptions);
        if (!opened) return opened.failure();
        traceSink = std::move(opened).value();
    }
    std::unique_ptr<OutputSink> truthSink;
    if (!request.truthPath.empty()) {
        auto opened = OutputSink::open(request.truthPath, {});
        if (!opened) return opened.failure();
        truthSink = std::move(opened).value();
    }

    const CounterSetting counters{request.counters, request.counterIntervalNs};
    const std::uint64_t noiseSeed = mixSeed(request.seed, 0, kResampleNoiseSalt);
    std::unique_ptr<TraceOutput> traceOut;
    NsysWriter* nsys = nullptr;
    if (sqlite) {
        NsysWriter::Options o;
        o.hostEvents = request.hostEvents;
        o.counters = counters;
        o.counterNoiseSeed = noiseSeed;
        auto w = std::make_unique<NsysWriter>(request.tracePath, config, sim.streams(), o);
        nsys = w.get();
        traceOut = std::move(w);
    } else {
        TraceWriter::Options writerOptions;
        writerOptions.traceName = traceNameFor(request);
        writerOptions.hostEvents = request.hostEvents;
        writerOptions.counters = counters;
        writerOptions.counterNoiseSeed = noiseSeed;
        traceOut = std::make_unique<TraceWriter>(*traceSink, config, sim.streams(), writerOptions);
    }
    TraceOutput& trace = *traceOut;
    std::unique_ptr<TruthWriter> truth;
    if (truthSink)
        truth = std::make_unique<TruthWriter>(
            *truthSink, config, sim.streams(),
            TruthHeader{std::string(scenarioName(request.scenario)), request.fixed, request.seed, request.badRate});

    // The first of the writers' failures (each names its file).
    auto ioFailed = [&]() -> Failure {
        if (nsys && !nsys->error().empty()) return Failure::of(Failure::Kind::Unreadable, nsys->error());
        if (traceSink && traceSink->failure()) return *traceSink->failure();
        if (truthSink && truthSink->failure()) return *truthSink->failure();
        return Failure::of(Failure::Kind::Unreadable, "write failed");
    };

    if (!trace.begin() || (truth && !truth->begin())) return ioFailed();
    const int iterations = request.iterations > 0 ? request.iterations : defaultIterations(request.scenario);
    TimeNs first = 0, last = 0;
    for (int step = 0;; ++step) {
        if (request.events > 0 ? trace.counts().kernels >= static_cast<std::uint64_t>(request.events)
                               : step >= iterations)
            break;
        const Iteration it = null ? nullWork.build(step) : net.build(step);
        const std::string problem = validate(it, sim.streams());
        if (!problem.empty())
            return Failure::of(Failure::Kind::Invalid, std::string(null ? "null workload" : "project X") + " step " +
                                                           std::to_string(step) + ": " + problem);
        const IterationResult& r = sim.run(it);
        if (step == 0) first = r.stepStart;
        last = r.stepEnd;
        if (!trace.write(it, r) || (truth && !truth->write(it, r))) return ioFailed();
        summary.ops += it.ops.size();
        summary.iterations = step + 1;
    }
    if (!trace.finish()) return ioFailed();
    summary.counts = trace.counts();
    summary.traceBytes = trace.bytes();
    summary.endToEndNs = last - first;
    if (traceSink && traceSink->finish()) return ioFailed();
    if (truth && (!truth->finish(summary.counts) || truthSink->finish())) return ioFailed();
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return summary;
}

}  // namespace contend::sim
