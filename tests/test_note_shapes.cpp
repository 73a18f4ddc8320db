// The "no-shapes" note (core/analysis/findings/notes.h): an Ascend trace_view.json opened without its
// profiler folder carries no input shapes, so calls of one operator of any size share one
// baseline; the report must say so and point at the folder. The same file inside its folder
// (shapes joined from kernel_details.csv) and a Kineto trace must not get it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

Report analysePath(const std::string& path) {
    LoadResult r = loadTrace(path, LoadOptions{});
    REQUIRE(r);
    return contend::test::analyzeOk(r.value(), AnalysisSettings{});
}

const ReportNote* note(const Report& r, const std::string& kind) {
    auto it = std::find_if(r.notes.begin(), r.notes.end(), [&](const ReportNote& n) { return n.kind == kind; });
    return it == r.notes.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("a shapeless Ascend trace_view.json says so and points at its folder", "[notes][real]") {
    if (!test::haveSharedTraces()) test::skipTest();
    const fs::path folder =
        fs::path(test::sharedTraces()) / "ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt";
    REQUIRE(fs::exists(folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"));

    // Alone: copied where no side file is beside it.
    test::TempFile alone("trace_view.json", test::slurp(folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"));
    const Report lone = analysePath(alone.path());
    CHECK(lone.trace.format == "ascend");
    const ReportNote* n = note(lone, "no-shapes");
    REQUIRE(n != nullptr);
    CHECK(n->text.find("no input shapes") != std::string::npos);
    CHECK(n->text.find("Open the whole profiler folder") != std::string::npos);
    CHECK(n->text.find(" runs from ") != std::string::npos);  // the widest signature as the example

    // In its folder the shapes come from kernel_details.csv: no such note.
    const Report joined = analysePath(folder.string());
    CHECK(joined.trace.format == "ascend-folder");
    CHECK(note(joined, "no-shapes") == nullptr);
}

TEST_CASE("a Kineto trace never gets the Ascend shapes note", "[notes]") {
    const std::string sample = contend::test::sourceDir() + "/resources/samples/projectx-before.json.gz";
    REQUIRE(fs::exists(sample));
    const Report r = analysePath(sample);
    CHECK(r.trace.format != "ascend");
    CHECK(note(r, "no-shapes") == nullptr);
}
