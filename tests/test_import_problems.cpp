// Import problems as data (core/trace/import_problem.h) and load errors by kind: code decides by
// the id, the unit and Failure::Kind, never by reading a message back.
#include <catch2/catch.hpp>
#include <set>

#include "core/io/load.h"
#include "core/trace/import_problem.h"
#include "core/trace/trace_builder.h"
#include "test_support.h"

using namespace contend;

namespace {

const ImportWarning* warningOf(const Trace& t, ImportProblem id) {
    for (const auto& w : t.stats().warnings)
        if (w.id == id) return &w;
    return nullptr;
}

}  // namespace

TEST_CASE("the import problem table lists each problem once with its own text", "[problems]") {
    std::set<std::string_view> texts;
    for (int i = 0; i < static_cast<int>(ImportProblem::Other); ++i) {
        const auto id = static_cast<ImportProblem>(i);
        const ImportProblemInfo& p = importProblemInfo(id);
        CHECK(p.id == id);
        CHECK_FALSE(p.text.empty());
        CHECK(texts.insert(p.text).second);
    }
    CHECK(importProblemInfo(ImportProblem::InvalidUtf8).unit == ProblemUnit::Byte);
    CHECK(importProblemInfo(ImportProblem::StringCut).unit == ProblemUnit::String);
    CHECK(importProblemInfo(ImportProblem::NonFiniteNumber).unit == ProblemUnit::Value);
    CHECK(importProblemInfo(ImportProblem::DatabaseExportNotRead).severity == ProblemSeverity::Info);
    CHECK(importProblemInfo(ImportProblem::NegativeDur).severity == ProblemSeverity::DataLoss);
    CHECK(importProblemInfo(ImportProblem::DbPmuRowWithoutMetric).unit == ProblemUnit::Row);
    CHECK(problemUnitName(ProblemUnit::Row) == "row");
    CHECK(problemUnitName(ProblemUnit::Byte) == "byte");
}

TEST_CASE("warnings are counted by id with the table's text and unit", "[problems]") {
    TraceBuilder b;
    b.warn(ImportProblem::MissingTs, "byte 10");
    b.warn(ImportProblem::MissingTs, "byte 99", 2);
    b.warn(ImportProblem::NegativeDur, "byte 5");
    b.warn(ImportProblem::DbPmuRowWithoutMetric, "table TASK_PMU_INFO", 4);
    const TracePtr t = b.finalize();
    const auto& ws = t->stats().warnings;
    REQUIRE(ws.size() == 3);
    CHECK(ws[0].id == ImportProblem::MissingTs);
    CHECK(ws[0].kind == "missing ts");
    CHECK(ws[0].count == 3);
    CHECK(ws[0].example == "byte 10");
    CHECK(ws[1].id == ImportProblem::NegativeDur);
    CHECK(ws[2].id == ImportProblem::DbPmuRowWithoutMetric);
    CHECK(ws[2].kind == "TASK_PMU_INFO row without a named, numeric metric");
    CHECK(ws[2].unit == ProblemUnit::Row);
    CHECK(ws[2].unitName() == "row");
}

TEST_CASE("a loaded file's problems carry their ids and units", "[problems]") {
    const std::string json =
        "[{\"name\": \"a\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"dur\": 5},"
        "{\"name\": \"caf\xe9\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 5},"
        "{\"name\": \"b\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": -1}]";
    const LoadResult r = contend::test::loadString(json);
    REQUIRE(r);
    const ImportWarning* ts = warningOf(*r.value(), ImportProblem::MissingTs);
    REQUIRE(ts);
    CHECK(ts->unit == ProblemUnit::Event);
    const ImportWarning* utf8 = warningOf(*r.value(), ImportProblem::InvalidUtf8);
    REQUIRE(utf8);
    CHECK(utf8->unit == ProblemUnit::Byte);
    CHECK(utf8->count == 1);
    CHECK(warningOf(*r.value(), ImportProblem::NegativeDur));
}

TEST_CASE("load errors say their kind", "[problems]") {
    const LoadResult missing = loadTrace("/nonexistent/contend/trace.json");
    REQUIRE(!missing.ok());
    CHECK(missing.failure().kind == Failure::Kind::Unreadable);
    const LoadResult broken = loadTraceFromMemory("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1,, }]", "broken.json");
    REQUIRE(!broken.ok());
    CHECK(broken.failure().kind == Failure::Kind::Malformed);
    CHECK(broken.failure().offset >= 0);
    contend::test::TempFile notDb("fake.db", "this is not SQLite");
    const LoadResult fake = loadTrace(notDb.path());
    REQUIRE(!fake.ok());
    CHECK(fake.failure().kind == Failure::Kind::NotATrace);
}
