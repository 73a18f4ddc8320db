#include "core/sim/write/truth_writer.h"

#include <algorithm>
#include <cmath>

namespace contend::sim {

TruthWriter::TruthWriter(OutputSink& sink, const SimConfig& config, const std::vector<StreamInfo>& streams,
                         TruthHeader header)
    : m_config(config), m_streams(streams), m_header(std::move(header)), m_out(&sink) {}

bool TruthWriter::begin() {
    const DeviceConfig& d = m_config.device;
    JsonText& o = m_out;
    o.raw("{\n  \"schema\": \"contend.truth/1\",\n  \"scenario\": ")
        .string(m_header.scenario)
        .raw(",\n  \"fixed\": ")
        .boolean(m_header.fixed)
        .raw(",\n  \"seed\": ")
        .integer(static_cast<std::int64_t>(m_header.seed));
    if (m_header.badRate < 1.0) o.raw(",\n  \"bad_rate\": ").fixed(std::llround(m_header.badRate * 1000), 3);
    o.raw(",\n  \"device\": {\"name\": ")
        .string(d.name)
        .raw(", \"compute_units\": ")
        .integer(d.computeUnits)
        .raw(", \"peak_bandwidth_gbps\": ")
        .integer(std::llround(d.peakBandwidthGBs))
        .raw(", \"cache_bytes\": ")
        .integer(d.cacheBytes)
        .raw(", \"base_hit_rate\": ")
        .fixed(std::llround(d.baseHitRate * 1000), 3)
        .raw(", \"barrier_ns\": ")
        .integer(d.barrierNs)
        .raw(", \"cause_threshold\": ")
        .fixed(std::llround(m_config.causeThreshold * 1000), 3)
        .raw("},\n  \"streams\": [");
    for (std::size_t s = 0; s < m_streams.size(); ++s) {
        o.raw(s ? ", " : "")
            .raw("{\"id\": ")
            .integer(m_streams[s].id)
            .raw(", \"label\": ")
            .string(m_streams[s].label)
            .raw("}");
    }
    o.raw("],\n  \"ops\": [");
    return o.maybeFlush();
}

bool TruthWriter::write(const Iteration& it, const IterationResult& r) {
    JsonText& o = m_out;
    for (std::size_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& spec = it.ops[i];
        const OpRecord& rec = r.ops[i];
        o.raw(m_opBase + i == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ")
            .string(spec.name)
            .raw(", \"stream\": ")
            .integer(spec.stream)
            .raw(", \"iteration\": ")
            .integer(r.index)
            .raw(", \"correlation\": ")
            .integer(rec.correlation)
            .raw(", \"start_ns\": ")
            .integer(rec.start)
            .raw(", \"dur_ns\": ")
            .integer(rec.dur())
            .raw(", \"solo_ns\": ")
            .integer(rec.soloNs)
            .raw(", \"slowdown\": ")
            .ratio(rec.dur() - rec.soloNs, std::max<TimeNs>(1, rec.soloNs), 4)
            .raw(", \"cause\": \"")
            .raw(causeName(rec.cause))
            .raw("\", \"barrier_ns\": ")
            .integer(rec.barrierNs)
            .raw(", \"lock_wait_ns\": ")
            .integer(rec.lockWaitNs)
            .raw(", \"hit_rate\": ")
            .fixed(std::llround(rec.hitRate() * 1000), 3);
        if (!spec.tag.empty()) o.raw(", \"tag\": ").string(spec.tag);
        o.raw("}");
        if (!o.maybeFlush()) return false;
    }
    m_steps.push_back({r.index, r.stepStart, r.stepEnd});
    for (const SyncCluster& c : r.clusters) {
        SyncCluster g = c;
        g.firstOp = static_cast<std::uint32_t>(m_opBase + c.firstOp);
        m_clusters.push_back({r.index, g});
    }
    for (const LockWait& w : r.lockWaits) {
        LockWait g = w;
        g.op = static_cast<std::uint32_t>(m_opBase + w.op);
        g.holder = static_cast<std::uint32_t>(m_opBase + w.holder);
        m_waits.push_back({r.index, it.locks[static_cast<std::size_t>(w.lock)], g});
    }
    m_opBase += it.ops.size();
    return true;
}

bool TruthWriter::finish(const TraceCounts& counts) {
    JsonText& o = m_out;
    o.raw("\n  ],\n  \"clusters\": [");
    for (std::size_t k = 0; k < m_clusters.size(); ++k) {
        const SyncCluster& c = m_clusters[k].c;
        o.raw(k ? ",\n    " : "\n    ")
            .raw("{\"stream\": ")
            .integer(c.stream)
            .raw(", \"iteration\": ")
            .integer(m_clusters[k].iteration)
            .raw(", \"start_ns\": ")
            .integer(c.start)
            .raw(", \"end_ns\": ")
            .integer(c.end)
            .raw(", \"first_op\": ")
            .integer(c.firstOp)
            .raw(", \"ops\": ")
            .integer(c.ops)
            .raw(", \"busy_ns\": ")
            .integer(c.busyNs)
            .raw(", \"barrier_ns\": ")
            .integer(c.barrierNs)
            .raw("}");
        o.maybeFlush();
    }
    o.raw(m_clusters.empty() ? "],\n  \"lock_waits\": [" : "\n  ],\n  \"lock_waits\": [");
    for (std::size_t k = 0; k < m_waits.size(); ++k) {
        const LockWait& w = m_waits[k].w;
        o.raw(k ? ",\n    " : "\n    ")
            .raw("{\"op\": ")
            .integer(w.op)
            .raw(", \"holder\": ")
            .integer(w.holder)
            .raw(", \"lock\": ")
            .string(m_waits[k].lock)
            .raw(", \"iteration\": ")
            .integer(m_waits[k].iteration)
            .raw(", \"start_ns\": ")
            .integer(w.start)
            .raw(", \"wait_ns\": ")
            .integer(w.waitNs)
            .raw("}");
        o.maybeFlush();
    }
    o.raw(m_waits.empty() ? "],\n  \"steps\": [" : "\n  ],\n  \"steps\": [");
    for (std::size_t k = 0; k < m_steps.size(); ++k) {
        o.raw(k ? ",\n    " : "\n    ")
            .raw("{\"iteration\": ")
            .integer(m_steps[k].index)
            .raw(", \"start_ns\": ")
            .integer(m_steps[k].start)
            .raw(", \"end_ns\": ")
            .integer(m_steps[k].end)
            .raw("}");
        o.maybeFlush();
    }
    o.raw(m_steps.empty() ? "],\n  \"counts\": {" : "\n  ],\n  \"counts\": {");
    o.raw("\"events\": ")
        .integer(static_cast<std::int64_t>(counts.events))
        .raw(", \"kernels\": ")
        .integer(static_cast<std::int64_t>(counts.kernels))
        .raw(", \"counters\": ")
        .integer(static_cast<std::int64_t>(counts.counters))
        .raw(", \"flows\": ")
        .integer(static_cast<std::int64_t>(counts.flows))
        .raw(", \"ops\": ")
        .integer(static_cast<std::int64_t>(m_opBase))
        .raw(", \"phases\": {");
    bool first = true;
    for (const auto& [phase, n] : counts.phases) {
        o.raw(first ? "" : ", ").string(phase).raw(": ").integer(static_cast<std::int64_t>(n));
        first = false;
    }
    const TimeNs e2e = m_steps.empty() ? 0 : m_steps.back().end - m_steps.front().start;
    o.raw("}},\n  \"end_to_end_ns\": ").integer(e2e).raw("\n}\n");
    return o.flush();
}

}  // namespace contend::sim
