#pragma once
// Contention windows: spans where operators on different tracks used the same resource at the
// same time while it was saturated, and somebody paid for it.
//
// A window is reported only where its operators were measurably slower than their baselines
// while they overlapped, and it always names its resource and how that is known.
//
// Candidates, from the sweep line's pairs (never all pairs); a pair needs a payer: an operator
// of the pair that paid (duration above its baseline by at least one spread and kPaidFraction
// of the baseline) and is not a collective (a collective waiting for peers pays no neighbour).
//   measured  a resource r whose counter resolves both operators was under pressure during
//             the shared span: its counter reached its high threshold there, and
//               bandwidth, compute, issue: both use r (own demand >= kUseThreshold) and the
//                 operators running during the shared span asked for more than r has (sum of
//                 own demands >= 1 + kOverload): a saturated counter alone may be one operator
//                 using all of it, and two that fit together (0.98) are not contending;
//               cache: the cache was more thrashed during the shared span than either thrashes
//                 it alone.
//             The pair keeps its best resource: the payer's cause, else the highest ratio.
//   estimated the payer's cause is estimated from the partner the data links to its slow runs
//             (exposure.h, causes.h), and the other operator of the pair is that partner (its
//             signature, or its character for a character factor): resource = the payer's
//             cause (bandwidth, compute, cache, issue, lock, queue; never unknown or sync).
// Overlap ratio = shared span / min(duration of a, duration of b) (an operator's
// high-utilisation period is its run: a trace has no per-op use over time).
//
// Thresholding (cheap, per slider move): candidates whose ratio reaches the overlap threshold
// and whose payer is an anomaly at the coefficient are chained in time per resource into
// windows (pairs whose spans touch join one window, so a window may hold a group of
// operators). Each operator's excess (duration - baseline, when positive; 0 for a collective)
// is split over the windows it is in, in proportion to its time in each.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/analysis/findings/causes.h"
#include "core/analysis/inputs/overlap.h"
#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/model/report.h"
#include "core/analysis/scoring/baseline.h"
#include "core/analysis/scoring/pressure.h"

namespace contend {

inline constexpr double kPaidFraction = 0.03;  // of the baseline

struct WindowCandidate {
    std::uint32_t a = 0;  // op indices
    std::uint32_t b = 0;
    Resource resource = Resource::Unknown;
    bool fromCounters = false;  // measured
    float ratio = 0;
    TimeNs start = 0;  // shared span
    TimeNs end = 0;
    // The highest score of a paying operator in the pair, checked against the coefficient when
    // thresholding: a window needs an anomaly.
    float payerScore = 0;
    // Its index among all the pairs' candidates: the id of a window it opens. Its position in
    // the list unless the low-scored ones were left out (findWindowCandidates).
    std::uint32_t id = 0;
};

// True when the op paid measurably for something: used by windows and causes.
bool paid(const BaselineResult& base, const OperatorSet& ops, std::uint32_t op);

// Candidates in the pairs' order (start, then a, then b): a window's id is the id (the index
// among all of them) of the candidate that opened it. keepGoing (optional) is asked every 64k
// operators; a stop leaves a partial result to discard. Those whose payer scores at or below
// `lowestCoefficient` can never qualify at a coefficient at or above it and are left out (their
// ids too: the others keep theirs); -infinity keeps all (a caller that re-thresholds anywhere).
std::vector<WindowCandidate> findWindowCandidates(const CauseInputs& in, const CauseResult& causes,
                                                  const std::function<bool()>& keepGoing = {},
                                                  double lowestCoefficient = -std::numeric_limits<double>::infinity());

// findWindowCandidates in parts for two cores (the engine runs it beside the patterns): the
// sweep's order is cut into parts at changes of start time; sweepFront() takes parts from the
// front into the result, sweepBack() (on another thread) from the back into a list of its own,
// until they meet, so neither waits for the other; take() joins them, the back's candidates
// numbered on after the front's: the same list as findWindowCandidates. `cancelled` is asked
// before each part a sweep takes and, by take(), before each part the back swept is joined: on
// the first core, once per part and once more, however the parts fell between the cores. Each
// returns false when it stopped (the result is then partial).
class CandidateSweep {
  public:
    // `partOps`: the ops of a part, at least (a test makes many small parts); at most 64 parts.
    CandidateSweep(const CauseInputs& in, const CauseResult& causes,
                   double lowestCoefficient = -std::numeric_limits<double>::infinity(),
                   std::uint32_t partOps = 1u << 14);
    ~CandidateSweep();
    CandidateSweep(const CandidateSweep&) = delete;
    CandidateSweep& operator=(const CandidateSweep&) = delete;
    bool sweepFront(const std::function<bool()>& cancelled);
    bool sweepBack(const std::function<bool()>& cancelled);
    // After both sweeps have returned: the candidates into `into`.
    bool take(std::vector<WindowCandidate>& into, const std::function<bool()>& cancelled = {});

  private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

// Windows for one overlap-ratio threshold (and, for slowdown-only candidates, the anomaly
// coefficient), in start order. A window's id is the id (WindowCandidate::id) of the candidate
// that opened it (its first qualifying candidate), so it depends on the window itself, not on
// how many windows qualify before it: moving the thresholds keeps a window's id as long as
// that candidate still qualifies and no earlier one chains into it. Ids ascend with start
// order but have gaps. Fills WindowOp slice
// indices and extra wait (names and times are the engine's business). `membership`, when
// given, receives (op, window id) for every operator in a window, in window order (ids
// ascending), by op within a window.
std::vector<ContentionWindow> buildWindows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                           double coefficient, const OperatorSet& ops, const BaselineResult& base,
                                           const std::vector<Resource>& causeOf, const ResourceTimelines& timelines,
                                           std::vector<std::pair<std::uint32_t, std::uint32_t>>* membership = nullptr);

// Fills the window operators' names, pids, tids and times from their slices: one shared text
// per distinct name and per track's pid and tid (shared_text.h), not a string per operator.
void nameWindowOps(const Trace& trace, std::vector<ContentionWindow>& windows);

// The same windows' compact rows (window_list.h), in the same order, without their operators: one
// pass over the candidates, the slider step's share of buildWindows. With `tracks`, also the
// tracks of each window's operators (those buildWindows lists: its candidates' two), read
// through `ops` and `trace`.
std::vector<WindowRow> windowRows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                  double coefficient, WindowTracks* tracks = nullptr, const OperatorSet* ops = nullptr,
                                  const Trace* trace = nullptr);

// How a window is known, in words: the counters' reading for a measured one, the paying
// operator's evidence for an estimated one.
std::string windowEvidence(const CauseInputs& in, const CauseResult& causes, const ContentionWindow& w);

}  // namespace contend
