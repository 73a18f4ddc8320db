#include "core/sim/model/simulator.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "core/sim/model/attribution.h"
#include "core/sim/model/rng.h"

namespace contend::sim {

namespace {

// Salts of the per-step random streams: host costs and operator work jitter; counter noise.
constexpr std::uint64_t kStepSalt = 0x5713;
constexpr std::uint64_t kNoiseSalt = 0x4015e;

TimeNs jittered(TimeNs base, Rng& rng, double sigma) {
    return std::max<TimeNs>(1, std::llround(static_cast<double>(base) * rng.jitter(sigma)));
}

std::int16_t tenths(double fraction) {
    const double v = std::clamp(fraction, 0.0, 1.0) * 1000.0;
    return static_cast<std::int16_t>(std::llround(v));
}

}  // namespace

// One step in flight: the state of the host, the streams, the locks and every operator.
class Simulator::Step {
  public:
    Step(Simulator& sim, const Iteration& it, IterationResult& out)
        : m_sim(sim),
          m_cfg(sim.m_config),
          m_it(it),
          m_out(out),
          m_rng(mixSeed(sim.m_seed, static_cast<std::uint64_t>(it.index), kStepSalt)),
          m_noise(mixSeed(sim.m_seed, static_cast<std::uint64_t>(it.index), kNoiseSalt)) {
        const std::size_t n = it.ops.size();
        m_ops.assign(n, OpState{});
        m_streams.resize(sim.m_streams.size());
        for (std::size_t s = 0; s < m_streams.size(); ++s) m_streams[s].id = sim.m_streams[s].id;
        m_locks.resize(it.locks.size());
        for (std::size_t i = 0; i < n; ++i) m_ops[i].stream = streamIndex(it.ops[i].stream);
    }

    void run() {
        m_now = m_out.stepStart;
        m_hostT = m_now + m_cfg.host.stepLeadNs;
        m_out.stepExternalId = m_sim.m_nextExternal++;
        m_dirty = true;
        for (;;) {
            bool progressed = true;
            while (progressed) {
                progressed = completeDue();
                progressed |= stepHost();
                for (std::size_t s = 0; s < m_streams.size(); ++s) progressed |= tryStart(s);
            }
            if (m_dirty) resolveRates();
            sampleCounters();
            if (m_host == Host::Done) break;
            advance(nextEvent());
        }
    }

  private:
    enum class Host : std::uint8_t { Dispatch, SyncStream, SyncDevice, Done };
    enum class State : std::uint8_t { Pending, Queued, Running, Spinning, Done };

    struct OpState {
        State state = State::Pending;
        std::size_t stream = 0;
        double remaining = 0;  // work left, ns at solo speed
        TimeNs doneAt = kTimeMax;
        OpRate rate;
    };
    struct StreamState {
        std::int32_t id = 0;
        std::deque<std::uint32_t> queue;  // launched, not started, in launch order
        std::int64_t current = -1;        // op holding the stream (running or spinning)
        TimeNs lastEnd = kNoTime;         // end of its previous operator in this step
        std::uint32_t outstanding = 0;    // launched and not finished
    };
    struct LockState {
        std::int64_t holder = -1;
        std::deque<std::uint32_t> waiters;
    };

    std::size_t streamIndex(std::int32_t id) const {
        for (std::size_t s = 0; s < m_sim.m_streams.size(); ++s)
            if (m_sim.m_streams[s].id == id) return s;
        throw std::invalid_argument("operator on undeclared stream " + std::to_string(id));
    }

    // Host: issues operators in program order; may block on a stream or the whole device.
    bool stepHost() {
        const HostConfig& h = m_cfg.host;
        switch (m_host) {
        case Host::Dispatch: {
            if (m_hostT > m_now) return false;
            if (m_pc == m_it.ops.size()) {
                m_host = Host::SyncDevice;
                m_syncStart = m_hostT;
                return true;
            }
            const OpSpec& spec = m_it.ops[m_pc];
            if (spec.barrier && !m_synced) {
                m_host = Host::SyncStream;
                m_syncStart = m_hostT;
                m_syncStream = m_ops[m_pc].stream;
                return true;
            }
            dispatch(m_pc);
            m_synced = false;
            ++m_pc;
            return true;
        }
        case Host::SyncStream: {
            if (m_streams[m_syncStream].outstanding > 0) return false;
            OpRecord& rec = m_out.ops[m_pc];
            const TimeNs end = std::max(m_now, m_syncStart) + h.syncReturnNs;
            rec.syncStart = m_syncStart;
            rec.syncDur = end - m_syncStart;
            rec.syncCorrelation = m_sim.m_nextCorrelation++;
            m_hostT = end;
            m_synced = true;
            m_host = Host::Dispatch;
            return true;
        }
        case Host::SyncDevice: {
            if (m_now < m_syncStart) return false;
            for (const StreamState& s : m_streams)
                if (s.outstanding > 0) return false;
            const TimeNs end = m_now + h.syncReturnNs;
            m_out.deviceSyncStart = m_syncStart;
            m_out.deviceSyncDur = end - m_syncStart;
            m_out.deviceSyncCorrelation = m_sim.m_nextCorrelation++;
            m_out.stepEnd = end;
            m_host = Host::Done;
            return true;
        }
        case Host::Done: return false;
        }
        return false;
    }

    void dispatch(std::uint32_t i) {
        const HostConfig& h = m_cfg.host;
        const OpSpec& spec = m_it.ops[i];
        OpRecord& rec = m_out.ops[i];
        OpState& op = m_ops[i];
        const TimeNs dispatchNs = jittered(h.dispatchNs, m_rng, h.jitter);
        const TimeNs launchNs = jittered(h.launchNs, m_rng, h.jitter);
        rec.cpuStart = m_hostT;
        rec.launchStart = m_hostT + dispatchNs;
        rec.launchDur = launchNs;
        const TimeNs launchEnd = rec.launchStart + launchNs;
        rec.cpuDur = launchEnd + h.postNs - rec.cpuStart;
        rec.arrival = launchEnd + h.launchLatencyNs;
        rec.correlation = m_sim.m_nextCorrelation++;
        rec.externalId = m_sim.m_nextExternal++;
        rec.workNs = drawWorkNs(spec, m_rng);
        const double solo = m_sim.m_model.soloRate(spec.demand);
        rec.soloNs = static_cast<TimeNs>(std::ceil(static_cast<double>(rec.workNs) / solo - 1e-9));
        op.remaining = static_cast<double>(rec.workNs);
        op.state = State::Queued;
        StreamState& s = m_streams[op.stream];
        s.queue.push_back(i);
        ++s.outstanding;
        m_hostT = launchEnd + h.postNs + h.opGapNs;
    }

    // Earliest time the head of stream s may start, or kTimeMax while it waits for a
    // dependency (whose completion is an event of its own).
    TimeNs headReadyAt(const StreamState& s, TimeNs* depsDone) const {
        const std::uint32_t i = s.queue.front();
        const OpSpec& spec = m_it.ops[i];
        TimeNs deps = kNoTime;
        for (std::uint32_t a : spec.after) {
            if (m_ops[a].state != State::Done) return kTimeMax;
            deps = std::max(deps, m_out.ops[a].end);
        }
        if (depsDone) *depsDone = deps;
        TimeNs t = m_out.ops[i].arrival;
        if (spec.barrier && s.lastEnd != kNoTime) t = std::max(t, s.lastEnd + m_cfg.device.barrierNs);
        return t;
    }

    bool tryStart(std::size_t si) {
        StreamState& s = m_streams[si];
        if (s.current >= 0 || s.queue.empty()) return false;
        TimeNs depsDone = kNoTime;
        if (headReadyAt(s, &depsDone) > m_now) return false;
        const std::uint32_t i = s.queue.front();
        s.queue.pop_front();
        s.current = i;
        const OpSpec& spec = m_it.ops[i];
        OpRecord& rec = m_out.ops[i];
        rec.start = m_now;
        if (spec.barrier) {
            // What the barrier cost: the wait beyond everything else the op waited for.
            TimeNs base = std::max(s.lastEnd, depsDone);
            base = std::max(base, rec.syncStart);
            rec.barrierNs = base == kNoTime ? 0 : std::max<TimeNs>(0, m_now - base);
        }
        OpState& op = m_ops[i];
        op.state = State::Running;
        if (spec.lock >= 0) {
            LockState& lock = m_locks[static_cast<std::size_t>(spec.lock)];
            if (lock.holder < 0) {
                lock.holder = i;
            } else {
                op.state = State::Spinning;
                lock.waiters.push_back(i);
                rec.lockWaitStart = m_now;
                rec.lockHolder = static_cast<std::int32_t>(lock.holder);
            }
        }
        m_dirty = true;
        return true;
    }

    bool completeDue() {
        bool any = false;
        for (StreamState& s : m_streams) {
            if (s.current < 0) continue;
            const std::uint32_t i = static_cast<std::uint32_t>(s.current);
            OpState& op = m_ops[i];
            if (op.state != State::Running || op.doneAt > m_now) continue;
            op.state = State::Done;
            op.remaining = 0;
            m_out.ops[i].end = m_now;
            s.current = -1;
            s.lastEnd = m_now;
            --s.outstanding;
            const std::int32_t lockIndex = m_it.ops[i].lock;
            if (lockIndex >= 0) {
                LockState& lock = m_locks[static_cast<std::size_t>(lockIndex)];
                if (lock.holder == static_cast<std::int64_t>(i)) {
                    lock.holder = -1;
                    if (!lock.waiters.empty()) {
                        const std::uint32_t w = lock.waiters.front();
                        lock.waiters.pop_front();
                        lock.holder = w;
                        m_ops[w].state = State::Running;
                        OpRecord& wr = m_out.ops[w];
                        wr.lockWaitNs = m_now - wr.lockWaitStart;
                    }
                }
            }
            m_dirty = true;
            any = true;
        }
        return any;
    }

    void resolveRates() {
        m_running.clear();
        m_demands.clear();
        int spinning = 0;
        for (const StreamState& s : m_streams) {
            if (s.current < 0) continue;
            const std::uint32_t i = static_cast<std::uint32_t>(s.current);
            if (m_ops[i].state == State::Spinning) {
                ++spinning;
                continue;
            }
            m_running.push_back(i);
            m_demands.push_back(&m_it.ops[i].demand);
        }
        const DeviceLoad load = m_sim.m_model.solve(m_demands, spinning, m_rates);
        for (std::size_t k = 0; k < m_running.size(); ++k) {
            OpState& op = m_ops[m_running[k]];
            op.rate = m_rates[k];
            if (op.remaining <= 1e-6) {
                op.doneAt = m_now;
            } else {
                const double dt = std::ceil(op.remaining / op.rate.rate - 1e-9);
                op.doneAt = m_now + std::max<TimeNs>(1, static_cast<TimeNs>(dt));
            }
        }
        m_load[0] = tenths(load.bandwidth);
        m_load[1] = tenths(load.compute);
        m_load[2] = tenths(load.hitRate);
        m_load[3] = tenths(load.issue);
        m_dirty = false;
        m_changed = true;
    }

    // Writes a sample of every series whose value changed, or whose last sample is a period old.
    // Change detection uses the model's exact value; the written value carries the noise.
    void sampleCounters() {
        for (int k = 0; k < kSeriesCount; ++k) {
            const bool changed = m_changed && m_load[k] != m_sim.m_lastValue[k];
            const bool due = m_now - m_sim.m_lastSample[k] >= m_cfg.counterPeriodNs;
            if (!changed && !due) continue;
            const std::int16_t written = noisy(m_load[k]);
            if (m_lastIndex[k] >= 0 && m_out.samples[m_lastIndex[k]].t == m_now) {
                CounterSample& same = m_out.samples[m_lastIndex[k]];  // same moment: replace
                same.tenths = written;
                same.exact = m_load[k];
            } else {
                m_lastIndex[k] = static_cast<std::int64_t>(m_out.samples.size());
                m_out.samples.push_back({m_now, static_cast<Series>(k), written, m_load[k]});
            }
            m_sim.m_lastValue[k] = m_load[k];
            m_sim.m_lastSample[k] = m_now;
        }
        m_changed = false;
    }

    // An exact reading plus measurement noise; an idle 0 stays 0 (nothing to mis-measure).
    std::int16_t noisy(std::int16_t tenthsValue) {
        if (m_cfg.counterNoise <= 0 || tenthsValue == 0) return tenthsValue;
        const double v = tenthsValue + m_noise.normal() * m_cfg.counterNoise * 10.0;
        return static_cast<std::int16_t>(std::clamp<long long>(std::llround(v), 0, 1000));
    }

    TimeNs nextEvent() const {
        TimeNs next = kTimeMax;
        if (m_host == Host::Dispatch || m_host == Host::SyncDevice)
            if (m_hostT > m_now) next = std::min(next, m_hostT);
        for (const StreamState& s : m_streams) {
            if (s.current >= 0) {
                const OpState& op = m_ops[static_cast<std::size_t>(s.current)];
                if (op.state == State::Running) next = std::min(next, op.doneAt);
            } else if (!s.queue.empty()) {
                const TimeNs t = headReadyAt(s, nullptr);
                if (t > m_now) next = std::min(next, t);
            }
        }
        for (int k = 0; k < kSeriesCount; ++k) next = std::min(next, m_sim.m_lastSample[k] + m_cfg.counterPeriodNs);
        if (next == kTimeMax) throw std::logic_error("simulator stalled: nothing left to wait for");
        return std::max(next, m_now);
    }

    void advance(TimeNs to) {
        const TimeNs dt = to - m_now;
        const double d = static_cast<double>(dt);
        if (dt > 0) {
            for (const StreamState& s : m_streams) {
                if (s.current < 0) continue;
                const std::uint32_t i = static_cast<std::uint32_t>(s.current);
                OpState& op = m_ops[i];
                OpRecord& rec = m_out.ops[i];
                if (op.state == State::Spinning) {
                    rec.loss[kLossLock] += d;
                    continue;
                }
                const OpRate& r = op.rate;
                op.remaining -= r.rate * d;
                rec.runningNs += dt;
                rec.hitNsSum += r.hit * d;
                rec.loss[kLossCache] += d * (1.0 - r.cacheCap);
                if (r.limiter == Limiter::Bandwidth)
                    rec.loss[kLossBandwidth] += d * (r.cacheCap - r.rate);
                else if (r.limiter == Limiter::Compute)
                    rec.loss[kLossCompute] += d * (r.cacheCap - r.rate);
            }
        }
        m_now = to;
    }

    Simulator& m_sim;
    const SimConfig& m_cfg;
    const Iteration& m_it;
    IterationResult& m_out;
    Rng m_rng;
    Rng m_noise;
    TimeNs m_now = 0;

    Host m_host = Host::Dispatch;
    TimeNs m_hostT = 0;      // when the host is free for its next call
    std::uint32_t m_pc = 0;  // next operator the host issues
    bool m_synced = false;   // the barrier sync for m_pc is done
    TimeNs m_syncStart = 0;
    std::size_t m_syncStream = 0;

    std::vector<OpState> m_ops;
    std::vector<StreamState> m_streams;
    std::vector<LockState> m_locks;

    bool m_dirty = true;     // running set changed: rates must be re-solved
    bool m_changed = false;  // rates were re-solved at m_now: counters may have moved
    std::array<std::int16_t, kSeriesCount> m_load{};
    std::array<std::int64_t, kSeriesCount> m_lastIndex{-1, -1, -1, -1};
    std::vector<std::uint32_t> m_running;
    std::vector<const OpDemand*> m_demands;
    std::vector<OpRate> m_rates;
};

Simulator::Simulator(SimConfig config, std::vector<StreamInfo> streams, std::uint64_t seed)
    : m_config(std::move(config)),
      m_model(m_config.device),
      m_streams(std::move(streams)),
      m_seed(seed),
      m_nextStart(m_config.startNs) {
    m_lastValue.fill(-1);
    m_lastSample.fill(kTimeMin / 2);  // "long ago": the first step samples everything at once
}

Simulator::~Simulator() = default;

const IterationResult& Simulator::run(const Iteration& it) {
    m_result.index = it.index;
    m_result.stepStart = m_nextStart;
    m_result.stepEnd = m_nextStart;
    m_result.ops.assign(it.ops.size(), OpRecord{});
    m_result.samples.clear();
    m_result.clusters.clear();
    m_result.lockWaits.clear();
    Step step(*this, it, m_result);
    step.run();
    attribute(it, m_config, m_result);
    m_nextStart = m_result.stepEnd + m_config.host.stepGapNs;
    return m_result;
}

IterationResult Simulator::probe(const Iteration& it) {
    const TimeNs nextStart = m_nextStart;
    const std::int64_t nextCorrelation = m_nextCorrelation;
    const std::int64_t nextExternal = m_nextExternal;
    const auto lastValue = m_lastValue;
    const auto lastSample = m_lastSample;
    IterationResult out = run(it);
    m_nextStart = nextStart;
    m_nextCorrelation = nextCorrelation;
    m_nextExternal = nextExternal;
    m_lastValue = lastValue;
    m_lastSample = lastSample;
    return out;
}

}  // namespace contend::sim
