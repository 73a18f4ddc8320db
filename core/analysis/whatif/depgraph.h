#pragma once
// The dependency graph of a trace, its critical path and its slack, and a replay that
// re-schedules it with some operators shortened (the what-if, whatif.h).
//
// Nodes: the analysed device operators and device wait tasks (EVENT_WAIT_SQE, cuda_sync, ...),
// and the host calls that gate them: the launch calls linked to a device node (flows or
// correlation ids, TraceBuilder::linkLaunches), host sync calls (isSyncCall) and ProfilerStep
// markers (a zero-length node at the step's start: the iteration boundary).
//
// Edges (u -> v), each with a lag in ns:
//   stream  consecutive device nodes of one device track: v starts >= u's end + lag
//   host    consecutive host nodes of one host thread: v starts >= u's end + lag
//   launch  launch call -> the device node it enqueued: v starts >= u's START + lag
//   sync    device node -> host sync call that returned after it: v ends >= u's end + lag
//   wait    device node on another track -> device wait task that ended after it: v ends >= ...
//   event   device node on another track -> a device node with a known launch that started
//           within kEventLagNs of its end although its own stream and launch had let it start
//           more than kUnexplainedNs earlier: an event wait the trace did not record
//           (cudaStreamWaitEvent without its event, a graph edge): v starts >= u's end + lag.
//           Never inferred without the launch (the host may be why a kernel started late).
//
// A node starts at the latest of its start edges (roots keep their observed start) and ends at
// the latest of start + own time and its end edges. Lags come from the observation so that the
// replay of an unchanged graph gives back every observed time: the edge that bound a node (the
// latest-arriving one) keeps its observed gap, which is not waiting (launch latency, the host's
// own work between calls, the device's gap between kernels); the others keep the nominal lag of
// their kind (0 for stream and sync, the trace's shortest launch-to-start for launch; host gaps
// are always the host's own work). A sync call or wait task that was still waiting when its
// last predecessor ended owns only its return latency; one that waited for nothing we see (it
// ended before anything it could wait for, or the trace has none) keeps its whole duration.
//
// cudaStreamSynchronize names no stream in Kineto, so a sync call waits for the last node of
// every device track that ended before it returned; only the latest one binds. A wait task
// waits for the latest node of another track that ended during it. A trace without launch
// calls (kernels only) has stream order only: each kernel's gap keeps its observed length, and
// the graph says so (DependencyGraph::linkedDeviceNodes, note "depgraph-stream-only").
//
// Iterations: each node belongs to the ProfilerStep it (or its launch) started in (summary.h);
// nodes before the first step go with the first; a trace without steps is one iteration. The
// time of iteration i is E_i - E_{i-1}, where E_i is the latest end of the nodes of iterations
// up to i (E_{-1}: the start of the first); their sum is the graph's span. The critical path of
// an iteration is the chain of binding edges back from its latest-ending node while it stays in
// the iteration. Slack of a node: how much later it could end with the graph's end unchanged.
//
// Cost: O(n log n) to build (sorts per track), O(n + m) for the topological order (Boost's
// depth-first order, depthFirstOrder in depgraph_csr.h), the passes and the critical paths;
// about 60 bytes per node and 16 per edge.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"
#include "core/analysis/whatif/dep_edge.h"
#include "core/trace/trace.h"

namespace contend {

enum class DepNodeKind : std::uint8_t { Device, Wait, Launch, Sync, Step };

inline constexpr TimeNs kUnexplainedNs = 5000;  // a start this much later than its edges allow
inline constexpr TimeNs kEventLagNs = 2000;     // ... and this close after another track's end

// The critical path of one iteration, and its time.
struct IterationPath {
    TimeNs timeNs = 0;            // E_i - E_{i-1}
    TimeNs endNs = 0;             // E_i
    std::uint32_t last = kNone;   // node that ends it (kNone: the iteration added no time)
    std::uint32_t nodes = 0;      // nodes on its critical path
    TimeNs deviceNs = 0;          // device time on the path
    std::uint32_t track = kNone;  // the track holding most of the path's time
};

struct DepCsr;  // the Boost.Graph CSR (depgraph.cpp)

class DependencyGraph {
  public:
    std::size_t size() const { return slice.size(); }
    std::size_t edgeCount() const;

    // Per node.
    std::vector<std::uint32_t> slice;  // index into Trace::slices()
    std::vector<DepNodeKind> kind;
    std::vector<TimeNs> start, end;        // observed (a step marker ends at its start)
    std::vector<TimeNs> own;               // own time: what start + own may end at
    std::vector<std::uint32_t> iteration;  // index into iterations (0 when none)
    std::vector<std::uint32_t> rank;       // position in the topological order
    std::vector<std::uint32_t> order;      // nodes in topological order
    std::vector<std::uint32_t> bindStart;  // start-edge predecessor that bound it (kNone: root)
    std::vector<std::uint32_t> bindEnd;    // end-edge predecessor that bound it (kNone: own time)
    std::vector<TimeNs> slack;             // latest end - observed end, >= 0
    std::vector<std::uint32_t> nodeOfOp;   // per analysed op: its node (kNone in host scope)

    // Per iteration (at least one when the graph is not empty).
    std::vector<IterationPath> iterations;
    TimeNs originNs = 0;  // E_{-1}
    TimeNs spanNs = 0;    // E_last - originNs: the sum of the iteration times
    // Nodes by observed end, latest first (for the replay's new end).
    std::vector<std::uint32_t> byEnd;

    // What the links rest on.
    std::size_t deviceNodes = 0;
    std::size_t linkedDeviceNodes = 0;  // device nodes with a launch edge
    std::size_t syncNodes = 0, waitNodes = 0, boundSyncs = 0;
    std::size_t eventEdges = 0;    // inferred event waits
    std::size_t droppedEdges = 0;  // edges dropped to break a cycle (inconsistent times)
    TimeNs launchLagNs = 0;        // nominal launch lag
    double seconds = 0;

    // In-edges and out-edges (the replay walks both).
    std::shared_ptr<const DepCsr> csr;
};

// Builds the graph over the analysed operators (device scope only; empty in host scope) and
// computes the observed schedule's bindings, slack and critical paths. Returns nullptr when
// keepGoing (checked between passes) says stop.
std::shared_ptr<const DependencyGraph> buildDependencyGraph(const Trace& trace, const OperatorSet& ops,
                                                            const std::vector<IterationStats>& iterations,
                                                            const std::vector<std::uint32_t>& iterationOfOp,
                                                            const std::function<bool()>& keepGoing = {});

// Notes on what the graph could not link ("depgraph-stream-only", "depgraph-partial-links",
// "depgraph-cycle"); empty when every device node is linked.
std::vector<ReportNote> dependencyNotes(const DependencyGraph& g);

// Re-schedules the graph: earliest start under the same edges and lags with some nodes'
// own time cut and some runs fused. Reusable: keeps scratch arrays the size of the graph and
// resets only what a run touched, so a run costs what it moves, not the graph's size.
class Replayer {
  public:
    explicit Replayer(const DependencyGraph& g);

    struct Change {
        std::uint32_t node = 0;
        TimeNs shortenNs = 0;  // own time cut by this much (clamped at 0)
    };
    struct Result {
        TimeNs gainNs = 0;        // old span - new span (>= 0)
        std::size_t visited = 0;  // nodes recomputed
    };
    // `fused`: nodes that, as one fused operator, start right after their stream predecessor
    // (their launch and wait edges dropped, the stream gap 0): a cluster's ops after its first.
    // Their launch calls, and the sync calls bound to the operator before each, cost nothing
    // then (own time 0, the host gap before them 0, no wait): one launch issues the fused run.
    Result run(const std::vector<Change>& changes, const std::vector<std::uint32_t>& fused = {});
    // Recomputes every node from scratch in topological order with nothing changed and returns
    // how many differ from the observation (0 when the lags and bindings are right; for tests).
    std::size_t mismatchesOfFullReplay();
    // The new end of every node of the last run (valid until the next run).
    TimeNs newEnd(std::uint32_t node) const { return endOf(node); }

  private:
    // A node's times in this run: its own copy once touched, else the graph's.
    TimeNs startOf(std::uint32_t v) const { return (m_state[v] & 2) ? m_start[v] : m_g.start[v]; }
    TimeNs endOf(std::uint32_t v) const { return (m_state[v] & 2) ? m_end[v] : m_g.end[v]; }

    const DependencyGraph& m_g;
    std::unique_ptr<TimeNs[]> m_start, m_end, m_own;  // valid for touched nodes only
    std::vector<std::uint8_t> m_state;                // bit 0: queued, bit 1: touched, bit 2: fused
    std::vector<std::uint32_t> m_touched;
    std::vector<std::uint64_t> m_queued;  // the queued nodes, a bit each by topological rank (clear between runs)
};

}  // namespace contend
