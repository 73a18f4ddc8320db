#include "core/report/ranks/distributed_json.h"

namespace contend {

using nlohmann::json;

json distributedToJson(const ReportDistributed& d) {
    json j = json::object();
    j["rank"] = d.rank >= 0 ? json(d.rank) : json(nullptr);
    j["world_size"] = d.worldSize > 0 ? json(d.worldSize) : json(nullptr);
    j["collective_names"] = d.collectiveNames;
    json runs = json::array();
    for (const CollectiveRun& c : d.collectives)
        runs.push_back({{"iteration", c.iteration}, {"name", c.name}, {"start_ns", c.startNs}, {"dur_ns", c.durNs}});
    j["collectives"] = std::move(runs);
    return j;
}

Result<ReportDistributed> distributedFromJson(const json& j) {
    auto fail = [](const std::string& what) { return Failure::of(Failure::Kind::Malformed, "distributed" + what); };
    if (!j.is_object()) return fail(": not an object");
    ReportDistributed out;
    auto optInt = [&](const char* key, int& dst) {
        if (!j.contains(key) || j[key].is_null()) return true;
        if (!j[key].is_number_integer() || j[key].get<long long>() < 0 || j[key].get<long long>() > (1 << 30))
            return false;
        dst = j[key].get<int>();
        return true;
    };
    if (!optInt("rank", out.rank)) return fail("/rank: not a non-negative integer");
    if (!optInt("world_size", out.worldSize)) return fail("/world_size: not a non-negative integer");
    if (j.contains("collective_names")) {
        if (!j["collective_names"].is_array()) return fail("/collective_names: not an array");
        for (const json& n : j["collective_names"]) {
            if (!n.is_string()) return fail("/collective_names: a name is not a string");
            out.collectiveNames.push_back(n.get<std::string>());
        }
    }
    if (j.contains("collectives")) {
        if (!j["collectives"].is_array()) return fail("/collectives: not an array");
        std::size_t i = 0;
        for (const json& c : j["collectives"]) {
            const std::string at = "/collectives/" + std::to_string(i++);
            if (!c.is_object()) return fail(at + ": not an object");
            for (const char* key : {"iteration", "name", "start_ns", "dur_ns"})
                if (!c.contains(key) || !c[key].is_number_integer())
                    return fail(at + ": " + key + " is missing or not an integer");
            CollectiveRun r;
            const long long it = c["iteration"].get<long long>(), name = c["name"].get<long long>();
            if (it < 0 || it > 0xffffffffLL) return fail(at + ": iteration out of range");
            if (name < 0 || static_cast<std::size_t>(name) >= out.collectiveNames.size())
                return fail(at + ": name " + std::to_string(name) + " is not in collective_names");
            r.iteration = static_cast<std::uint32_t>(it);
            r.name = static_cast<std::uint32_t>(name);
            r.startNs = c["start_ns"].get<TimeNs>();
            r.durNs = c["dur_ns"].get<TimeNs>();
            if (r.durNs < 0) return fail(at + ": dur_ns is negative");
            out.collectives.push_back(r);
        }
    }
    return out;
}

}  // namespace contend
