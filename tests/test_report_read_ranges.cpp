// Reading a saved report checks that every number fits where it goes. nlohmann's get<long>() of
// a float out of range (a count of 3e126 in a file we did not write) is undefined behaviour, and
// a negative count read as unsigned wraps; the fuzzer found the first. Both must be an error
// naming the field, never a wrong value.
#include <catch2/catch.hpp>
#include <filesystem>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/single/report_json.h"
#include "test_paths.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

nlohmann::json sampleReport(ReportSchemaVersion version = ReportSchemaVersion::V3) {
    LoadResult lr =
        loadTrace((fs::path(contend::test::sourceDir()) / "resources" / "samples" / "projectx-before.json.gz").string(),
                  LoadOptions{});
    REQUIRE(lr);
    const Report r = contend::test::analyzeOk(lr.value(), AnalysisSettings{});
    REQUIRE_FALSE(r.operators.empty());
    REQUIRE_FALSE(r.anomalies.empty());
    return reportToJson(r, *lr.value(), version);
}

}  // namespace

TEST_CASE("a saved report with numbers out of range is an error naming the field", "[report][read]") {
    const nlohmann::json good = sampleReport();
    REQUIRE(reportFromJson(good));
    // The reason a broken copy of it is refused (the test fails when it is read).
    auto refused = [](const nlohmann::json& j) {
        const Result<Report> read = reportFromJson(j);
        REQUIRE_FALSE(read);
        CHECK(read.failure().kind == Failure::Kind::Malformed);
        return read.failure().reason;
    };

    SECTION("a float far beyond int64 where a time belongs") {
        nlohmann::json j = good;
        j["operators"][0]["max_ns"] = 3.1111e126;
        const std::string error = refused(j);
        CHECK(error.find("max_ns") != std::string::npos);
        CHECK(error.find("out of range") != std::string::npos);
    }
    SECTION("a negative count") {
        nlohmann::json j = good;
        j["operators"][0]["anomalies"] = -3;
        const std::string error = refused(j);
        CHECK(error.find("anomalies") != std::string::npos);
    }
    SECTION("an id beyond 32 bits") {
        nlohmann::json j = sampleReport(ReportSchemaVersion::V2);
        j["anomalies"][0]["id"] = 1ull << 40;
        const std::string error = refused(j);
        CHECK(error.find("\"id\"") != std::string::npos);
    }
    SECTION("a slice beyond 32 bits in a report/3 column") {
        nlohmann::json j = good;
        j["anomalies"]["slice"][0] = 1ull << 40;
        const std::string error = refused(j);
        CHECK(error.find("anomalies.slice[0]") != std::string::npos);
        CHECK(error.find("out of range") == std::string::npos);  // "not an integer in range"
        CHECK(error.find("in range") != std::string::npos);
    }
    SECTION("a whole number written as a float reads as that integer") {
        nlohmann::json j = good;
        const auto maxNs = j["operators"][0]["max_ns"].get<std::int64_t>();
        j["operators"][0]["max_ns"] = static_cast<double>(maxNs);
        auto back = reportFromJson(j);
        REQUIRE(back);
        CHECK(back->operators[0].maxNs == maxNs);
    }
    SECTION("a fraction where an integer belongs") {
        nlohmann::json j = good;
        j["operators"][0]["max_ns"] = 12.5;
        CHECK_FALSE(reportFromJson(j));
    }
    SECTION("an out-of-range extra wait per resource is left out, the rest reads") {
        nlohmann::json j = good;
        j["summary"]["extra_wait_by_resource"]["bandwidth"] = 1e300;
        auto back = reportFromJson(j);
        REQUIRE(back);
        CHECK(back->summary.extraWaitByResource[static_cast<std::size_t>(Resource::Bandwidth)] == 0);
    }
}
