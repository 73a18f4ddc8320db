// One Thresholds type (core/analysis/model/thresholds.h): its defaults are AnalysisSettings', its
// clamp, and contend-cli's --coefficient / --overlap checked against the same ranges, with a
// message naming the option.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

#include "analysis_test_trace.h"
#include "core/analysis/model/report.h"
#include "core/analysis/model/thresholds.h"
#include "test_support.h"

using contend::AnalysisSettings;
using contend::Thresholds;

namespace {

using Run = contend::test::CliRun;
// stdout and stderr together (the range messages go to stderr).
Run cli(const std::string& args) { return contend::test::runCliCapture(args, true); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Thresholds: one set of defaults and ranges, clamp and the range message", "[thresholds]") {
    const Thresholds d;
    const AnalysisSettings s;
    CHECK(d.coefficient == 3.0);
    CHECK(d.overlapRatio == 0.70);
    CHECK(s.thresholds() == d);
    CHECK(d.inRange());

    CHECK(Thresholds::coefficientInRange(0.1));
    CHECK(Thresholds::coefficientInRange(50));
    CHECK_FALSE(Thresholds::coefficientInRange(0.09));
    CHECK_FALSE(Thresholds::coefficientInRange(50.01));
    CHECK_FALSE(Thresholds::coefficientInRange(0));
    CHECK(Thresholds::overlapRatioInRange(0.05));
    CHECK(Thresholds::overlapRatioInRange(1.0));
    CHECK_FALSE(Thresholds::overlapRatioInRange(0.04));
    CHECK_FALSE(Thresholds::overlapRatioInRange(1.01));
    CHECK_FALSE(Thresholds::coefficientInRange(std::nan("")));

    CHECK(Thresholds{0, 2}.clamped() == Thresholds{0.1, 1.0});
    CHECK(Thresholds{80, 0}.clamped() == Thresholds{50, 0.05});
    CHECK(Thresholds{4.5, 0.3}.clamped() == Thresholds{4.5, 0.3});
    CHECK(Thresholds{std::nan(""), std::nan("")}.clamped() == d);
    CHECK_FALSE(Thresholds{0, 0.5}.inRange());

    CHECK(contend::coefficientRangeText("--coefficient") == "--coefficient needs a number from 0.1 to 50");
    CHECK(contend::overlapRatioRangeText("--overlap") == "--overlap needs a number from 0.05 to 1");
}

TEST_CASE("contend-cli takes the thresholds in Thresholds' ranges and names the option it rejects",
          "[thresholds][cli]") {
    contend::test::KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 20; ++i, t += 200) k.kernel("gemm", 7, t, 100);
    k.kernel("gemm", 7, t, 250);
    contend::test::TempFile trace("cli-thresholds.json", k.json());
    contend::test::TempFile out("cli-thresholds.annotated.json");
    const std::string p = trace.path();

    // The ends of the ranges are accepted, and land in the report.
    const Run low = cli("analyze " + p + " --json - --coefficient 0.1 --overlap 0.05");
    REQUIRE(low.code == 0);
    const auto j = nlohmann::json::parse(low.out);
    CHECK(j["settings"]["coefficient"] == 0.1);
    CHECK(j["settings"]["overlap_ratio"] == 0.05);
    CHECK(cli("analyze " + p + " --coefficient 50 --overlap 1").code == 0);

    struct Bad {
        std::string args, message;
    };
    const Bad bad[] = {
        {"analyze " + p + " --coefficient 0", "--coefficient needs a number from 0.1 to 50 (got '0')"},
        {"analyze " + p + " --coefficient 60", "--coefficient needs a number from 0.1 to 50 (got '60')"},
        {"analyze " + p + " --coefficient x", "--coefficient needs a number from 0.1 to 50 (got 'x')"},
        {"analyze " + p + " --overlap 0.01", "--overlap needs a number from 0.05 to 1 (got '0.01')"},
        {"analyze " + p + " --overlap", "--overlap needs a number from 0.05 to 1"},
        {"annotate " + p + " --out " + out.path() + " --coefficient 51",
         "--coefficient needs a number from 0.1 to 50 (got '51')"},
        {"annotate " + p + " --out " + out.path() + " --overlap 1.5",
         "--overlap needs a number from 0.05 to 1 (got '1.5')"},
        {"compare " + p + " " + p + " --coefficient 0.05", "--coefficient needs a number from 0.1 to 50 (got '0.05')"},
        {"compare " + p + " " + p + " --overlap 2", "--overlap needs a number from 0.05 to 1 (got '2')"},
        {"trend " + p + " " + p + " --coefficient 0", "--coefficient needs a number from 0.1 to 50 (got '0')"},
        {"trend " + p + " " + p + " --overlap 0", "--overlap needs a number from 0.05 to 1 (got '0')"},
    };
    for (const Bad& b : bad) {
        INFO(b.args);
        const Run r = cli(b.args);
        CHECK(r.code == 2);
        CHECK(has(r.out, b.message));
    }
}
