#include "truth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <utility>

#include "schedule.h"

namespace lab {

namespace {

// Linear interpolation between closest ranks (numpy's default); v sorted, not empty.
double quantile(const std::vector<double>& v, double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

double round4(double x) { return std::round(x * 1e4) / 1e4; }

std::string firstLine(const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

}  // namespace

std::string readLoadAvg() {
    std::istringstream in(firstLine("/proc/loadavg"));
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

double readStealMs() {
    // "cpu  user nice system idle iowait irq softirq steal ...", in USER_HZ ticks.
    std::istringstream in(firstLine("/proc/stat"));
    std::string label;
    in >> label;
    long long v[8] = {};
    for (long long& x : v)
        if (!(in >> x)) return -1;
    if (label != "cpu") return -1;
    const long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? static_cast<double>(v[7]) * 1000.0 / static_cast<double>(hz) : -1;
}

MachineInfo readMachine() {
    MachineInfo m;
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) m.cpuModel = line.substr(line.find_first_not_of(" \t", colon + 1));
            break;
        }
    }
    m.cpus = static_cast<int>(std::thread::hardware_concurrency());
    m.loadStart = readLoadAvg();
    m.stealStartMs = readStealMs();
    return m;
}

Truth measureTruth(const RunRecord& run) {
    Truth t;
    std::array<std::vector<double>, kKinds> alone;
    std::array<int, kKinds> aloneOff{};
    auto offCpu = [](const KernelRecord& k) { return std::max<std::int64_t>(0, (k.end - k.start) - k.onCpuNs); };
    auto wasOff = [&](const KernelRecord& k) {
        return static_cast<double>(offCpu(k)) >= kOffCpuShare * static_cast<double>(k.end - k.start);
    };
    for (const KernelRecord& k : run.kernels)
        if (k.schedule == Schedule::Alone) {
            alone[static_cast<std::size_t>(k.kind)].push_back(static_cast<double>(k.end - k.start));
            aloneOff[static_cast<std::size_t>(k.kind)] += wasOff(k) ? 1 : 0;
        }
    for (Kind kind : kAllKinds) {
        auto& v = alone[static_cast<std::size_t>(kind)];
        if (v.empty()) continue;
        std::sort(v.begin(), v.end());
        const auto median = static_cast<std::int64_t>(std::llround(quantile(v, 0.5)));
        t.soloNs[static_cast<std::size_t>(kind)] = median;
        SoloRow row{kind, static_cast<int>(v.size()), median, 0, 0};
        row.p10 = quantile(v, 0.1) / static_cast<double>(median) - 1;
        row.p90 = quantile(v, 0.9) / static_cast<double>(median) - 1;
        row.offCpu = aloneOff[static_cast<std::size_t>(kind)] / static_cast<double>(v.size());
        t.solo.push_back(row);
    }
    t.ops.resize(run.kernels.size());
    // (victim, partner) -> excess values, overlap shares and runs off their CPU.
    struct PairRuns {
        std::vector<double> excess, overlap;
        int offCpu = 0;
    };
    std::map<std::pair<int, int>, PairRuns> pairs;
    for (std::size_t i = 0; i < run.kernels.size(); ++i) {
        const KernelRecord& k = run.kernels[i];
        OpTruth& o = t.ops[i];
        o.soloNs = t.soloNs[static_cast<std::size_t>(k.kind)];
        const std::int64_t dur = k.end - k.start;
        o.slowdown = o.soloNs > 0 ? static_cast<double>(dur) / static_cast<double>(o.soloNs) - 1 : 0;
        o.offCpuNs = offCpu(k);
        if (k.partner >= 0) {
            const KernelRecord& p = run.kernels[static_cast<std::size_t>(k.partner)];
            o.overlapNs = std::max<std::int64_t>(0, std::min(k.end, p.end) - std::max(k.start, p.start));
            auto& slot = pairs[{static_cast<int>(k.kind), static_cast<int>(p.kind)}];
            slot.excess.push_back(o.slowdown);
            slot.overlap.push_back(dur > 0 ? static_cast<double>(o.overlapNs) / static_cast<double>(dur) : 0);
            slot.offCpu += wasOff(k) ? 1 : 0;
        }
    }
    for (const PairSpec& spec : pairTable()) {
        for (int side = 0; side < 2; ++side) {
            const Kind v = side == 0 ? spec.x : spec.y, p = side == 0 ? spec.y : spec.x;
            if (side == 1 && spec.x == spec.y) break;
            auto it = pairs.find({static_cast<int>(v), static_cast<int>(p)});
            if (it == pairs.end()) continue;
            auto& ex = it->second.excess;
            auto& ov = it->second.overlap;
            std::sort(ex.begin(), ex.end());
            std::sort(ov.begin(), ov.end());
            PhysicsRow row{v, p, spec.schedule, side == 0 ? spec.causeX : spec.causeY};
            row.runs = static_cast<int>(ex.size());
            row.median = quantile(ex, 0.5);
            row.p10 = quantile(ex, 0.1);
            row.p90 = quantile(ex, 0.9);
            row.slowed = static_cast<double>(std::count_if(ex.begin(), ex.end(), [](double e) { return e > 0.2; })) /
                         static_cast<double>(ex.size());
            row.overlap = quantile(ov, 0.5);
            row.offCpu = it->second.offCpu / static_cast<double>(ex.size());
            t.physics.push_back(row);
        }
    }
    return t;
}

void printPhysics(std::ostream& out, const Truth& truth) {
    char buf[256];
    out << "victim   beside   schedule       cause      runs  median     p10     p90   >20%  overlap  offcpu\n";
    for (const PhysicsRow& r : truth.physics) {
        std::snprintf(buf, sizeof(buf), "%-8s %-8s %-14s %-9s %5d %+6.1f%% %+6.1f%% %+6.1f%% %5.0f%% %6.0f%% %6.0f%%\n",
                      kindKey(r.victim), kindKey(r.partner), scheduleName(r.schedule), r.cause.c_str(), r.runs,
                      100 * r.median, 100 * r.p10, 100 * r.p90, 100 * r.slowed, 100 * r.overlap, 100 * r.offCpu);
        out << buf;
    }
    out << "solo     runs   median      p10     p90  offcpu\n";
    for (const SoloRow& r : truth.solo) {
        std::snprintf(buf, sizeof(buf), "%-8s %4d %8.3f ms %+6.1f%% %+6.1f%% %6.0f%%\n", kindKey(r.kind), r.runs,
                      static_cast<double>(r.medianNs) / 1e6, 100 * r.p10, 100 * r.p90, 100 * r.offCpu);
        out << buf;
    }
    out << "offcpu: share of runs off their CPU (preempted, or the vCPU stolen) for >= " << 100 * kOffCpuShare
        << "% of their duration\n";
}

namespace {

nlohmann::ordered_json physicsJson(const Truth& truth) {
    nlohmann::ordered_json j;
    j["pairs"] = nlohmann::ordered_json::array();
    for (const PhysicsRow& r : truth.physics)
        j["pairs"].push_back({{"victim", kindKey(r.victim)},
                              {"partner", kindKey(r.partner)},
                              {"schedule", scheduleName(r.schedule)},
                              {"cause", r.cause},
                              {"runs", r.runs},
                              {"median_excess", round4(r.median)},
                              {"p10", round4(r.p10)},
                              {"p90", round4(r.p90)},
                              {"share_over_20pct", round4(r.slowed)},
                              {"median_overlap", round4(r.overlap)},
                              {"share_off_cpu", round4(r.offCpu)}});
    j["solo"] = nlohmann::ordered_json::array();
    for (const SoloRow& r : truth.solo)
        j["solo"].push_back({{"kind", kindKey(r.kind)},
                             {"runs", r.runs},
                             {"median_ns", r.medianNs},
                             {"p10", round4(r.p10)},
                             {"p90", round4(r.p90)},
                             {"share_off_cpu", round4(r.offCpu)}});
    return j;
}

nlohmann::ordered_json machineJson(const MachineInfo& m) {
    nlohmann::ordered_json j = {{"cpu_model", m.cpuModel},      {"cpus", m.cpus},
                                {"l2_bytes", m.l2Bytes},        {"l3_bytes", m.l3Bytes},
                                {"loadavg_start", m.loadStart}, {"loadavg_end", m.loadEnd}};
    // The hypervisor's steal over the run, all vCPUs together (null when /proc/stat has none).
    if (m.stealStartMs >= 0 && m.stealEndMs >= 0)
        j["steal_ms"] = std::round(m.stealEndMs - m.stealStartMs);
    else
        j["steal_ms"] = nullptr;
    return j;
}

bool writeJson(const std::string& path, const nlohmann::ordered_json& j) {
    std::ofstream f(path, std::ios::binary);
    if (!f) return false;
    f << j.dump(1) << "\n";
    return static_cast<bool>(f);
}

}  // namespace

bool writeTruth(const std::string& path, const RunRecord& run, const Truth& truth, const TruthContext& ctx) {
    nlohmann::ordered_json j;
    j["schema"] = "contend.truth/1";
    j["scenario"] = "lab";
    j["fixed"] = false;
    j["seed"] = ctx.seed;
    j["measured"] = true;
    j["lab"] = {{"variant", ctx.variant},
                {"names", ctx.names == NameStyle::PyTorch ? "pytorch" : "neutral"},
                {"counters", ctx.counters},
                {"quick", ctx.quick},
                {"steps", ctx.steps},
                {"solo_rule", "median of the kind's runs alone in this run"},
                {"slowdown_rule", "dur_ns / solo_ns - 1"},
                {"overlap_rule", "intersection of the kernel's and its partner's intervals"},
                {"offcpu_rule",
                 "dur_ns - the worker thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over the kernel, "
                 "clipped at 0: preempted, or the vCPU stolen by the hypervisor"}};
    j["machine"] = machineJson(ctx.machine);
    j["device"] = {{"name", "contend-lab: 2 CPUs as streams"}, {"compute_units", 2}};
    j["streams"] = nlohmann::ordered_json::array();
    for (const Stream& s : kStreams)
        j["streams"].push_back({{"id", s.id}, {"label", s.id == kStreams[0].id ? "A" : "B"}, {"cpu", s.cpu}});
    std::array<std::string, kKinds> names;
    for (Kind k : kAllKinds) names[static_cast<std::size_t>(k)] = namesOf(k, ctx.names).kernel;
    nlohmann::ordered_json ops = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < run.kernels.size(); ++i) {
        const KernelRecord& k = run.kernels[i];
        const OpTruth& o = truth.ops[i];
        nlohmann::ordered_json op;
        op["name"] = names[static_cast<std::size_t>(k.kind)];
        op["stream"] = kStreams[static_cast<std::size_t>(k.streamIndex)].id;
        op["iteration"] = k.step;
        op["correlation"] = k.correlation;
        op["start_ns"] = k.start + ctx.clockOffset;
        op["dur_ns"] = k.end - k.start;
        op["solo_ns"] = o.soloNs;
        op["slowdown"] = round4(o.slowdown);
        op["cause"] = k.cause;
        op["tag"] = std::string("lab:") + kindKey(k.kind);
        op["kind"] = kindKey(k.kind);
        op["schedule"] = scheduleName(k.schedule);
        if (k.partner >= 0) {
            const KernelRecord& p = run.kernels[static_cast<std::size_t>(k.partner)];
            op["partner"] = names[static_cast<std::size_t>(p.kind)];
            op["partner_kind"] = kindKey(p.kind);
        } else {
            op["partner"] = nullptr;
            op["partner_kind"] = nullptr;
        }
        op["overlap_ns"] = o.overlapNs;
        op["offcpu_ns"] = o.offCpuNs;
        op["dram_bytes"] = k.dramBytes;
        op["slot"] = k.slot;
        ops.push_back(std::move(op));
    }
    j["ops"] = std::move(ops);
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const StepRecord& s : run.steps)
        steps.push_back(
            {{"iteration", s.index}, {"start_ns", s.start + ctx.clockOffset}, {"end_ns", s.end + ctx.clockOffset}});
    j["steps"] = std::move(steps);
    j["physics"] = physicsJson(truth);
    if (!run.steps.empty()) j["end_to_end_ns"] = run.steps.back().end - run.steps.front().start;
    return writeJson(path, j);
}

bool writePhysics(const std::string& path, const Truth& truth, const TruthContext& ctx) {
    nlohmann::ordered_json j;
    j["schema"] = "contend.lab-physics/1";
    j["seed"] = ctx.seed;
    j["variant"] = ctx.variant;
    j["machine"] = machineJson(ctx.machine);
    const nlohmann::ordered_json p = physicsJson(truth);
    j["pairs"] = p["pairs"];
    j["solo"] = p["solo"];
    return writeJson(path, j);
}

}  // namespace lab
