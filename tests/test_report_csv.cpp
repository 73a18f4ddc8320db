// analyze --csv: five RFC 4180 files that read back (core/io/text/csv.h) with one row per item of
// the report, and cells that survive commas, quotes and line breaks.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "core/io/text/csv.h"
#include "core/report/single/report_csv.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;
using contend::test::slurp;

namespace {

int cli(const std::string& args) { return contend::test::runCli(args); }

CsvTable parsed(const std::string& text, const std::string& name) {
    CsvTable t;
    const auto err = parseCsv(text, name, t);
    INFO(name << ": " << (err ? err->message() : ""));
    REQUIRE_FALSE(err);
    return t;
}

}  // namespace

TEST_CASE("report CSV: a header row, CRLF, RFC 4180 quoting that reads back", "[report-csv]") {
    Report r;
    Anomaly a;
    a.id = 7;
    a.name = "gemm, \"tiled\"";
    a.evidence = "line one\nline two, with \"quotes\"";
    a.cause = Resource::Bandwidth;
    a.provenance = Provenance::Measured;
    a.durNs = 1'200'000;
    a.excessNs = 700'000;
    a.windows = {1, 2};
    r.anomalies.push_back(a);
    r.notes.push_back({"few-steps", "only 2 steps, so"});
    SignatureStats s;
    s.signature = "gemm [grid=[1, 2, 3]]";
    s.breakdown.measuredData = true;
    r.operators.push_back(s);

    const auto files = reportToCsv(r);
    REQUIRE(files.size() == 7);
    CHECK(files[0].name == "anomalies.csv");
    CHECK(files[1].name == "windows.csv");
    CHECK(files[2].name == "clusters.csv");
    CHECK(files[3].name == "operators.csv");
    CHECK(files[4].name == "notes.csv");
    CHECK(files[5].name == "patterns.csv");
    CHECK(files[6].name == "breakdowns.csv");
    CHECK(files[0].text.find("\"gemm, \"\"tiled\"\"\"") != std::string::npos);
    CHECK(files[1].text == files[1].text.substr(0, files[1].text.find("\r\n") + 2));  // no windows: header only

    const CsvTable an = parsed(files[0].text, "anomalies.csv");
    REQUIRE(an.rows() == 1);
    CHECK(an.cell(0, an.column("name")) == "gemm, \"tiled\"");
    CHECK(an.cell(0, an.column("evidence")) == "line one\nline two, with \"quotes\"");
    CHECK(an.cell(0, an.column("cause")) == "bandwidth");
    CHECK(an.cell(0, an.column("provenance")) == "measured");
    CHECK(an.cell(0, an.column("dur_ns")) == "1200000");
    CHECK(an.cell(0, an.column("dur")) == "1.2 ms");
    CHECK(an.cell(0, an.column("windows")) == "1 2");
    CHECK(an.cell(0, an.column("wait_before_ns")).empty());  // not known
    const CsvTable op = parsed(files[3].text, "operators.csv");
    REQUIRE(op.rows() == 1);
    CHECK(op.cell(0, op.column("signature")) == "gemm [grid=[1, 2, 3]]");
    CHECK(op.cell(0, op.column("data_wait_provenance")) == "measured");
    CHECK(op.cell(0, op.column("queue_provenance")) == "estimated");
    CHECK(parsed(files[4].text, "notes.csv").cell(0, 1) == "only 2 steps, so");
    for (const auto& f : files) {
        // Every line ends with CRLF (RFC 4180), and every row has the header's width.
        CHECK(f.text.size() >= 2);
        CHECK(f.text.compare(f.text.size() - 2, 2, "\r\n") == 0);
        const CsvTable t = parsed(f.text, f.name);
        for (std::size_t i = 0; i < t.rows(); ++i) CHECK(t.width(i) == t.columns());
    }
}

TEST_CASE("analyze --csv DIR: six files, one row per item of the report", "[report-csv][cli]") {
    const fs::path dir = fs::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-csv");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path samples = fs::path(contend::test::sourceDir()) / "resources" / "samples";
    REQUIRE(cli("simulate mixed --seed 3 --iterations 8 --out '" + (dir / "mixed.json").string() + "'") == 0);
    REQUIRE(cli("simulate null --seed 3 --out '" + (dir / "null.json").string() + "'") == 0);
    for (const fs::path& trace : {samples / "projectx-before.json.gz", dir / "mixed.json", dir / "null.json"}) {
        INFO(trace.string());
        const fs::path out = dir / "out" / trace.stem().string() / "csv";  // parents created too
        const fs::path json = dir / "report.json";
        // report/2: an object per finding, to match row by row (report/3 reads back the same).
        REQUIRE(cli("analyze '" + trace.string() + "' --json-schema 2 --json '" + json.string() + "' --csv '" +
                    out.string() + "'") == 0);
        const auto report = nlohmann::json::parse(slurp(json));
        const std::pair<const char*, const char*> files[] = {
            {"anomalies.csv", "anomalies"}, {"windows.csv", "windows"}, {"clusters.csv", "clusters"},
            {"operators.csv", "operators"}, {"notes.csv", "notes"},     {"patterns.csv", "patterns"}};
        for (const auto& [file, key] : files) {
            INFO(file);
            CsvTable t;
            const auto err = readCsv((out / file).string(), t);
            REQUIRE_FALSE(err);
            CHECK(t.rows() == report[key].size());
            for (std::size_t i = 0; i < t.rows(); ++i) CHECK(t.width(i) == t.columns());
        }
        CsvTable an;
        REQUIRE_FALSE(readCsv((out / "anomalies.csv").string(), an));
        for (std::size_t i = 0; i < an.rows(); ++i) {
            CHECK(an.cell(i, an.column("id")) == std::to_string(report["anomalies"][i]["id"].get<int>()));
            CHECK(an.cell(i, an.column("excess_ns")) ==
                  std::to_string(report["anomalies"][i]["excess_ns"].get<long long>()));
            CHECK(an.cell(i, an.column("provenance")) == report["anomalies"][i]["provenance"].get<std::string>());
            CHECK(an.cell(i, an.column("evidence")) == report["anomalies"][i]["evidence"].get<std::string>());
        }
        for (const auto& e : fs::directory_iterator(out))
            CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    }
    // A folder that cannot be made is a bad-input exit, with nothing half-written.
    std::ofstream(dir / "file").put('x');
    CHECK(cli("analyze '" + (dir / "null.json").string() + "' --csv '" + (dir / "file" / "csv").string() + "'") == 3);
    CHECK(cli("analyze '" + (dir / "null.json").string() + "' --csv") == 2);
    fs::remove_all(dir);
}
