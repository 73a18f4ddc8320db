#pragma once
// Compare results as the "contend.compare/1" JSON contract and as Markdown for review comments.
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/compare/compare.h"

namespace contend {

inline constexpr const char* kCompareSchema = "contend.compare/1";

nlohmann::json compareToJson(const CompareResult& r);
std::string compareToMarkdown(const CompareResult& r);
nlohmann::json trendToJson(const Trend& t);
std::string trendToText(const Trend& t);

}  // namespace contend
