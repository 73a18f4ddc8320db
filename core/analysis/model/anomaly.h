#pragma once
// One flagged operator of a report and the enums it is told in (split from report.h so that
// AnomalyList, which Report holds, can name it).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/types.h"

namespace contend {

// What limited an operator. Order is stable (used as array index and in JSON by name).
enum class Resource : std::uint8_t { Bandwidth, Compute, Cache, Issue, Sync, Lock, Queue, Unknown, None };
inline constexpr std::size_t kResourceCount = 9;
const char* resourceName(Resource r);  // "bandwidth", "compute", ..., "none"
bool resourceFromName(std::string_view s, Resource& out);

// How a cause is known. measured: counters or per-op metrics that resolve the operator say so;
// estimated: inferred from what the trace shows (its runs beside a partner against its runs
// without, and what each operator leans on by name or args), with the evidence in words;
// unknown: nothing in the trace supports a verdict, with the reason.
enum class Provenance : std::uint8_t { Measured, Estimated, Unknown };
const char* provenanceName(Provenance p);  // "measured", "estimated", "unknown"
bool provenanceFromName(std::string_view s, Provenance& out);

// Time split of one occurrence (or a signature's sum). Parts add up to the duration.
struct Breakdown {
    TimeNs computeNs = 0;       // doing its own work (its baseline)
    TimeNs dataWaitNs = 0;      // waiting for data: bandwidth / cache stalls
    TimeNs queueNs = 0;         // queueing for compute units / issue slots
    TimeNs syncNs = 0;          // waiting on sync barriers or locks
    bool measuredData = false;  // true when the part comes from trace counters/metrics, not an estimate
    bool measuredQueue = false;
    bool measuredSync = false;
    // Added by the engine: time the operator sat queued before it started (Ascend "Wait Time",
    // Kineto launch-call end -> kernel start via correlation), ns. Measured, and outside the
    // duration, so not one of the parts above. -1 when the trace does not say.
    TimeNs waitBeforeNs = -1;
};

struct Anomaly {
    std::uint32_t id = 0;
    std::uint32_t slice = 0;      // index into Trace::slices()
    std::uint32_t signature = 0;  // index into Report::operators
    double score = 0;
    TimeNs baselineNs = 0;
    TimeNs excessNs = 0;  // dur - baseline
    Resource cause = Resource::Unknown;
    Provenance provenance = Provenance::Unknown;  // how the cause is known
    std::vector<std::uint32_t> windows;           // ids of the contention windows it was in
    Breakdown breakdown;
    // Slice-independent copies so a saved report stands alone (compare, JSON round trip).
    std::string name;
    std::string pid;  // as written in the file
    std::string tid;
    std::string trackLabel;   // "GPU 0 / stream 7"
    std::uint32_t track = 0;  // index into Trace::tracks()
    TimeNs startNs = 0;       // on the trace's own clock (file ts * 1000 + base time)
    TimeNs durNs = 0;
    std::string evidence;  // one line of what the cause rests on
    // Since report/2 (whatif.h): the end-to-end gain over the run predicted for this operator
    // alone running at its baseline, and how much later it could have ended without delaying
    // the run; -1 when not computed.
    TimeNs gainNs = -1;
    TimeNs slackNs = -1;
};

}  // namespace contend
