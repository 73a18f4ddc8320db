#include "trace_writer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <vector>
#include <zlib.h>

namespace lab {

namespace {

constexpr int kCbidLaunch = 211;
constexpr int kCbidDeviceSync = 165;

// Appends JSON text; numbers from integers only, so the bytes do not depend on the locale.
class Out {
  public:
    explicit Out(std::string& s) : m_s(s) {}
    Out& raw(const std::string& t) {
        m_s += t;
        return *this;
    }
    Out& raw(const char* t) {
        m_s += t;
        return *this;
    }
    Out& integer(std::int64_t v) {
        m_s += std::to_string(v);
        return *this;
    }
    Out& micros(std::int64_t ns) { return fixed3(ns); }  // ns -> "us.nnn"
    Out& fixed3(std::int64_t thousandths) {
        if (thousandths < 0) {
            m_s += '-';
            thousandths = -thousandths;
        }
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%lld.%03lld", static_cast<long long>(thousandths / 1000),
                      static_cast<long long>(thousandths % 1000));
        m_s += buf;
        return *this;
    }
    Out& string(const std::string& t) {
        m_s += '"';
        for (char c : t) {
            if (c == '"' || c == '\\') m_s += '\\';
            m_s += c;
        }
        m_s += '"';
        return *this;
    }

  private:
    std::string& m_s;
};

struct Writer {
    std::string text;
    Out o{text};
    bool first = true;
    const RunRecord& run;
    const TraceOptions& opt;
    std::array<KernelNames, kKinds> names;

    Writer(const RunRecord& r, const TraceOptions& options) : run(r), opt(options) {
        for (Kind k : kAllKinds) names[static_cast<std::size_t>(k)] = namesOf(k, options.names);
    }

    std::int64_t t(std::int64_t monotonic) const { return monotonic + opt.clockOffset; }

    void open(const char* phase) {
        o.raw(first ? "\n  {\"ph\": \"" : ",\n  {\"ph\": \"").raw(phase).raw("\"");
        first = false;
    }

    void meta(const char* name, std::int64_t pid, std::int64_t tid, std::int64_t ts, const std::string& argKey,
              const std::string& value, bool numeric) {
        open("M");
        o.raw(", \"name\": \"").raw(name).raw("\", \"pid\": ").integer(pid).raw(", \"tid\": ").integer(tid);
        o.raw(", \"ts\": ").micros(ts).raw(", \"args\": {\"").raw(argKey).raw("\": ");
        if (numeric)
            o.raw(value);
        else
            o.string(value);
        o.raw("}}");
    }

    void hostX(const char* cat, const std::string& name, std::int64_t start, std::int64_t end) {
        open("X");
        o.raw(", \"cat\": \"").raw(cat).raw("\", \"name\": ").string(name);
        o.raw(", \"pid\": ").integer(run.hostPid).raw(", \"tid\": ").integer(run.hostTid);
        o.raw(", \"ts\": ").micros(t(start)).raw(", \"dur\": ").micros(std::max<std::int64_t>(0, end - start));
    }

    void header() {
        o.raw("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\"id\": 0, \"name\": ")
            .string(opt.deviceName)
            .raw(", \"totalGlobalMem\": 0, \"computeMajor\": 0, \"computeMinor\": 0, \"numSms\": 2}\n  ],\n");
        o.raw("  \"traceName\": ").string(opt.traceName).raw(",\n");
        o.raw("  \"contendLab\": {\"truth\": \"measured\", \"streams\": \"worker threads pinned to CPUs 0 and 1\"");
        if (opt.counters)
            o.raw(
                ", \"counters\": \"software measurement: the bytes each kernel moved divided by its duration, "
                "per stream and total; not a PMU\"");
        o.raw("},\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [");
        const std::int64_t ts0 = run.steps.empty() ? 0 : t(run.steps.front().start);
        meta("process_name", 0, 0, ts0, "name", "GPU 0", false);
        meta("process_labels", 0, 0, ts0, "labels", "GPU 0", false);
        meta("process_sort_index", 0, 0, ts0, "sort_index", "5000000", true);
        for (const Stream& s : kStreams) {
            meta("thread_name", 0, s.id, ts0, "name", "stream " + std::to_string(s.id) + " ", false);
            meta("thread_sort_index", 0, s.id, ts0, "sort_index", std::to_string(s.id), true);
        }
        meta("process_name", run.hostPid, 0, ts0, "name", "contend-lab", false);
        meta("process_sort_index", run.hostPid, 0, ts0, "sort_index", std::to_string(run.hostPid), true);
        meta("thread_name", run.hostPid, run.hostTid, ts0, "name",
             "thread " + std::to_string(run.hostTid) + " (contend-lab)", false);
        meta("thread_sort_index", run.hostPid, run.hostTid, ts0, "sort_index", std::to_string(run.hostTid), true);
    }

    void kernel(const KernelRecord& k) {
        const KernelNames& n = names[static_cast<std::size_t>(k.kind)];
        const int stream = kStreams[static_cast<std::size_t>(k.streamIndex)].id;
        open("X");
        o.raw(", \"cat\": \"kernel\", \"name\": ").string(n.kernel).raw(", \"pid\": 0, \"tid\": ").integer(stream);
        o.raw(", \"ts\": ").micros(t(k.start)).raw(", \"dur\": ").micros(k.end - k.start);
        o.raw(", \"args\": {\"External id\": ").integer(k.externalId);
        o.raw(", \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": ").integer(stream);
        o.raw(", \"correlation\": ").integer(k.correlation);
        o.raw(", \"registers per thread\": ").integer(n.registers);
        o.raw(", \"shared memory\": ").integer(n.sharedMemory);
        o.raw(", \"grid\": [").integer(n.grid[0]).raw(", ").integer(n.grid[1]).raw(", ").integer(n.grid[2]);
        o.raw("], \"block\": [").integer(n.block[0]).raw(", ").integer(n.block[1]).raw(", ").integer(n.block[2]);
        o.raw("]}}");
        open("s");
        o.raw(", \"id\": ").integer(k.correlation).raw(", \"pid\": ").integer(run.hostPid);
        o.raw(", \"tid\": ").integer(run.hostTid).raw(", \"ts\": ").micros(t(k.launchStart));
        o.raw(", \"cat\": \"ac2g\", \"name\": \"ac2g\"}");
        open("f");
        o.raw(", \"id\": ").integer(k.correlation).raw(", \"pid\": 0, \"tid\": ").integer(stream);
        o.raw(", \"ts\": ").micros(t(k.start)).raw(", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}");
    }

    void counter(const std::string& name, std::int64_t ts, std::int64_t milliGBs) {
        open("C");
        o.raw(", \"name\": ").string(name).raw(", \"pid\": 0, \"tid\": 0, \"ts\": ").micros(t(ts));
        o.raw(", \"args\": {\"Achieved(GB/s)\": ").fixed3(milliGBs).raw("}}");
    }

    static std::string streamSeries(int index) {
        return "Lab stream " + std::to_string(kStreams[static_cast<std::size_t>(index)].id) +
               " achieved bytes/s (software, not PMU)";
    }
    static std::string totalSeries() { return "DRAM Bandwidth (lab software measurement, not PMU)"; }

    // The kernels of one slot as step functions: each kernel's bytes / duration from its start to
    // its end, per stream and summed.
    void slotCounters(const std::vector<const KernelRecord*>& ks) {
        std::vector<std::int64_t> times;
        for (const KernelRecord* k : ks) {
            times.push_back(k->start);
            times.push_back(k->end);
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        auto rate = [](const KernelRecord& k) {  // milli-GB/s = bytes * 1e3 / ns
            const std::int64_t dur = std::max<std::int64_t>(1, k.end - k.start);
            return static_cast<std::int64_t>(k.dramBytes * 1000 / static_cast<std::uint64_t>(dur));
        };
        for (const KernelRecord* k : ks) {
            counter(streamSeries(k->streamIndex), k->start, rate(*k));
            counter(streamSeries(k->streamIndex), k->end, 0);
        }
        for (std::int64_t at : times) {
            std::int64_t total = 0;
            for (const KernelRecord* k : ks)
                if (k->start <= at && at < k->end) total += rate(*k);
            counter(totalSeries(), at, total);
        }
    }

    void body() {
        std::size_t ki = 0;
        for (std::size_t si = 0; si < run.steps.size(); ++si) {
            const StepRecord& st = run.steps[si];
            hostX("user_annotation", "ProfilerStep#" + std::to_string(st.index), st.start, st.end);
            o.raw(", \"args\": {\"External id\": ").integer(st.externalId).raw("}}");
            if (opt.counters && si == 0)
                for (int i = 0; i < 2; ++i) counter(streamSeries(i), st.start, 0);
            if (opt.counters && si == 0) counter(totalSeries(), st.start, 0);
            while (ki < run.kernels.size() && run.kernels[ki].step == st.index) {
                const int slot = run.kernels[ki].slot;
                std::vector<const KernelRecord*> ks;
                for (; ki < run.kernels.size() && run.kernels[ki].slot == slot; ++ki) ks.push_back(&run.kernels[ki]);
                for (const KernelRecord* k : ks) {
                    const KernelNames& n = names[static_cast<std::size_t>(k->kind)];
                    hostX("cpu_op", n.hostOp, k->cpuStart, k->cpuEnd);
                    o.raw(", \"args\": {\"External id\": ").integer(k->externalId).raw("}}");
                    hostX("cuda_runtime", "cudaLaunchKernel", k->launchStart, k->launchEnd);
                    o.raw(", \"args\": {\"External id\": ").integer(k->externalId);
                    o.raw(", \"cbid\": ").integer(kCbidLaunch).raw(", \"correlation\": ").integer(k->correlation);
                    o.raw("}}");
                }
                for (const KernelRecord* k : ks) kernel(*k);
                const HostEvent& sync = run.syncs[static_cast<std::size_t>(slot)];
                hostX("cuda_runtime", sync.name, sync.start, sync.end);
                o.raw(", \"args\": {\"cbid\": ").integer(kCbidDeviceSync);
                o.raw(", \"correlation\": ").integer(sync.correlation).raw("}}");
                if (opt.counters) slotCounters(ks);
            }
        }
        o.raw("\n  ]\n}\n");
    }
};

}  // namespace

std::string traceJson(const RunRecord& run, const TraceOptions& options) {
    Writer w(run, options);
    w.header();
    w.body();
    return std::move(w.text);
}

bool writeFile(const std::string& path, const std::string& text) {
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
        gzFile f = gzopen(path.c_str(), "wb6");
        if (f == nullptr) return false;
        const int wrote = gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
        const int closed = gzclose(f);
        return wrote == static_cast<int>(text.size()) && closed == Z_OK;
    }
    std::ofstream f(path, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    return static_cast<bool>(f);
}

}  // namespace lab
