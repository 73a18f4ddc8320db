// The CSV reader on the quirks of real profiler side files, one row per quirk, and on broken
// files, whose errors must name the file, the line and the column.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/text/csv.h"
#include "test_support.h"

using namespace contend;
using contend::test::TempFile;

namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows rowsOf(const CsvTable& t) {
    Rows out;
    for (std::size_t r = 0; r < t.rows(); ++r) {
        std::vector<std::string> row;
        for (std::size_t c = 0; c < t.width(r); ++c) row.emplace_back(t.cell(r, static_cast<int>(c)));
        out.push_back(std::move(row));
    }
    return out;
}

struct CsvCase {
    const char* quirk;
    std::string text;
    std::vector<std::string> header;
    Rows rows;
};

}  // namespace

TEST_CASE("CSV quirks of real profiler files", "[csv]") {
    const std::vector<CsvCase> cases = {
        {"plain LF", "a,b\n1,2\n3,4\n", {"a", "b"}, {{"1", "2"}, {"3", "4"}}},
        {"CRLF line ends (kernel_details.csv)", "a,b\r\n1,2\r\n", {"a", "b"}, {{"1", "2"}}},
        {"a lone CR ends a line", "a,b\r1,2\r", {"a", "b"}, {{"1", "2"}}},
        {"no newline at the end", "a,b\n1,2", {"a", "b"}, {{"1", "2"}}},
        {"UTF-8 byte order mark", "\xEF\xBB\xBFStep Id,Name\n50,x\n", {"Step Id", "Name"}, {{"50", "x"}}},
        {"doubled quotes (Input Shapes)",
         "Input Shapes,n\n\"\"\"232138240\"\"\",1\n",
         {"Input Shapes", "n"},
         {{"\"232138240\"", "1"}}},
        {"a comma inside quotes",
         "Input Shapes\n\"\"\"32,3,224,224;64,3,11,11\"\"\"\n",
         {"Input Shapes"},
         {{"\"32,3,224,224;64,3,11,11\""}}},
        {"line breaks inside quotes (Call Stack)",
         "Name,Call Stack\r\naten::add,\"a.py(1): f\r\nb.py(2): g\"\r\n",
         {"Name", "Call Stack"},
         {{"aten::add", "a.py(1): f\r\nb.py(2): g"}}},
        {"trailing tab after a timestamp",
         "Start Time(us),Duration(us)\n1736405443881410.320\t,50.621\n",
         {"Start Time(us)", "Duration(us)"},
         {{"1736405443881410.320", "50.621"}}},
        {"spaces around cells, kept inside quotes", "a , b\n 1 ,\" 2 \"\t\n", {"a", "b"}, {{"1", " 2 "}}},
        {"N/A cells are kept as written", "Type,Hit Rate\nN/A,N/A\n", {"Type", "Hit Rate"}, {{"N/A", "N/A"}}},
        {"empty cells", "a,b,c\n,,\n\"\",x,\n", {"a", "b", "c"}, {{"", "", ""}, {"", "x", ""}}},
        {"blank lines are not rows", "\na,b\n\n1,2\n\r\n", {"a", "b"}, {{"1", "2"}}},
        {"a short row keeps its cells (broken row)",
         "a,b,c\n1\n2,3,4,5\n",
         {"a", "b", "c"},
         {{"1"}, {"2", "3", "4", "5"}}},
        {"header only", "a,b\n", {"a", "b"}, {}},
        {"empty file", "", {}, {}},
    };
    for (const CsvCase& c : cases) {
        INFO(c.quirk);
        CsvTable t;
        auto err = parseCsv(c.text, "side.csv", t);
        REQUIRE_FALSE(err);
        CHECK(t.header() == c.header);
        CHECK(rowsOf(t) == c.rows);
    }
}

TEST_CASE("CSV cells past the end of a short row read as empty", "[csv]") {
    CsvTable t;
    REQUIRE_FALSE(parseCsv("a,b,c\n1\n", "short.csv", t));
    REQUIRE(t.rows() == 1);
    CHECK(t.width(0) == 1);
    CHECK(t.cell(0, 0) == "1");
    CHECK(t.cell(0, 2).empty());
    CHECK(t.cell(0, -1).empty());
    CHECK(t.cell(5, 0).empty());
}

TEST_CASE("CSV columns are found by name, exactly first, then ignoring case", "[csv]") {
    CsvTable t;
    REQUIRE_FALSE(parseCsv("Stream Id,Task ID,stream id\n1,2,3\n", "l2_cache.csv", t));
    CHECK(t.column("Stream Id") == 0);
    CHECK(t.column("stream id") == 2);  // exact match wins over the case-insensitive one
    CHECK(t.column("Task Id") == 1);    // kernel_details.csv writes "Task ID"
    CHECK(t.column("Op Name") == -1);
    CHECK(t.column({"Op Name", "Task ID"}) == 1);
    CHECK(t.column({"x", "y"}) == -1);
}

TEST_CASE("CSV rows know the line they start on, past multi-line cells", "[csv]") {
    CsvTable t;
    REQUIRE_FALSE(parseCsv("Name,Call Stack\nop1,\"f\ng\nh\"\n\nop2,x\n", "operator_details.csv", t));
    REQUIRE(t.rows() == 2);
    CHECK(t.line(0) == 2);
    CHECK(t.line(1) == 6);  // the cell spans lines 2-4, line 5 is blank
}

TEST_CASE("missing values: N/A, NA, - and empty", "[csv]") {
    CHECK(CsvTable::isMissing("N/A"));
    CHECK(CsvTable::isMissing(""));
    CHECK(CsvTable::isMissing("NA"));
    CHECK(CsvTable::isMissing("-"));
    CHECK_FALSE(CsvTable::isMissing("0"));
    CHECK_FALSE(CsvTable::isMissing("-1"));
}

namespace {
struct CsvErrorCase {
    const char* what;
    std::string text;
    std::int64_t line, column;
    const char* reason;
};
}  // namespace

TEST_CASE("broken CSV text is an error naming the file, line and column", "[csv][errors]") {
    const std::vector<CsvErrorCase> cases = {
        {"a quote never closed", "a,b\n1,\"abc\n2,3\n", 2, 3, "not closed before the end of the file"},
        {"a quote never closed, after a BOM", "\xEF\xBB\xBF\"a", 1, 4, "not closed"},
        {"text after a closing quote", "a,b\n1,2\n\"x\"y,2\n", 3, 4, "after the closing quote"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CsvTable t;
        auto err = parseCsv(c.text, "kernel_details.csv", t);
        REQUIRE(err);
        CHECK(err->line == c.line);
        CHECK(err->column == c.column);
        const std::string m = err->message();
        CHECK_THAT(m, Catch::Contains("kernel_details.csv"));
        CHECK_THAT(m, Catch::Contains("line " + std::to_string(c.line)));
        CHECK_THAT(m, Catch::Contains(c.reason));
    }
}

TEST_CASE("CSV files: read from disk, unreadable ones are errors naming the file", "[csv][errors]") {
    TempFile file("quirks.csv", "Name,Start Time(us)\r\nop,\"1.5\"\t\r\n");
    CsvTable t;
    REQUIRE_FALSE(readCsv(file.path(), t));
    CHECK(t.path() == file.path());
    CHECK(t.fileName() == std::filesystem::path(file.path()).filename().string());
    REQUIRE(t.rows() == 1);
    CHECK(t.cell(0, t.column("Start Time(us)")) == "1.5");

    TempFile missing("no-such.csv");
    auto err = readCsv(missing.path(), t);
    REQUIRE(err);
    CHECK_THAT(err->message(), Catch::Contains(missing.path()) && Catch::Contains("no such file"));

    auto dirErr = readCsv(std::filesystem::temp_directory_path().string(), t);
    REQUIRE(dirErr);
    CHECK_THAT(dirErr->message(), Catch::Contains("is a directory"));
}

// How fast is scripts/bench-csv.sh's to print (the same file inside an Ascend folder, read and
// joined by contend-cli bench-load), not a test's to bound.
TEST_CASE("a 100k-row, 46-column kernel file parses whole", "[csv]") {
    std::string text = "Step Id,Model ID,Task ID,Stream ID,Name,Input Shapes";
    for (int c = 6; c < 46; ++c) text += ",aic_m" + std::to_string(c);
    text += "\r\n";
    const int rows = 100'000;
    for (int r = 0; r < rows; ++r) {
        text += "50,4294967295," + std::to_string(r) + ",2,op_" + std::to_string(r % 97) + ",\"\"\"32,3,224,224\"\"\"";
        for (int c = 6; c < 46; ++c) text += ",0.123";
        text += "\r\n";
    }
    CsvTable t;
    REQUIRE_FALSE(parseCsv(std::move(text), "big.csv", t));
    REQUIRE(t.rows() == rows);
    CHECK(t.cell(rows - 1, 2) == std::to_string(rows - 1));
    CHECK(t.cell(rows - 1, 5) == "\"32,3,224,224\"");
    CHECK(t.line(rows - 1) == rows + 1);
}
