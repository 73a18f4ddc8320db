#include "core/analysis/model/resources.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

namespace contend {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool has(const std::string& hay, std::string_view needle) { return hay.find(needle) != std::string::npos; }

// Whole-word-ish test for short tokens ("sm", "bw", "ipc") so "smsp" or "asm" do not match by
// accident: the token must not be surrounded by letters.
bool hasToken(const std::string& hay, std::string_view tok) {
    for (std::size_t p = hay.find(tok); p != std::string::npos; p = hay.find(tok, p + 1)) {
        const bool leftOk = p == 0 || !std::isalpha(static_cast<unsigned char>(hay[p - 1]));
        const std::size_t e = p + tok.size();
        const bool rightOk = e >= hay.size() || !std::isalpha(static_cast<unsigned char>(hay[e]));
        if (leftOk && rightOk) return true;
    }
    return false;
}

bool isThroughputUnit(const std::string& u) {
    return u == "b/s" || u == "kb/s" || u == "mb/s" || u == "gb/s" || u == "bytes/s" || u == "tb/s";
}
bool isSizeUnit(const std::string& u) {
    return u == "kb" || u == "mb" || u == "gb" || u == "b" || u == "bytes" || u == "kib" || u == "mib" || u == "gib";
}

Classification classifyText(const std::string& text, const std::string& unit) {
    Classification c;
    if (isSizeUnit(unit) || unit == "mhz" || unit == "ghz" || unit == "w" || unit == "c") return c;
    if (has(text, "level") || has(text, "_ost") || has(text, " ost") || has(text, "qos") || has(text, "freq") ||
        has(text, "temperature") || has(text, "power"))
        return c;
    // Nsight Systems' GPU metrics: "Unallocated Warps in Active SMs" is headroom, not use;
    // "Sync/Async Compute In Flight" and "GR Active" say work was queued or the engine busy,
    // not how much of the SMs it used; PCIe/NVLink traffic is not a shared on-device resource.
    if (has(text, "unallocated") || (has(text, "in flight") && !has(text, "warps")) || has(text, "gr active") ||
        has(text, "pcie") || has(text, "nvlink"))
        return c;
    const bool pct = unit == "%" || has(text, "%") || has(text, "pct") || has(text, "percent");
    // "[Throughput %]" (Nsight) is a percent of peak: a utilisation, not a rate to normalise.
    // A raw CUPTI counter ("sm__cycles_active.avg", "dram__bytes_read.sum": cycles or bytes per
    // sample, not a share of peak) is a throughput, scaled by its peak like one.
    const bool cuptiRaw = has(text, "__") && !has(text, "ratio") && !has(text, "per_cycle");
    const bool tput = !pct && (isThroughputUnit(unit) || has(text, "(gb/s)") || has(text, "(mb/s)") ||
                               has(text, "throughput") || cuptiRaw);
    auto finish = [&](Resource r, CounterKind k) {
        c.resource = r;
        c.kind = k;
        return c;
    };
    if (has(text, "hit rate") || has(text, "hit_rate") || has(text, "hitrate") || has(text, "hit ratio"))
        return finish(Resource::Cache, CounterKind::HitRate);
    if (has(text, "l2") || has(text, "llc") || has(text, "cache") || has(text, "lts__"))
        return finish(Resource::Cache, tput ? CounterKind::Throughput : CounterKind::Utilization);
    if (has(text, "issue") || has(text, "slot") || hasToken(text, "ipc"))
        return finish(Resource::Issue, pct ? CounterKind::Utilization : CounterKind::Throughput);
    if (has(text, "hbm") || has(text, "ddr") || has(text, "dram") || has(text, "bandwidth") ||
        has(text, "band_width") || hasToken(text, "bw") || has(text, "_bw") || has(text, "mte2") || has(text, "mte3") ||
        has(text, "memory throughput"))
        return finish(Resource::Bandwidth, pct ? CounterKind::Utilization : CounterKind::Throughput);
    if (has(text, "ai core") || has(text, "aicore") || hasToken(text, "sm") || hasToken(text, "sms") ||
        has(text, "sm__") || has(text, "tensor active") || has(text, "warps in flight") || has(text, "compute") ||
        has(text, "cube") || has(text, "vector") || has(text, "vec_ratio") || has(text, "mac_ratio") ||
        has(text, "occupancy") || has(text, "utilization") || has(text, "utilisation"))
        return finish(Resource::Compute, tput ? CounterKind::Throughput : CounterKind::Utilization);
    return c;
}

}  // namespace

const char* counterKindName(CounterKind k) {
    switch (k) {
    case CounterKind::Utilization: return "utilization";
    case CounterKind::HitRate: return "hit_rate";
    case CounterKind::Throughput: return "throughput";
    }
    return "utilization";
}

int pressureIndex(Resource r) {
    for (std::size_t i = 0; i < kPressureResources; ++i)
        if (kPressureResource[i] == r) return static_cast<int>(i);
    return -1;
}

Classification classifyCounter(std::string_view name, std::string_view key, std::string_view unit) {
    std::string text = lower(name);
    if (!key.empty() && key != "value") text += " " + lower(key);
    return classifyText(text, lower(unit));
}

Classification classifyMetric(std::string_view key) {
    const std::string k = lower(key);
    // Ascend instruction-cache misses say the kernel is large, not that a shared cache is full.
    if (has(k, "icache") || k == "bytes" || has(k, "_time") || has(k, "cycles") || has(k, "block dim")) return {};
    // Achieved occupancy is how many warps were resident (latency hiding), not how much of the
    // compute units' throughput the kernel used: a memory-bound kernel shows 100%.
    if (has(k, "occupancy")) return {};
    std::string unit;
    if (has(k, "(%)") || has(k, "%") || has(k, "pct"))
        unit = "%";
    else if (has(k, "gb/s"))
        unit = "gb/s";
    // Ascend pipe ratios: the share of the kernel's time each pipe was busy (0..1).
    if (has(k, "mte2_ratio") || has(k, "mte3_ratio")) return {Resource::Bandwidth, CounterKind::Utilization, 0};
    if (has(k, "mac_ratio") || has(k, "vec_ratio") || has(k, "cube_utilization"))
        return {Resource::Compute, CounterKind::Utilization, 0};
    if (has(k, "scalar_ratio")) return {Resource::Issue, CounterKind::Utilization, 0};
    if (has(k, "l0") || has(k, "mte1")) return {};  // core-private buffers, not shared
    return classifyText(k, unit);
}

bool ResourceMap::hasCounters(Resource r) const {
    return std::any_of(counters.begin(), counters.end(), [&](const CounterMapping& m) { return m.resource == r; });
}

Result<ResourceConfig> parseResourceConfig(std::string_view text, const std::string& name) {
    auto fail = [&](const std::string& why) { return Failure::of(Failure::Kind::Malformed, why, name); };
    nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) return fail("not valid JSON");
    if (!j.is_object() || !j.contains("map") || !j["map"].is_array())
        return fail("expected an object with a \"map\" array");
    ResourceConfig cfg;
    std::size_t index = 0;
    for (const auto& e : j["map"]) {
        const std::string where = "map[" + std::to_string(index++) + "]: ";
        if (!e.is_object() || !e.contains("match") || !e["match"].is_string() || !e.contains("resource") ||
            !e["resource"].is_string())
            return fail(where + "each rule needs \"match\" and \"resource\" strings");
        MappingRule rule;
        rule.match = e["match"].get<std::string>();
        try {
            rule.pattern = std::regex(rule.match, std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error&) {
            return fail(where + "\"match\" is not a valid regular expression: " + rule.match);
        }
        if (!resourceFromName(e["resource"].get<std::string>(), rule.resource))
            return fail(where + "unknown resource \"" + e["resource"].get<std::string>() +
                        "\" (bandwidth, compute, cache, issue or none)");
        if (rule.resource != Resource::None && pressureIndex(rule.resource) < 0)
            return fail(where + "counters can only measure bandwidth, compute, cache or issue");
        if (e.contains("kind")) {
            const std::string k = e["kind"].is_string() ? e["kind"].get<std::string>() : "";
            if (k == "utilization" || k == "utilisation")
                rule.kind = CounterKind::Utilization;
            else if (k == "hit_rate")
                rule.kind = CounterKind::HitRate;
            else if (k == "throughput")
                rule.kind = CounterKind::Throughput;
            else
                return fail(where + "\"kind\" must be utilization, hit_rate or throughput");
        }
        if (e.contains("peak")) {
            if (!e["peak"].is_number() || e["peak"].get<double>() <= 0)
                return fail(where + "\"peak\" must be a positive number");
            rule.peak = e["peak"].get<double>();
        }
        cfg.rules.push_back(std::move(rule));
    }
    return cfg;
}

Result<ResourceConfig> loadResourceConfig(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return Failure::of(Failure::Kind::Unreadable, "cannot open the config file", path);
    std::stringstream ss;
    ss << f.rdbuf();
    return parseResourceConfig(ss.str(), path);
}

namespace {

// Scale that turns raw values into 0..1 for a series or metric whose largest value is `maxSeen`.
double scaleFor(CounterKind kind, bool percentUnit, double peak, double maxSeen) {
    if (kind == CounterKind::Throughput) {
        const double cap = peak > 0 ? peak : maxSeen;
        return cap > 0 ? 1.0 / cap : 0.0;
    }
    // Utilisation and hit rate: percent when the unit says so or the values exceed 1.
    return percentUnit || maxSeen > 1.0 + 1e-9 ? 0.01 : 1.0;
}

const MappingRule* firstRule(const ResourceConfig& cfg, const std::string& label) {
    for (const auto& r : cfg.rules)
        if (std::regex_search(label, r.pattern)) return &r;
    return nullptr;
}

}  // namespace

ResourceMap mapResources(const Trace& trace, const ResourceConfig& config) {
    ResourceMap map;
    const auto& counters = trace.counters();
    for (std::uint32_t i = 0; i < counters.size(); ++i) {
        const CounterSeries& c = counters[i];
        if (c.values.empty()) continue;
        const std::string label = c.label();
        Classification cls;
        bool fromConfig = false;
        if (const MappingRule* rule = firstRule(config, label)) {
            if (rule->resource == Resource::None) continue;
            cls = classifyCounter(c.name, c.key, c.unit);
            cls.resource = rule->resource;
            if (rule->kind)
                cls.kind = *rule->kind;
            else if (cls.resource != Resource::Cache && cls.kind == CounterKind::HitRate)
                cls.kind = CounterKind::Utilization;
            cls.peak = rule->peak;
            fromConfig = true;
        } else {
            cls = classifyCounter(c.name, c.key, c.unit);
        }
        if (cls.resource == Resource::None || pressureIndex(cls.resource) < 0) continue;
        const double maxSeen = *std::max_element(c.values.begin(), c.values.end());
        CounterMapping m;
        m.series = i;
        m.resource = cls.resource;
        m.kind = cls.kind;
        m.scale = scaleFor(cls.kind, c.unit == "%", cls.peak, maxSeen);
        m.fromConfig = fromConfig;
        if (m.scale <= 0) continue;  // a throughput series that is always 0 says nothing
        map.counters.push_back(m);
        map.mappedLabels.push_back(label + " -> " + resourceName(m.resource) + " (" + counterKindName(m.kind) + ")");
    }
    // Per-op metrics: classify each distinct key once, scale by its largest value.
    std::unordered_map<StringId, double> maxOfKey;
    for (const Metric& m : trace.metrics()) {
        if (!std::isfinite(m.value)) continue;
        auto [it, added] = maxOfKey.try_emplace(m.key, m.value);  // no node made for a known key
        if (!added) it->second = std::max(it->second, static_cast<double>(m.value));
    }
    std::vector<StringId> keys;
    keys.reserve(maxOfKey.size());
    for (const auto& [k, v] : maxOfKey) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    for (StringId k : keys) {
        const std::string key(trace.str(k));
        Classification cls;
        if (const MappingRule* rule = firstRule(config, key)) {
            if (rule->resource == Resource::None) continue;
            cls = classifyMetric(key);
            cls.resource = rule->resource;
            if (rule->kind) cls.kind = *rule->kind;
            cls.peak = rule->peak;
        } else {
            cls = classifyMetric(key);
        }
        if (cls.resource == Resource::None || pressureIndex(cls.resource) < 0) continue;
        const bool pct = key.find('%') != std::string::npos || lower(key).find("pct") != std::string::npos;
        MetricMapping mm;
        mm.key = k;
        mm.resource = cls.resource;
        mm.kind = cls.kind;
        mm.scale = scaleFor(cls.kind, pct, cls.peak, maxOfKey[k]);
        if (mm.scale <= 0) continue;
        map.metrics.push_back(mm);
    }
    return map;
}

}  // namespace contend
