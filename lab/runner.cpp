#include "runner.h"

#include <atomic>
#include <ctime>
#include <exception>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <stdexcept>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace lab {

namespace {

std::int64_t clockNs(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

std::int64_t nowNs() { return clockNs(CLOCK_MONOTONIC); }

// The calling thread's CPU time: it stops while the thread is off its CPU (preempted by another
// thread, or, under paravirtual steal accounting, while the hypervisor runs something else on
// the vCPU).
std::int64_t threadCpuNs() { return clockNs(CLOCK_THREAD_CPUTIME_ID); }

void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

struct Job {
    // The generation this job is for: a worker runs it only when woken by that generation (a
    // worker that wakes late for a slot it sits out must not take the next slot's job early).
    std::atomic<std::uint32_t> generation{0};
    Kind kind = Kind::Fma;
    // Results, written by the worker before it counts itself done.
    std::int64_t start = 0, end = 0;
    std::int64_t onCpu = 0;  // thread CPU time over the kernel
    std::uint64_t bytes = 0;
    double checksum = 0;
};

// What the host and the two workers share. `generation` wakes the workers (futex via
// std::atomic::wait); `arrived` lines up the participants of a slot; `done` wakes the host.
struct Shared {
    std::atomic<std::uint32_t> generation{0};
    std::atomic<std::uint32_t> arrived{0};
    std::atomic<std::uint32_t> done{0};
    std::uint32_t participants = 0;
    std::atomic<bool> stop{false};
    Job job[2];
    SharedLines lines;
    std::atomic<int> ready{0};
    std::mutex errorMutex;
    std::string error;
};

void worker(Shared& sh, int index, const RunnerOptions& options) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(kStreams[index].cpu, &set);
    std::unique_ptr<StreamBuffers> buffers;
    try {
        if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
            throw std::runtime_error("cannot pin stream " + std::to_string(index) + " to CPU " +
                                     std::to_string(kStreams[index].cpu));
        // Allocated and first touched here, on the worker's own CPU.
        buffers = std::make_unique<StreamBuffers>(options.sizes, options.seed * 2 + static_cast<std::uint64_t>(index));
    } catch (const std::exception& e) {
        const std::lock_guard<std::mutex> g(sh.errorMutex);
        sh.error = e.what();
    }
    sh.ready.fetch_add(1);
    sh.ready.notify_all();
    std::uint32_t seen = 0;
    for (;;) {
        sh.generation.wait(seen, std::memory_order_acquire);
        seen = sh.generation.load(std::memory_order_acquire);
        if (sh.stop) return;
        Job& job = sh.job[index];
        if (job.generation.load(std::memory_order_acquire) != seen || !buffers) continue;
        sh.arrived.fetch_add(1, std::memory_order_acq_rel);
        while (sh.arrived.load(std::memory_order_acquire) < sh.participants) spinPause();
        const std::int64_t cpu0 = threadCpuNs();
        job.start = nowNs();
        job.bytes = buffers->run(job.kind, sh.lines, index, job.checksum);
        job.end = nowNs();
        job.onCpu = threadCpuNs() - cpu0;
        if (sh.done.fetch_add(1, std::memory_order_acq_rel) + 1 == sh.participants) sh.done.notify_all();
    }
}

std::int64_t hostTid() { return static_cast<std::int64_t>(syscall(SYS_gettid)); }

}  // namespace

RunRecord runSchedule(const std::vector<Slot>& slots, const RunnerOptions& options) {
    Shared sh;
    std::thread workers[2] = {std::thread(worker, std::ref(sh), 0, std::cref(options)),
                              std::thread(worker, std::ref(sh), 1, std::cref(options))};
    for (int r = sh.ready.load(); r < 2; r = sh.ready.load()) sh.ready.wait(r);

    // One slot: publish the jobs, wake the workers, wait until the participants are done.
    auto launch = [&](bool a, Kind ka, bool b, Kind kb, KernelRecord* recA, KernelRecord* recB, HostEvent* sync) {
        sh.arrived.store(0);
        sh.done.store(0);
        sh.participants = (a ? 1 : 0) + (b ? 1 : 0);
        const bool on[2] = {a, b};
        const Kind kinds[2] = {ka, kb};
        KernelRecord* recs[2] = {recA, recB};
        const std::uint32_t next = sh.generation.load() + 1;
        for (int i = 0; i < 2; ++i) {
            if (!on[i]) continue;
            const bool traced = recs[i] != nullptr;
            if (traced) recs[i]->cpuStart = nowNs();
            if (traced) recs[i]->launchStart = nowNs();
            sh.job[i].kind = kinds[i];
            sh.job[i].generation.store(next, std::memory_order_release);
            if (traced) recs[i]->launchEnd = nowNs();
            if (traced) recs[i]->cpuEnd = nowNs();
        }
        sh.generation.store(next, std::memory_order_release);
        sh.generation.notify_all();
        const std::int64_t syncStart = nowNs();
        for (std::uint32_t d = sh.done.load(); d < sh.participants; d = sh.done.load()) sh.done.wait(d);
        if (sync != nullptr) {
            sync->name = "cudaDeviceSynchronize";
            sync->start = syncStart;
            sync->end = nowNs();
        }
        for (int i = 0; i < 2; ++i) {
            if (recs[i] == nullptr || !on[i]) continue;
            recs[i]->start = sh.job[i].start;
            recs[i]->end = sh.job[i].end;
            recs[i]->onCpuNs = sh.job[i].onCpu;
            recs[i]->dramBytes = sh.job[i].bytes;
            recs[i]->checksum = sh.job[i].checksum;
        }
    };

    RunRecord run;
    run.hostPid = getpid();
    run.hostTid = hostTid();
    if (sh.error.empty()) {
        // Warm-up: page in, settle the clocks; not traced.
        for (int r = 0; r < options.warmupRounds; ++r)
            for (Kind k : kAllKinds) {
                launch(true, k, false, k, nullptr, nullptr, nullptr);
                launch(false, k, true, k, nullptr, nullptr, nullptr);
            }
        std::int64_t correlation = 1, externalId = 1;
        int step = -1;
        for (std::size_t s = 0; s < slots.size(); ++s) {
            const Slot& slot = slots[s];
            if (slot.step != step) {
                if (!run.steps.empty()) run.steps.back().end = nowNs();
                step = slot.step;
                run.steps.push_back({step, nowNs(), 0, externalId++});
            }
            KernelRecord ra, rb;
            HostEvent sync;
            const std::size_t first = run.kernels.size();
            for (int i = 0; i < 2; ++i) {
                const bool on = i == 0 ? slot.onA : slot.onB;
                if (!on) continue;
                KernelRecord& r = i == 0 ? ra : rb;
                r.slot = static_cast<int>(s);
                r.step = step;
                r.streamIndex = i;
                r.kind = i == 0 ? slot.kindA : slot.kindB;
                r.schedule = slot.schedule;
                r.cause = i == 0 ? slot.causeA : slot.causeB;
                r.correlation = correlation++;
                r.externalId = externalId++;
            }
            launch(slot.onA, slot.kindA, slot.onB, slot.kindB, &ra, &rb, &sync);
            sync.correlation = correlation++;
            if (slot.onA) run.kernels.push_back(ra);
            if (slot.onB) run.kernels.push_back(rb);
            if (slot.onA && slot.onB) {
                run.kernels[first].partner = static_cast<int>(first + 1);
                run.kernels[first + 1].partner = static_cast<int>(first);
            }
            run.syncs.push_back(sync);
        }
        if (!run.steps.empty()) run.steps.back().end = nowNs();
    }
    sh.stop.store(true);
    sh.generation.fetch_add(1);
    sh.generation.notify_all();
    for (std::thread& t : workers) t.join();
    if (!sh.error.empty()) throw std::runtime_error(sh.error);
    return run;
}

}  // namespace lab
