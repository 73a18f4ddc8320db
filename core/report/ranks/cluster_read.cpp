// Reading a contend.cluster/1 document back into a ClusterReport (core/report/ranks/cluster_report.h).
// Every number is range-checked (a file we did not write may hold 3e126 where a time belongs, or
// a negative count) and every error names the place: "collectives/4: \"late_rank\" ...".
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <type_traits>

#include "core/common/json_fields.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/producer_json.h"
#include "core/report/ranks/cluster_report.h"

namespace contend {

using nlohmann::json;

namespace {

using namespace jsonfields;

std::string at(const char* array, std::size_t i) { return std::string(array) + "/" + std::to_string(i); }

RankFinding readFinding(const json& f, const std::string& where) {
    RankFinding out;
    const std::string kind = getString(f, "kind", where);
    if (kind != "window" && kind != "anomaly") throw JsonFieldError{where + ": unknown kind \"" + kind + "\""};
    out.window = kind == "window";
    out.op = getString(f, "op", where);
    const std::string res = getString(f, "resource", where);
    if (!resourceFromName(res, out.resource)) throw JsonFieldError{where + ": unknown resource \"" + res + "\""};
    const std::string prov = getString(f, "provenance", where);
    if (!provenanceFromName(prov, out.provenance))
        throw JsonFieldError{where + ": unknown provenance \"" + prov + "\""};
    out.startNs = getInt<TimeNs>(f, "start_ns", where);
    out.endNs = getInt<TimeNs>(f, "end_ns", where);
    out.extraWaitNs = getInt<TimeNs>(f, "extra_wait_ns", where);
    return out;
}

void readRanks(const json& j, ClusterReport& c) {
    const json& ranks = needArray(j, "ranks", "cluster");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string w = at("ranks", i);
        c.ranks.push_back(getInt<int>(ranks[i], "rank", w, 0));
        c.sources.push_back(getString(ranks[i], "report", w));
        c.collectivesPerRank.push_back(getInt<std::size_t>(ranks[i], "collectives", w));
        c.traces.push_back(ranks[i].contains("trace") ? getString(ranks[i], "trace", w) : std::string());
        c.partial.push_back(ranks[i].contains("partial") ? getString(ranks[i], "partial", w) : std::string());
    }
}

void readIterations(const json& j, ClusterReport& c) {
    const json& its = needArray(j, "iterations", "cluster");
    for (std::size_t i = 0; i < its.size(); ++i) {
        const std::string w = at("iterations", i);
        ClusterIteration it;
        it.index = getInt<std::uint32_t>(its[i], "index", w);
        it.medianComputeNs = getInt<TimeNs>(its[i], "median_compute_ns", w);
        it.madComputeNs = getInt<TimeNs>(its[i], "mad_compute_ns", w, 0);
        it.thresholdNs = getInt<TimeNs>(its[i], "threshold_ns", w, 0);
        it.spread = getNumber(its[i], "spread", w);
        const json& per = needArray(its[i], "ranks", w);
        for (std::size_t r = 0; r < per.size(); ++r) {
            const std::string wr = w + "/" + at("ranks", r);
            RankStep s;
            s.rank = getInt<int>(per[r], "rank", wr, 0);
            s.stepNs = getInt<TimeNs>(per[r], "step_ns", wr);
            s.waitNs = getInt<TimeNs>(per[r], "wait_ns", wr, 0);
            s.computeNs = getInt<TimeNs>(per[r], "compute_ns", wr);
            s.slowCompute = getBool(per[r], "slow_compute", wr);
            s.slow = getBool(per[r], "slow", wr);
            it.ranks.push_back(s);
        }
        c.iterations.push_back(std::move(it));
    }
}

void readSlowRanks(const json& j, ClusterReport& c) {
    const json& slow = needArray(j, "slow_ranks", "cluster");
    for (std::size_t i = 0; i < slow.size(); ++i) {
        const std::string w = at("slow_ranks", i);
        SlowRank s;
        s.rank = getInt<int>(slow[i], "rank", w, 0);
        const json& its = needArray(slow[i], "iterations", w);
        for (const json& x : its) s.iterations.push_back(integerOf<std::uint32_t>(x, "iterations", w));
        s.excessNs = getInt<TimeNs>(slow[i], "excess_ns", w, 0);
        c.slowRanks.push_back(std::move(s));
    }
}

void readCollectives(const json& j, ClusterReport& c) {
    const json& cols = needArray(j, "collectives", "cluster");
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const json& x = cols[i];
        const std::string w = at("collectives", i);
        ClusterCollective k;
        k.iteration = getInt<std::uint32_t>(x, "iteration", w);
        k.name = getString(x, "name", w);
        k.key = getString(x, "key", w);
        k.ordinal = getInt<std::uint32_t>(x, "ordinal", w);
        k.ranks = getInt<std::uint32_t>(x, "ranks", w);
        k.lateRank = getInt<int>(x, "late_rank", w, 0);
        k.lateByNs = getInt<TimeNs>(x, "late_by_ns", w, 0);
        k.lateStartNs = getIntOr<TimeNs>(x, "late_start_ns", w, 0);
        k.maxWaitNs = getInt<TimeNs>(x, "max_wait_ns", w, 0);
        k.meanWaitNs = getInt<TimeNs>(x, "mean_wait_ns", w, 0);
        k.spreadNs = getInt<TimeNs>(x, "spread_ns", w, 0);
        k.heldUp = getBool(x, "held_up", w);
        if (x.contains("text")) k.cause.text = getString(x, "text", w);
        if (x.contains("cause") && !x["cause"].is_null()) {
            k.cause.finding = readFinding(x["cause"], w + "/cause");
            k.hasCause = true;
        }
        c.collectives.push_back(std::move(k));
    }
}

// breakdowns/not_computed: per rank, why a section is absent (absent before it: none).
void readNotComputed(const json& b, ClusterReport& c) {
    if (!b.contains("not_computed")) return;
    const json& ranks = needArray(b, "not_computed", "breakdowns");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string w = "breakdowns/" + at("not_computed", i);
        RankNotComputed r;
        r.rank = getInt<int>(ranks[i], "rank", w, 0);
        const json& sections = need(ranks[i], "sections", w);
        if (!sections.is_object()) throw JsonFieldError{w + ": \"sections\" is not an object"};
        for (const char* section : kRankBreakdownSections)  // a section a later version adds: left out
            if (sections.contains(section))
                r.sections.emplace_back(section, getString(sections, section, w + "/sections"));
        c.breakdownsNotComputed.push_back(std::move(r));
    }
}

}  // namespace

bool isClusterDocument(const json& j) {
    return j.is_object() && j.contains("schema") && j["schema"].is_string() &&
           j["schema"].get<std::string>() == kClusterSchema;
}

Result<ClusterReport> clusterFromJson(const json& j) {
    try {
        if (!j.is_object()) throw JsonFieldError{"cluster: not a JSON object"};
        if (!isClusterDocument(j)) throw JsonFieldError{std::string("cluster: \"schema\" is not ") + kClusterSchema};
        ClusterReport c;
        const json& s = need(j, "settings", "cluster");
        c.settings.k = getNumber(s, "k", "settings");
        c.settings.minExcess = getNumber(s, "min_excess", "settings");
        readRanks(j, c);
        readIterations(j, c);
        readSlowRanks(j, c);
        readCollectives(j, c);
        const json& notes = needArray(j, "notes", "cluster");
        for (std::size_t i = 0; i < notes.size(); ++i)
            c.notes.push_back(
                {getString(notes[i], "kind", at("notes", i)), getString(notes[i], "text", at("notes", i))});
        if (j.contains("breakdowns")) {  // absent before the breakdowns; idle and queue_length before those
            Result<RankBreakdownRows> b = rankBreakdownsFromJson(j["breakdowns"]);
            if (!b) throw JsonFieldError{"cluster: " + b.failure().reason};
            c.temporal = std::move(b.value().temporal);
            c.commCompOverlap = std::move(b.value().commCompOverlap);
            c.idle = std::move(b.value().idle);
            c.queueLength = std::move(b.value().queueLength);
            readNotComputed(j["breakdowns"], c);
        }
        c.producer = producerFromJson(j);  // absent before 0.7.0
        return c;
    } catch (const JsonFieldError& e) {
        return Failure::of(Failure::Kind::Malformed, e.what);
    }
}

bool looksLikeClusterReport(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    constexpr std::streamoff kWindow = 1 << 20;
    std::string buf(static_cast<std::size_t>(kWindow), '\0');
    in.read(buf.data(), kWindow);
    buf.resize(static_cast<std::size_t>(in.gcount()));
    if (buf.size() >= 2 && static_cast<unsigned char>(buf[0]) == 0x1f && static_cast<unsigned char>(buf[1]) == 0x8b)
        return false;  // gzip: a trace, we never write a compressed cluster report
    const std::string needle = std::string("\"") + kClusterSchema + "\"";
    if (buf.find(needle) != std::string::npos) return true;
    in.clear();
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size <= kWindow) return false;
    in.seekg(size - kWindow);
    buf.assign(static_cast<std::size_t>(kWindow), '\0');
    in.read(buf.data(), kWindow);
    buf.resize(static_cast<std::size_t>(in.gcount()));
    return buf.find(needle) != std::string::npos;
}

Result<ClusterReport> readClusterReport(const std::string& path) {
    auto fail = [&](Failure::Kind kind, std::string why) { return Failure::of(kind, std::move(why), path); };
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(Failure::Kind::Unreadable, "cannot open the cluster report");
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        return fail(Failure::Kind::Malformed,
                    "not JSON (expected a cluster report written by contend-cli merge or cluster)");
    Result<ClusterReport> c = clusterFromJson(j);
    if (!c) return fail(Failure::Kind::Malformed, c.failure().reason);
    return c;
}

}  // namespace contend
