// Reading a saved report checks that every number fits where it goes. nlohmann's get<long>() of
// a float out of range (a count of 3e126 in a file we did not write) is undefined behaviour, and
// a negative count read as unsigned wraps; the fuzzer found the first. Both must be an error
// naming the field, never a wrong value.
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/report_json.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

nlohmann::json sampleReport() {
    LoadResult lr = loadTrace(
        (fs::path(CONTEND_SOURCE_DIR) / "resources" / "samples" / "projectx-before.json.gz").string(), LoadOptions{});
    REQUIRE(lr);
    const Report r = analyze(lr.value(), AnalysisSettings{});
    REQUIRE_FALSE(r.operators.empty());
    REQUIRE_FALSE(r.anomalies.empty());
    return reportToJson(r, *lr.value());
}

}  // namespace

TEST_CASE("a saved report with numbers out of range is an error naming the field", "[report][read]") {
    const nlohmann::json good = sampleReport();
    std::string error;
    REQUIRE(reportFromJson(good, &error));

    SECTION("a float far beyond int64 where a time belongs") {
        nlohmann::json j = good;
        j["operators"][0]["max_ns"] = 3.1111e126;
        error.clear();
        CHECK_FALSE(reportFromJson(j, &error));
        CHECK(error.find("max_ns") != std::string::npos);
        CHECK(error.find("out of range") != std::string::npos);
    }
    SECTION("a negative count") {
        nlohmann::json j = good;
        j["operators"][0]["anomalies"] = -3;
        error.clear();
        CHECK_FALSE(reportFromJson(j, &error));
        CHECK(error.find("anomalies") != std::string::npos);
    }
    SECTION("an id beyond 32 bits") {
        nlohmann::json j = good;
        j["anomalies"][0]["id"] = 1ull << 40;
        error.clear();
        CHECK_FALSE(reportFromJson(j, &error));
        CHECK(error.find("\"id\"") != std::string::npos);
    }
    SECTION("a whole number written as a float reads as that integer") {
        nlohmann::json j = good;
        const auto maxNs = j["operators"][0]["max_ns"].get<std::int64_t>();
        j["operators"][0]["max_ns"] = static_cast<double>(maxNs);
        auto back = reportFromJson(j, &error);
        REQUIRE(back);
        CHECK(back->operators[0].maxNs == maxNs);
    }
    SECTION("a fraction where an integer belongs") {
        nlohmann::json j = good;
        j["operators"][0]["max_ns"] = 12.5;
        CHECK_FALSE(reportFromJson(j, &error));
    }
    SECTION("an out-of-range extra wait per resource is left out, the rest reads") {
        nlohmann::json j = good;
        j["summary"]["extra_wait_by_resource"]["bandwidth"] = 1e300;
        auto back = reportFromJson(j, &error);
        REQUIRE(back);
        CHECK(back->summary.extraWaitByResource[static_cast<std::size_t>(Resource::Bandwidth)] == 0);
    }
}
