#pragma once
// A JSON Schema validator for the subset docs/schema/*.schema.json use (Debian 12 packages no
// C++ validator): type (one name or a list; "integer" is a number without a fraction), enum,
// required, properties, additionalProperties (false or a schema), items (one schema for all
// elements), minimum, maximum, and $ref to "#/$defs/NAME". $schema, $id, title, description
// and $defs are annotations. Any other keyword in a schema is an error, so a schema never
// relies on a check this validator would silently skip.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_paths.h"

namespace contend::test {

class JsonSchemaCheck {
  public:
    explicit JsonSchemaCheck(nlohmann::json schema) : m_root(std::move(schema)) {}

    // Appends one line per violation ("/anomalies/0/cause: \"bandwith\" is not one of ...").
    // Stops collecting after `limit` lines.
    std::vector<std::string> errors(const nlohmann::json& doc, std::size_t limit = 20) const {
        std::vector<std::string> out;
        check(m_root, doc, "", out, limit);
        return out;
    }

  private:
    static bool hasType(const nlohmann::json& v, const std::string& t) {
        if (t == "object") return v.is_object();
        if (t == "array") return v.is_array();
        if (t == "string") return v.is_string();
        if (t == "boolean") return v.is_boolean();
        if (t == "null") return v.is_null();
        if (t == "number") return v.is_number();
        if (t == "integer")
            return v.is_number_integer() ||
                   (v.is_number_float() &&
                    v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
        return false;
    }
    void check(const nlohmann::json& s, const nlohmann::json& v, const std::string& at, std::vector<std::string>& out,
               std::size_t limit) const {
        if (out.size() >= limit) return;
        const std::string where = at.empty() ? "/" : at;
        if (!s.is_object()) {
            out.push_back(where + ": schema is not an object");
            return;
        }
        for (const auto& [key, rule] : s.items()) {
            if (key == "$schema" || key == "$id" || key == "title" || key == "description" || key == "$defs") continue;
            if (key == "$ref") {
                const std::string ref = rule.get<std::string>();
                const std::string prefix = "#/$defs/";
                if (ref.rfind(prefix, 0) != 0 || !m_root.contains("$defs") ||
                    !m_root["$defs"].contains(ref.substr(prefix.size()))) {
                    out.push_back(where + ": unresolvable $ref " + ref);
                    continue;
                }
                check(m_root["$defs"][ref.substr(prefix.size())], v, at, out, limit);
            } else if (key == "type") {
                bool ok = false;
                std::string names;
                for (const auto& t : rule.is_array() ? rule : nlohmann::json::array({rule})) {
                    ok = ok || hasType(v, t.get<std::string>());
                    names += (names.empty() ? "" : " or ") + t.get<std::string>();
                }
                if (!ok) {
                    out.push_back(where + ": " + v.dump().substr(0, 60) + " is not " + names);
                    return;  // the other keywords would only repeat it
                }
            } else if (key == "enum") {
                bool ok = false;
                for (const auto& e : rule) ok = ok || e == v;
                if (!ok) out.push_back(where + ": " + v.dump().substr(0, 60) + " is not one of " + rule.dump());
            } else if (key == "required") {
                if (!v.is_object()) continue;
                for (const auto& r : rule)
                    if (!v.contains(r.get<std::string>()))
                        out.push_back(where + ": missing \"" + r.get<std::string>() + "\"");
            } else if (key == "properties") {
                if (!v.is_object()) continue;
                for (const auto& [name, sub] : rule.items())
                    if (v.contains(name)) check(sub, v[name], at + "/" + name, out, limit);
            } else if (key == "additionalProperties") {
                if (!v.is_object()) continue;
                for (const auto& [name, value] : v.items()) {
                    if (s.contains("properties") && s["properties"].contains(name)) continue;
                    if (rule.is_boolean()) {
                        if (!rule.get<bool>()) out.push_back(where + ": unexpected field \"" + name + "\"");
                    } else
                        check(rule, value, at + "/" + name, out, limit);
                }
            } else if (key == "items") {
                if (!v.is_array()) continue;
                for (std::size_t i = 0; i < v.size(); ++i) check(rule, v[i], at + "/" + std::to_string(i), out, limit);
            } else if (key == "minimum" || key == "maximum") {
                if (!v.is_number()) continue;
                const double x = v.get<double>(), bound = rule.get<double>();
                if (key == "minimum" ? x < bound : x > bound)
                    out.push_back(where + ": " + v.dump() + (key == "minimum" ? " is below " : " is above ") +
                                  rule.dump());
            } else {
                out.push_back(where + ": schema keyword \"" + key + "\" is not supported by this validator");
            }
            if (out.size() >= limit) return;
        }
    }

    nlohmann::json m_root;
};

// The schema docs/schema/NAME of this source tree, as a check (an empty object when the file is
// missing or not JSON, so every document fails against it and the test says so).
inline JsonSchemaCheck schemaCheck(const std::string& name) {
    std::ifstream f(std::filesystem::path(sourceDir()) / "docs" / "schema" / name, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    nlohmann::json s = nlohmann::json::parse(ss.str(), nullptr, false);
    if (!s.is_object()) s = nlohmann::json{{"type", "null"}, {"description", "missing or broken schema " + name}};
    return JsonSchemaCheck(std::move(s));
}

}  // namespace contend::test
