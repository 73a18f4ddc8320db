// A report's windows are compact rows until read (core/analysis/model/window_list.h): a re-threshold
// builds no window operator, the rows equal the windows buildWindows makes at the same thresholds
// (the chaining is written twice, so this is what keeps the two in step), the first read builds
// them all once, and a lazy report writes the same JSON and Markdown as the same windows held as a
// plain vector.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/windows.h"
#include "core/analysis/whatif/whatif.h"
#include "core/report/single/report_json.h"
#include "core/sim/run_simulation.h"
#include "report_text.h"
#include "test_support.h"

using namespace contend;

using contend::test::jsonOf;
using contend::test::markdownOf;

namespace {

// The tracks of a built window's operators, ascending, each once.
std::vector<std::uint32_t> tracksOf(const Trace& trace, const ContentionWindow& w) {
    std::vector<std::uint32_t> out;
    for (const WindowOp& op : w.ops) out.push_back(trace.slices()[op.slice].track);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::uint32_t> tracksOf(const WindowTracks& t, std::size_t w) {
    return {t.ids.begin() + t.first[w], t.ids.begin() + t.first[w + 1]};
}

// Made-up window candidates on operators [0, n): spans that overlap their neighbours, the
// resources drawn from `kinds`, ratios and payer scores spread over the thresholds.
std::vector<WindowCandidate> madeUpCandidates(std::uint32_t n, const std::vector<Resource>& kinds, std::uint64_t seed) {
    std::vector<WindowCandidate> made;
    std::uint64_t x = seed;
    auto next = [&x] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>(x >> 33);
    };
    TimeNs start = 1000;
    for (int i = 0; i < 3000; ++i) {
        WindowCandidate c;
        c.a = next() % n;
        c.b = next() % n;
        c.resource = kinds[next() % kinds.size()];
        c.fromCounters = next() % 2 == 0;
        c.ratio = static_cast<float>(next() % 1000) / 1000.0f;
        start += next() % 300;
        c.start = start;
        c.end = start + 1 + next() % 2000;
        c.payerScore = static_cast<float>(next() % 500) / 100.0f;
        c.id = static_cast<std::uint32_t>(made.size());
        made.push_back(c);
    }
    return made;
}

}  // namespace

TEST_CASE("window rows equal the windows buildWindows makes at every threshold", "[analysis][windows][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    std::size_t most = 0, severalTracks = 0;
    for (double k : {0.0, 0.5, 1.0, 3.0, 20.0})
        for (double ratio : {0.1, 0.3, 0.5, 0.7, 0.9}) {
            INFO("coefficient " << k << " overlap " << ratio);
            const std::vector<WindowRow> rows = windowRows(p->windowCandidates(), ratio, k);
            WindowTracks tracks;
            const std::vector<WindowRow> withTracks =
                windowRows(p->windowCandidates(), ratio, k, &tracks, &p->operators(), &p->trace());
            const std::vector<ContentionWindow> full =
                buildWindows(p->windowCandidates(), ratio, k, p->operators(), p->baselines(), p->causes().cause,
                             p->analysisTimelines());
            REQUIRE(rows.size() == full.size());
            REQUIRE(withTracks.size() == full.size());
            REQUIRE(tracks.first.size() == full.size() + 1);
            for (std::size_t w = 0; w < rows.size(); ++w) {
                CHECK(withTracks[w].id == rows[w].id);
                CHECK(tracksOf(tracks, w) == tracksOf(p->trace(), full[w]));
                severalTracks += tracksOf(tracks, w).size() > 1;
                CHECK(rows[w].id == full[w].id);
                CHECK(rows[w].resource == full[w].resource);
                CHECK(rows[w].start == full[w].start);
                CHECK(rows[w].end == full[w].end);
                CHECK(rows[w].fromCounters == full[w].fromCounters);
                CHECK(static_cast<double>(rows[w].overlapRatio) == full[w].overlapRatio);
            }
            most = std::max(most, rows.size());
        }
    CHECK(most > 10);  // the scenario has windows to compare
    CHECK(severalTracks > 10);

    // Candidates made up to chain a lot (the scenario's windows are mostly one pair each): spans
    // that overlap their neighbours, four resources interleaved, ratios and payer scores spread
    // over the thresholds, on the scenario's operators.
    const std::vector<WindowCandidate> made =
        madeUpCandidates(static_cast<std::uint32_t>(p->operators().size()),
                         {Resource::Bandwidth, Resource::Compute, Resource::Cache, Resource::Lock}, 12345);
    std::size_t chained = 0;
    for (double k : {0.0, 1.0, 3.0})
        for (double ratio : {0.1, 0.5, 0.9}) {
            INFO("made-up candidates, coefficient " << k << " overlap " << ratio);
            const std::vector<WindowRow> rows = windowRows(made, ratio, k);
            WindowTracks tracks;
            const std::vector<WindowRow> withTracks = windowRows(made, ratio, k, &tracks, &p->operators(), &p->trace());
            const std::vector<ContentionWindow> full =
                buildWindows(made, ratio, k, p->operators(), p->baselines(), p->causes().cause, p->analysisTimelines());
            REQUIRE(rows.size() == full.size());
            REQUIRE(withTracks.size() == full.size());
            for (std::size_t w = 0; w < rows.size(); ++w) {
                CHECK(withTracks[w].id == rows[w].id);
                CHECK(tracksOf(tracks, w) == tracksOf(p->trace(), full[w]));
                CHECK(rows[w].id == full[w].id);
                CHECK(rows[w].resource == full[w].resource);
                CHECK(rows[w].start == full[w].start);
                CHECK(rows[w].end == full[w].end);
                CHECK(rows[w].fromCounters == full[w].fromCounters);
                CHECK(static_cast<double>(rows[w].overlapRatio) == full[w].overlapRatio);
                chained += full[w].ops.size() > 4;
            }
        }
    CHECK(chained > 100);  // windows of several pairs, ends and ratios taken over many candidates
}

// buildWindows's operators and extra wait against a plain chaining and split written here, on
// made-up candidates of one resource (the entries come grouped by window: taken as they are) and
// of four interleaved (sorted by window first).
TEST_CASE("window operators and their extra wait equal a plain split, one resource or several", "[analysis][windows]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const OperatorSet& ops = p->operators();
    const BaselineResult& base = p->baselines();
    const auto& causeOf = p->causes().cause;
    const auto n = static_cast<std::uint32_t>(ops.size());
    const std::vector<Resource> one{Resource::Compute};
    const std::vector<Resource> four{Resource::Compute, Resource::Bandwidth, Resource::Cache, Resource::Lock};
    for (const auto* kindsOf : {&one, &four}) {
        const std::size_t kinds = kindsOf->size();
        const std::vector<WindowCandidate> made = madeUpCandidates(n, *kindsOf, 99 + kinds);
        for (const double ratio : {0.1, 0.6}) {
            INFO(kinds << " resource(s), overlap " << ratio);
            // The chaining: per resource, a qualifying candidate joins the open window while it
            // starts before its end. Per window (id): its start, end and each op's time.
            struct Plain {
                TimeNs start, end;
                std::map<std::uint32_t, TimeNs> timeOf;
            };
            std::map<std::uint32_t, Plain> byId;
            std::map<Resource, std::uint32_t> open;
            std::map<std::uint32_t, TimeNs> totalOf;
            for (const WindowCandidate& c : made) {
                if (c.ratio < static_cast<float>(ratio) - 1e-6f || !(static_cast<double>(c.payerScore) > 1.0)) continue;
                auto it = open.find(c.resource);
                if (it == open.end() || c.start >= byId[it->second].end) {
                    byId[c.id] = {c.start, c.end, {}};
                    open[c.resource] = c.id;
                }
                Plain& w = byId[open[c.resource]];
                w.end = std::max(w.end, c.end);
                for (const std::uint32_t op : {c.a, c.b}) {
                    w.timeOf[op] += c.end - c.start;
                    totalOf[op] += c.end - c.start;
                }
            }
            std::vector<std::pair<std::uint32_t, std::uint32_t>> membership;
            const std::vector<ContentionWindow> got =
                buildWindows(made, ratio, 1.0, ops, base, causeOf, p->analysisTimelines(), &membership);
            REQUIRE(got.size() == byId.size());
            std::vector<std::pair<std::uint32_t, std::uint32_t>> wantMembership;
            std::size_t shared = 0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const ContentionWindow& w = got[i];
                if (i > 0) CHECK(got[i - 1].start <= w.start);
                REQUIRE(byId.count(w.id) == 1);
                const Plain& want = byId[w.id];
                CHECK(w.start == want.start);
                CHECK(w.end == want.end);
                REQUIRE(w.ops.size() == want.timeOf.size());
                std::size_t j = 0;
                for (const auto& [op, t] : want.timeOf) {
                    CHECK(w.ops[j].slice == ops.slices[op]);
                    const TimeNs excess = causeOf[op] == Resource::Sync ? 0 : std::max<TimeNs>(0, base.excessNs[op]);
                    CHECK(w.ops[j].extraWaitNs == std::llround(static_cast<double>(excess) * static_cast<double>(t) /
                                                               static_cast<double>(totalOf[op])));
                    shared += t < totalOf[op] ? 1 : 0;
                    wantMembership.push_back({op, w.id});
                    ++j;
                }
            }
            CHECK(membership == wantMembership);
            CHECK(shared > 10);  // operators in several windows: their excess was split
        }
    }
}

TEST_CASE("window rows' tracks on a trace with more tracks than a bit mask holds", "[analysis][windows][lazy]") {
    // 80 threads of a Chrome trace, 12 operators each; candidates made up between any two.
    std::string json = "[";
    for (int tid = 0; tid < 80; ++tid)
        for (int i = 0; i < 12; ++i) {
            if (json.size() > 1) json += ",";
            json += R"({"ph":"X","pid":1,"tid":)" + std::to_string(tid) + R"(,"name":"op)" + std::to_string(i % 3) +
                    R"(","ts":)" + std::to_string(i * 100 + tid) + R"(,"dur":)" + std::to_string(50 + (i * tid) % 40) +
                    "}";
        }
    json += "]";
    LoadResult loaded = test::loadString(json, "eighty.json");
    REQUIRE(loaded);
    auto p = prepareAnalysis(std::move(loaded).value(), AnalysisSettings{}).value();
    REQUIRE(p);
    REQUIRE(p->trace().tracks().size() > 64);
    const auto n = static_cast<std::uint32_t>(p->operators().size());
    REQUIRE(n >= 900);
    // Every candidate qualifies at the thresholds below (ratio 0.9, payer score 5).
    std::vector<WindowCandidate> made = madeUpCandidates(n, {Resource::Bandwidth, Resource::Cache}, 777);
    for (WindowCandidate& c : made) {
        c.ratio = 0.9f;
        c.payerScore = 5;
    }
    WindowTracks tracks;
    const std::vector<WindowRow> rows = windowRows(made, 0.5, 1.0, &tracks, &p->operators(), &p->trace());
    const std::vector<ContentionWindow> full =
        buildWindows(made, 0.5, 1.0, p->operators(), p->baselines(), p->causes().cause, p->analysisTimelines());
    REQUIRE(rows.size() == full.size());
    std::size_t wide = 0;
    for (std::size_t w = 0; w < rows.size(); ++w) {
        CHECK(rows[w].id == full[w].id);
        CHECK(tracksOf(tracks, w) == tracksOf(p->trace(), full[w]));
        wide += !tracksOf(tracks, w).empty() && tracksOf(tracks, w).back() >= 64;
    }
    CHECK(wide > 10);  // tracks past a 64-bit mask's reach
}

TEST_CASE("a re-threshold builds no window, and the first read builds them all once", "[analysis][engine][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report r = buildReport(*p, 0.0, 0.3);
    REQUIRE(r.windows.size() > 10);
    CHECK(r.windows.lazy());
    CHECK(!r.windows.built());
    CHECK(r.summary.windows == r.windows.size());
    // Compact fields and the anomalies' compact fields read without building the windows.
    TimeNs span = 0;
    for (std::size_t w = 0; w < r.windows.size(); ++w) span += r.windows.end(w) - r.windows.start(w);
    CHECK(span > 0);
    for (std::size_t k = 0; k < r.anomalies.size(); ++k) CHECK(r.anomalies.score(k) > 0);
    // So do the windows' tracks (what the timeline shades).
    REQUIRE(r.windows.compactTracks());
    std::size_t joined = 0;
    for (std::size_t w = 0; w < r.windows.size(); ++w) joined += r.windows.tracks(w).size();
    CHECK(joined >= r.windows.size());
    CHECK(!r.windows.built());
    // One read builds them all, once; a copy shares them.
    const ContentionWindow& w = r.windows[3];
    CHECK(r.windows.built());
    CHECK(w.id == r.windows.id(3));
    CHECK(w.start == r.windows.start(3));
    CHECK(!w.ops.empty());
    CHECK(&r.windows[3] == &w);
    const Report copy = r;
    CHECK(&copy.windows[3] == &w);
    // An anomaly's window count needs the memberships, which come with the windows.
    const Report r2 = buildReport(*p, 0.0, 0.3);
    CHECK(!r2.windows.built());
    std::size_t in = 0;
    for (std::size_t k = 0; k < r2.anomalies.size(); ++k) in += r2.anomalies.windowCount(k);
    CHECK(in > 0);
    CHECK(r2.windows.built());
}

// The built windows' operators read their name, pid and tid from their slices, and hold one
// shared text per distinct name and per track (shared_text.h), not a string each.
TEST_CASE("window operators share one text per name and per track", "[analysis][windows][lazy]") {
    const test::SimRun& run = test::simulated(sim::Scenario::Mixed, false, 3);
    auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report r = buildReport(*p, 0.0, 0.3);
    const Trace& t = *run.trace;
    std::map<std::string, const char*> nameBlock, pidBlock;
    std::size_t ops = 0, sharedNames = 0;
    for (const ContentionWindow& w : r.windows)
        for (const WindowOp& o : w.ops) {
            ++ops;
            const Slice& s = t.slices()[o.slice];
            const Track& tr = t.tracks()[s.track];
            REQUIRE(o.name == t.str(s.name));
            CHECK(o.pid == tr.pid);
            CHECK(o.tid == tr.tid);
            CHECK(o.startNs == s.start);
            CHECK(o.durNs == s.dur);
            const auto [it, added] = nameBlock.try_emplace(o.name.str(), o.name.data());
            if (!added) {
                CHECK(it->second == o.name.data());
                ++sharedNames;
            }
            const auto [pit, padded] = pidBlock.try_emplace(tr.pid + "/" + tr.tid, o.tid.data());
            if (!padded) CHECK(pit->second == o.tid.data());
        }
    REQUIRE(ops > 20);
    CHECK(sharedNames > 0);
    // Read back from report/4, the operators share one text per entry of its string table.
    const Result<Report> back = reportFromJson(nlohmann::json::parse(reportJsonText(r, &t)));
    REQUIRE(back);
    std::map<std::string, const char*> readBlock;
    std::size_t readShared = 0;
    for (const ContentionWindow& w : back->windows)
        for (const WindowOp& o : w.ops) {
            const auto [it, added] = readBlock.try_emplace(o.name.str(), o.name.data());
            if (!added) {
                CHECK(it->second == o.name.data());
                ++readShared;
            }
        }
    CHECK(readShared == sharedNames);
    // A copy of a text is the same block; texts built apart compare by their bytes.
    const SharedText a("kernel"), b = a, c(std::string("kernel"));
    CHECK(a.data() == b.data());
    CHECK(a.data() != c.data());
    CHECK(a == c);
    CHECK(SharedText().empty());
    CHECK(SharedText("") == "");
    CHECK("x " + a + " y" == "x kernel y");
}

// edit() (window_list.h) takes the built windows from the source only when no copy of the list
// shares it: a copy edited first copies them and leaves the rest of the copies reading the
// source; the last list takes them. Both owned lists hold the same windows, and the anomalies'
// memberships (kept by the source) still read after the take.
TEST_CASE("an edited lazy window list takes the windows only when no copy shares them", "[analysis][windows][lazy]") {
    struct Counting : WindowSource {
        std::vector<ContentionWindow> made;
        mutable int takes = 0, reads = 0;
        const std::vector<ContentionWindow>& windows() const override {
            ++reads;
            return made;
        }
        std::vector<ContentionWindow> take() const override {
            ++takes;
            return WindowSource::take();
        }
        bool built() const override { return true; }
    };
    auto source = std::make_shared<Counting>();
    source->made.resize(3);
    for (std::uint32_t k = 0; k < 3; ++k) source->made[k].id = 10 + k;
    std::vector<WindowRow> rows(3);
    WindowList first(source, rows);
    WindowList second = first;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
    second.edit();
    CHECK(source->takes == 0);
    CHECK(!second.lazy());
    CHECK(first.lazy());
    first.edit();
    CHECK(source->takes == 1);
    REQUIRE(first.size() == 3);
    CHECK(first[2].id == 12);
    CHECK(second[2].id == 12);

    // On a prepared analysis: the report's list takes them, a copy of the report made before
    // copies them, and both write the same JSON.
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    Report r = buildReport(*p, 0.0, 0.3);
    REQUIRE(r.windows.size() > 10);
    Report kept = r;
    kept.windows.edit();
    r.windows.edit();
    CHECK(jsonOf(r, p->trace()) == jsonOf(kept, p->trace()));
    std::size_t in = 0;
    for (std::size_t k = 0; k < r.anomalies.size(); ++k) in += r.anomalies.windowCount(k);
    CHECK(in > 0);
}

TEST_CASE("lazy windows equal the same windows held as a vector, and write the same JSON and Markdown",
          "[analysis][engine][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    for (double k : {0.0, 1.0, 3.0}) {
        INFO("coefficient " << k);
        const Report lazy = buildReport(*p, k, 0.5);
        REQUIRE(lazy.windows.lazy());
        // The windows built the eager way, before this list: the same operators and memberships.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> membership;
        const std::vector<ContentionWindow> full =
            buildWindows(p->windowCandidates(), 0.5, k, p->operators(), p->baselines(), p->causes().cause,
                         p->analysisTimelines(), &membership);
        REQUIRE(full.size() == lazy.windows.size());
        std::size_t evidence = 0;
        for (std::size_t w = 0; w < full.size(); ++w) {
            const ContentionWindow& x = lazy.windows[w];
            CHECK(x.id == full[w].id);
            REQUIRE(x.ops.size() == full[w].ops.size());
            for (std::size_t o = 0; o < x.ops.size(); ++o) {
                CHECK(x.ops[o].slice == full[w].ops[o].slice);
                CHECK(x.ops[o].extraWaitNs == full[w].ops[o].extraWaitNs);
                CHECK(x.ops[o].name == p->trace().str(p->trace().slices()[x.ops[o].slice].name));
            }
            CHECK(x.peakUtilization == full[w].peakUtilization);
            evidence += !x.evidence.empty();
        }
        CHECK(evidence == std::min(full.size(), kEvidenceTop));
        // Each anomaly lists the windows its operator is in, ids ascending.
        std::vector<std::vector<std::uint32_t>> windowsOfOp(p->operators().size());
        for (const auto& [op, wid] : membership) windowsOfOp[op].push_back(wid);
        std::size_t listed = 0;
        for (std::size_t a = 0; a < lazy.anomalies.size(); ++a) {
            const std::uint32_t op = p->operators().opOfSlice[lazy.anomalies.slice(a)];
            CHECK(lazy.anomalies[a].windows == windowsOfOp[op]);
            listed += windowsOfOp[op].size();
        }
        if (k == 0.0) CHECK(listed > 0);
        Report owned = lazy;
        owned.windows.edit();  // into a plain vector
        REQUIRE(!owned.windows.lazy());
        CHECK(jsonOf(lazy, p->trace()) == jsonOf(owned, p->trace()));
        CHECK(markdownOf(lazy, p->trace()) == markdownOf(owned, p->trace()));
        // A changed owned window is a different report: the comparison above can fail.
        if (!owned.windows.empty()) {
            owned.windows.edit(0).ops.front().extraWaitNs += 1;
            CHECK(jsonOf(lazy, p->trace()) != jsonOf(owned, p->trace()));
        }
    }
}

// findWindowCandidates (windows.h) makes each pair's candidate where the overlap sweep found it,
// visiting the ops in start order: the candidates must come in the pairs' order (start, then a,
// then b) with nothing sorted afterwards, each on a real pair with that pair's span. Starts put on
// a coarse grid make many ops on different streams start together, the ties the (a, b) order is
// for; the same trace as simulated has almost none.
TEST_CASE("window candidates come in the pairs' order, ties between equal starts included", "[analysis][windows]") {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("contend-candidates-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::size_t made = 0, tiedCandidates = 0, tiedPairs = 0;
    for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Cache})
        for (const sim::CounterMode counters : {sim::CounterMode::Full, sim::CounterMode::None})
            for (const std::uint64_t seed : {1u, 2u}) {
                sim::SimulationRequest req;
                req.scenario = scenario;
                req.seed = seed;
                req.counters = counters;
                req.iterations = 30;
                req.tracePath = (dir / "t.json").string();
                req.truthPath = (dir / "t.truth.json").string();
                REQUIRE(sim::runSimulation(req).ok());
                nlohmann::json doc = nlohmann::json::parse(test::slurp(req.tracePath));
                for (const double grid : {0.0, 10.0, 50.0}) {  // us
                    INFO("scenario " << static_cast<int>(scenario) << " counters " << static_cast<int>(counters)
                                     << " seed " << seed << " grid " << grid << " us");
                    nlohmann::json gridded = doc;
                    if (grid > 0)
                        for (auto& e : gridded["traceEvents"])
                            if (e.value("ph", "") == "X" && e.contains("ts"))
                                e["ts"] = std::floor(e["ts"].get<double>() / grid) * grid;
                    LoadResult lr = test::loadString(gridded.dump());
                    REQUIRE(lr);
                    auto p = prepareAnalysis(lr.value(), AnalysisSettings{}).value();
                    REQUIRE(p);
                    const std::vector<OverlapPair> pairs = listPairs(p->trace(), p->operators(), p->overlaps());
                    std::map<std::pair<std::uint32_t, std::uint32_t>, OverlapPair> pairOf;
                    for (const OverlapPair& pr : pairs) pairOf[{pr.a, pr.b}] = pr;
                    const std::vector<WindowCandidate>& c = p->windowCandidates();
                    made += c.size();
                    bool ordered = true, onPairs = true;
                    for (std::size_t i = 0; i < c.size(); ++i) {
                        const auto it = pairOf.find({c[i].a, c[i].b});
                        onPairs = onPairs && it != pairOf.end() && it->second.start == c[i].start &&
                                  it->second.end == c[i].end;
                        if (i > 0) {
                            ordered = ordered && std::tie(c[i - 1].start, c[i - 1].a, c[i - 1].b) <
                                                     std::tie(c[i].start, c[i].a, c[i].b);
                            if (c[i - 1].start == c[i].start) ++tiedCandidates;
                        }
                        const Trace& t = p->trace();
                        const auto& sl = t.slices();
                        if (sl[p->operators().slices[c[i].a]].start == sl[p->operators().slices[c[i].b]].start)
                            ++tiedPairs;
                    }
                    CHECK(ordered);
                    CHECK(onPairs);
                }
            }
    std::filesystem::remove_all(dir);
    // The grid made ties, and pairs of ops that start together were found (at the later op of
    // the order, never twice: the strict order above).
    CHECK(made > 500);
    CHECK(tiedCandidates > 20);
    CHECK(tiedPairs > 100);
}
