#include "core/analysis/ranks/rank_merge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace contend {

namespace {

constexpr double kMadToSigma = 1.4826;

TimeNs medianOf(std::vector<TimeNs> v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const TimeNs hi = v[mid];
    if (v.size() % 2) return hi;
    const TimeNs lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return lo + (hi - lo) / 2;
}

std::string microseconds(TimeNs ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f us", static_cast<double>(ns) / 1e3);
    return buf;
}

// The short name of an operator for a sentence: up to its argument list, without templates'
// "void " prefix.
std::string shortName(const std::string& name) {
    std::string n = name.rfind("void ", 0) == 0 ? name.substr(5) : name;
    const std::size_t cut = n.find_first_of("<(");
    if (cut != std::string::npos && cut > 0) n = n.substr(0, cut);
    return n;
}

// Per rank, per step: its collectives in start order, as (key, index into distributed).
struct RankSteps {
    std::map<std::uint32_t, std::vector<std::uint32_t>> byStep;
    std::map<std::uint32_t, const IterationStats*> steps;
};

}  // namespace

std::string collectiveKey(const std::string& name) {
    const std::size_t cut = name.find("__");
    if (name.rfind("hcom_", 0) == 0 && cut != std::string::npos) return name.substr(0, cut);
    return name;
}

namespace {

// A rank whose report says its input was partial: what it holds against the others, and that the
// job's verdict rests on it.
ClusterNote partialRankNote(const std::vector<RankInput>& ranks, std::size_t r) {
    std::vector<TimeNs> others;
    for (std::size_t o = 0; o < ranks.size(); ++o)
        if (o != r && ranks[o].partial.empty())
            others.push_back(static_cast<TimeNs>(ranks[o].distributed.collectives.size()));
    const RankInput& in = ranks[r];
    std::string text = "rank " + std::to_string(in.rank) + " rests on a partial trace (" +
                       in.partial.substr(0, in.partial.find(':')) + "): it holds " +
                       std::to_string(in.iterations.size()) + " steps and " +
                       std::to_string(in.distributed.collectives.size()) + " collectives";
    if (!others.empty()) {
        std::size_t steps = 0;
        for (std::size_t o = 0; o < ranks.size(); ++o)
            if (o != r && ranks[o].partial.empty()) steps = std::max(steps, ranks[o].iterations.size());
        text += ", where the whole ranks hold up to " + std::to_string(steps) + " steps and a median of " +
                std::to_string(medianOf(others)) + " collectives";
    }
    text += ": the job's verdict rests on a partial rank (its report's note is in the rank's \"partial\")";
    return {"partial-rank", text};
}

}  // namespace

const std::string* RankNotComputed::why(const std::string& section) const {
    for (const auto& [name, text] : sections)
        if (name == section) return &text;
    return nullptr;
}

RankInput rankInputFromReport(const Report& report, std::string source, int rankOverride) {
    RankInput in;
    in.source = std::move(source);
    in.trace = report.trace.path;
    in.distributed = report.distributed;
    in.rank = rankOverride >= 0 ? rankOverride : report.distributed.rank;
    in.iterations = report.iterations;
    if (const ReportNote* n = partialInputNote(report.notes)) in.partial = n->kind + ": " + n->text;
    in.temporal = report.breakdowns.temporal.rows;
    in.commCompOverlap = report.breakdowns.commCompOverlap.rows;
    in.idle = report.breakdowns.idle.rows;
    in.queueLength = report.breakdowns.queueLength.rows;
    for (const char* section : kRankBreakdownSections) {
        if (report.breakdowns.empty()) {  // a report written before the breakdowns
            in.notComputed.emplace_back(section, "its report has no breakdowns (written before Contend computed them)");
            continue;
        }
        for (const auto& [name, why] : report.breakdowns.reasons())
            if (std::string(name) == section && !why->empty()) in.notComputed.emplace_back(section, *why);
    }
    for (const ContentionWindow& w : report.windows) {
        RankFinding f;
        f.startNs = w.start;
        f.endNs = w.end;
        f.resource = w.resource;
        f.provenance = w.provenance;
        f.window = true;
        TimeNs best = -1;
        for (const WindowOp& op : w.ops) {
            f.extraWaitNs += op.extraWaitNs;
            if (op.extraWaitNs > best) {
                best = op.extraWaitNs;
                f.op = op.name;
            }
        }
        in.findings.push_back(std::move(f));
    }
    for (const Anomaly& a : report.anomalies) {
        if (!a.windows.empty()) continue;
        RankFinding f;
        f.startNs = a.startNs;
        f.endNs = a.startNs + a.durNs;
        f.resource = a.cause;
        f.provenance = a.provenance;
        f.op = a.name;
        f.extraWaitNs = a.excessNs;
        in.findings.push_back(std::move(f));
    }
    std::sort(in.findings.begin(), in.findings.end(),
              [](const RankFinding& a, const RankFinding& b) { return a.startNs < b.startNs; });
    return in;
}

ClusterReport mergeRanks(std::vector<RankInput> ranks, const RankMergeSettings& settings) {
    ClusterReport out;
    out.settings = settings;
    std::sort(ranks.begin(), ranks.end(), [](const RankInput& a, const RankInput& b) { return a.rank < b.rank; });
    const std::size_t R = ranks.size();
    std::vector<RankSteps> idx(R);
    for (std::size_t r = 0; r < R; ++r) {
        out.ranks.push_back(ranks[r].rank);
        out.sources.push_back(ranks[r].source);
        out.traces.push_back(ranks[r].trace);
        out.collectivesPerRank.push_back(ranks[r].distributed.collectives.size());
        out.partial.push_back(ranks[r].partial);
        for (RankTemporal t : ranks[r].temporal) {  // the rank as numbered here (the caller's)
            t.rank = ranks[r].rank;
            out.temporal.push_back(t);
        }
        for (RankOverlap o : ranks[r].commCompOverlap) {
            o.rank = ranks[r].rank;
            out.commCompOverlap.push_back(o);
        }
        for (StreamIdle s : ranks[r].idle) {
            s.rank = ranks[r].rank;
            out.idle.push_back(s);
        }
        for (StreamQueue q : ranks[r].queueLength) {
            q.rank = ranks[r].rank;
            out.queueLength.push_back(q);
        }
        if (!ranks[r].notComputed.empty()) out.breakdownsNotComputed.push_back({ranks[r].rank, ranks[r].notComputed});
        for (const IterationStats& it : ranks[r].iterations) idx[r].steps[it.index] = &it;
        const auto& runs = ranks[r].distributed.collectives;
        for (std::uint32_t c = 0; c < runs.size(); ++c) idx[r].byStep[runs[c].iteration].push_back(c);
    }
    for (std::size_t r = 0; r < R; ++r)
        if (!ranks[r].partial.empty()) out.notes.push_back(partialRankNote(ranks, r));
    if (R < 2) out.notes.push_back({"one-rank", "only one rank: nothing to compare it with"});
    int world = 0;
    bool worldsDiffer = false;
    for (const RankInput& in : ranks) {
        if (in.distributed.worldSize <= 0) continue;
        if (world && in.distributed.worldSize != world) worldsDiffer = true;
        world = in.distributed.worldSize;
    }
    if (worldsDiffer)
        out.notes.push_back({"world-sizes-differ", "the ranks say different world sizes: they may not be one job"});
    else if (world > 0 && static_cast<int>(R) < world)
        out.notes.push_back(
            {"ranks-missing", std::to_string(R) + " of the job's " + std::to_string(world) + " ranks were merged"});

    // Every step any rank has, in order.
    std::map<std::uint32_t, int> stepCount;
    for (const RankSteps& s : idx)
        for (const auto& [i, _] : s.steps) ++stepCount[i];

    bool anyMatched = false;
    bool tooFewForTest = false;
    for (const auto& [step, count] : stepCount) {
        // Ranks with this step; their collectives by (key, ordinal).
        std::vector<std::size_t> have;
        for (std::size_t r = 0; r < R; ++r)
            if (idx[r].steps.count(step)) have.push_back(r);
        std::map<std::pair<std::string, std::uint32_t>, std::vector<std::pair<std::size_t, std::uint32_t>>> matched;
        std::vector<std::pair<std::string, std::uint32_t>> order;  // first rank's order
        for (std::size_t r : have) {
            auto it = idx[r].byStep.find(step);
            if (it == idx[r].byStep.end()) continue;
            std::map<std::string, std::uint32_t> seen;
            const RankInput& in = ranks[r];
            for (std::uint32_t c : it->second) {
                const std::string key =
                    collectiveKey(in.distributed.collectiveNames[in.distributed.collectives[c].name]);
                const std::uint32_t ord = seen[key]++;
                auto& slot = matched[{key, ord}];
                if (slot.empty()) order.emplace_back(key, ord);
                slot.emplace_back(r, c);
            }
        }
        // Waits per rank in this step, from collectives every rank of the step ran.
        std::vector<TimeNs> wait(R, 0);
        struct Pending {
            ClusterCollective c;
            std::vector<std::pair<std::size_t, std::uint32_t>> runs;
        };
        std::vector<Pending> pending;
        for (const auto& key : order) {
            const auto& runs = matched[key];
            if (runs.size() < 2 || runs.size() != have.size()) continue;
            anyMatched = true;
            Pending p;
            p.runs = runs;
            ClusterCollective& c = p.c;
            c.iteration = step;
            c.key = key.first;
            c.ordinal = key.second;
            c.ranks = static_cast<std::uint32_t>(runs.size());
            TimeNs minDur = kTimeMax, second = kTimeMax;
            for (const auto& [r, k] : runs) {
                const TimeNs d = ranks[r].distributed.collectives[k].durNs;
                if (d < minDur) {
                    second = minDur;
                    minDur = d;
                    c.lateRank = ranks[r].rank;
                    c.lateStartNs = ranks[r].distributed.collectives[k].startNs;
                    c.name = ranks[r].distributed.collectiveNames[ranks[r].distributed.collectives[k].name];
                } else if (d < second) {
                    second = d;
                }
            }
            c.lateByNs = second == kTimeMax ? 0 : second - minDur;
            TimeNs sum = 0;
            for (const auto& [r, k] : runs) {
                const TimeNs w = ranks[r].distributed.collectives[k].durNs - minDur;
                wait[r] += w;
                sum += w;
                c.maxWaitNs = std::max(c.maxWaitNs, w);
            }
            c.meanWaitNs = sum / static_cast<TimeNs>(runs.size() - 1);
            pending.push_back(std::move(p));
        }

        ClusterIteration ci;
        ci.index = step;
        std::vector<TimeNs> compute;
        for (std::size_t r : have) {
            const IterationStats& s = *idx[r].steps[step];
            RankStep rs;
            rs.rank = ranks[r].rank;
            rs.stepNs = s.end - s.start;
            rs.waitNs = wait[r];
            rs.computeNs = rs.stepNs - rs.waitNs;
            compute.push_back(rs.computeNs);
            ci.ranks.push_back(rs);
        }
        ci.medianComputeNs = medianOf(compute);
        std::vector<TimeNs> dev;
        dev.reserve(compute.size());
        for (TimeNs x : compute) dev.push_back(std::llabs(x - ci.medianComputeNs));
        ci.madComputeNs = medianOf(dev);
        if (!compute.empty()) {
            const auto [lo, hi] = std::minmax_element(compute.begin(), compute.end());
            double mean = 0;
            for (TimeNs x : compute) mean += static_cast<double>(x);
            mean /= static_cast<double>(compute.size());
            ci.spread = mean > 0 ? static_cast<double>(*hi - *lo) / mean : 0;
        }
        if (have.size() >= 3) {
            // The MAD is floored at minExcess of the median: a handful of ranks that happen to
            // agree closely must not make a 1% difference "slow".
            const double margin = settings.k * kMadToSigma *
                                  std::max(static_cast<double>(ci.madComputeNs),
                                           settings.minExcess * static_cast<double>(ci.medianComputeNs));
            ci.thresholdNs = ci.medianComputeNs + static_cast<TimeNs>(std::ceil(margin));
            for (RankStep& rs : ci.ranks) rs.slow = rs.slowCompute = rs.computeNs > ci.thresholdNs;
        } else {
            tooFewForTest = true;
        }

        // Held up: the last rank came later than the one before it by more than k robust
        // spreads of the others' arrivals (and minExcess of the median compute).
        for (Pending& p : pending) {
            ClusterCollective& c = p.c;
            if (p.runs.size() < 3) continue;
            std::vector<TimeNs> others;
            TimeNs minDur = kTimeMax;
            for (const auto& [r, k] : p.runs) minDur = std::min(minDur, ranks[r].distributed.collectives[k].durNs);
            bool skipped = false;
            for (const auto& [r, k] : p.runs) {
                if (!skipped && ranks[r].rank == c.lateRank) {
                    skipped = true;
                    continue;
                }
                others.push_back(ranks[r].distributed.collectives[k].durNs - minDur);
            }
            const TimeNs med = medianOf(others);
            std::vector<TimeNs> dev;
            dev.reserve(others.size());
            for (TimeNs w : others) dev.push_back(std::llabs(w - med));
            c.spreadNs = static_cast<TimeNs>(kMadToSigma * static_cast<double>(medianOf(dev)));
            c.heldUp = static_cast<double>(c.lateByNs) > settings.k * static_cast<double>(c.spreadNs) &&
                       static_cast<double>(c.lateByNs) > settings.minExcess * static_cast<double>(ci.medianComputeNs);
            if (!c.heldUp) continue;
            for (RankStep& rs : ci.ranks)
                if (rs.rank == c.lateRank) rs.slow = true;
        }
        for (const RankStep& rs : ci.ranks) {
            if (!rs.slow) continue;
            auto sr = std::find_if(out.slowRanks.begin(), out.slowRanks.end(),
                                   [&](const SlowRank& s) { return s.rank == rs.rank; });
            if (sr == out.slowRanks.end()) {
                out.slowRanks.push_back({rs.rank, {}, 0});
                sr = out.slowRanks.end() - 1;
            }
            sr->iterations.push_back(step);
            sr->excessNs += std::max<TimeNs>(0, rs.computeNs - ci.medianComputeNs);
        }

        // Why each held-up collective waited: the late rank's biggest finding in the step before it.
        for (Pending& p : pending) {
            ClusterCollective& c = p.c;
            if (c.heldUp) {
                std::size_t lr = 0;
                for (std::size_t r = 0; r < R; ++r)
                    if (ranks[r].rank == c.lateRank) lr = r;
                const RankInput& in = ranks[lr];
                // From the step's start: a delay early in the step carries to every later
                // collective of the rank.
                const TimeNs from = idx[lr].steps[step]->start;
                const RankFinding* best = nullptr;
                for (const RankFinding& f : in.findings) {
                    if (f.endNs < from || f.startNs > c.lateStartNs) continue;
                    if (!best || (f.window && !best->window) ||
                        (f.window == best->window && f.extraWaitNs > best->extraWaitNs))
                        best = &f;
                }
                const std::string head = "rank " + std::to_string(c.lateRank) + " arrived " + microseconds(c.lateByNs) +
                                         " late at " + shortName(c.name) + " #" + std::to_string(c.ordinal) +
                                         " in step " + std::to_string(step);
                if (best) {
                    c.hasCause = true;
                    c.cause.finding = *best;
                    c.cause.text = head + " because its " + shortName(best->op) + " was slowed by a " +
                                   resourceName(best->resource) + (best->window ? " window" : " anomaly") + " there (" +
                                   provenanceName(best->provenance) + ")";
                } else {
                    c.cause.text = head + "; its report holds no finding in the step before it";
                }
            }
            out.collectives.push_back(std::move(c));
        }
        out.iterations.push_back(std::move(ci));
    }
    std::sort(out.slowRanks.begin(), out.slowRanks.end(),
              [](const SlowRank& a, const SlowRank& b) { return a.excessNs > b.excessNs; });
    if (R >= 2 && !anyMatched)
        out.notes.push_back({"no-matched-collectives",
                             "no collective was found on every rank of a step: waits are not known, so compute "
                             "time is the step's span"});
    if (tooFewForTest)
        out.notes.push_back({"too-few-ranks",
                             "steps held by fewer than 3 ranks have no slow-rank test (a median and "
                             "its spread need at least 3)"});
    return out;
}

}  // namespace contend
