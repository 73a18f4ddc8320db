#include "core/report/producer_json.h"

namespace contend {

using nlohmann::json;

json producerJson() {
    const Producer p = thisProducer();
    return {{"name", p.name}, {"version", p.version}, {"commit", p.commit}};
}

Producer producerFromJson(const json& document) {
    if (!document.is_object()) return {};
    const auto it = document.find("producer");
    if (it == document.end() || !it->is_object()) return {};
    const json& p = *it;
    for (const char* key : {"name", "version", "commit"})
        if (!p.contains(key) || !p[key].is_string()) return {};
    Producer out{p["name"].get<std::string>(), p["version"].get<std::string>(), p["commit"].get<std::string>()};
    if (out.name.empty()) return {};
    return out;
}

}  // namespace contend
