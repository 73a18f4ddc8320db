// The format table, which is the reader table (core/io/reader_table.h, core/io/reader_entry.h): every
// format has one name that reads back and its words in every text made from the table (the
// format lists, the Open dialog, the refusals, the README), every reader entry a distinct name,
// and each kind of input the loader meets goes to the entry meant for it (or to its refusal).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sqlite3.h>
#include <string>
#include <vector>

#include "core/io/db/nsys_sqlite_reader.h"
#include "core/io/json/ascend_folder.h"
#include "core/io/json/chrome_json_reader.h"
#include "core/io/load.h"
#include "core/io/reader_entry.h"
#include "core/io/reader_table.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_format.h"
#include "sqlite_test_db.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
using contend::test::makeDb;
using contend::test::TempFile;
namespace fs = std::filesystem;

namespace {

// {"traceEvents":[{"ph":"X","name":"k","ts":1,"dur":2,"pid":1,"tid":1}]}, gzip-compressed.
const unsigned char kGzipTrace[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0x2a,
                                    0x29, 0x4a, 0x4c, 0x4e, 0x75, 0x2d, 0x4b, 0xcd, 0x2b, 0x29, 0x56, 0xb2, 0x8a,
                                    0xae, 0x56, 0x2a, 0xc8, 0x50, 0xb2, 0x52, 0x8a, 0x50, 0xd2, 0x51, 0xca, 0x4b,
                                    0xcc, 0x4d, 0x05, 0x32, 0xb3, 0x81, 0x4c, 0x90, 0x94, 0xa1, 0x8e, 0x52, 0x4a,
                                    0x69, 0x91, 0x92, 0x95, 0x91, 0x8e, 0x52, 0x41, 0x66, 0x0a, 0x98, 0x5f, 0x02,
                                    0xa6, 0x6b, 0x63, 0x6b, 0x01, 0x95, 0x27, 0x67, 0xe4, 0x46, 0x00, 0x00, 0x00};

const char* kTraceJson = R"({"traceEvents":[{"ph":"X","name":"k","ts":1,"dur":2,"pid":1,"tid":1}]})";

std::string picked(const std::string& path) {
    const ReaderEntry* e = pickReader(probePath(path));
    return e ? std::string(e->name) : std::string("(none)");
}

}  // namespace

TEST_CASE("every format in the table has a distinct name that reads back", "[reader-table]") {
    std::set<std::string_view> names;
    for (const FormatInfo* fp : traceFormats()) {
        REQUIRE(fp);
        const FormatInfo& f = *fp;
        INFO(f.name);
        CHECK_FALSE(f.name.empty());
        CHECK_FALSE(f.description.empty());
        CHECK(names.insert(f.name).second);
        CHECK(formatName(f) == f.name);
        REQUIRE(formatFromName(f.name));
        CHECK(&formatFromName(f.name)->info() == &f);
    }
    // Listed once each, by name.
    CHECK(std::is_sorted(traceFormats().begin(), traceFormats().end(),
                         [](const FormatInfo* a, const FormatInfo* b) { return a->name < b->name; }));
    CHECK(traceFormats().size() == 6);
    CHECK(formatName(TraceFormat{}) == "chrome");
    CHECK_FALSE(formatFromName("nsys-rep"));
}

TEST_CASE("the texts that list formats are made from the format table", "[reader-table]") {
    const std::string lines = formatLines();
    const std::string filter = openDialogFilter();
    const std::string all = filter.substr(0, filter.find(";;"));
    const std::string folder = folderRefusalWords();
    const std::string database = databaseRefusalWords();
    const std::string readme = test::slurp(test::sourceDir() + "/README.md");
    for (const FormatInfo* fp : traceFormats()) {
        const FormatInfo& f = *fp;
        INFO(f.name);
        CHECK(lines.find("  " + std::string(f.name) + " ") != std::string::npos);
        CHECK(lines.find(std::string(f.description) + "\n") != std::string::npos);
        // Every pattern is among the traces the dialog offers, and under the format's own entry.
        for (std::size_t at = 0; at < f.patterns.size();) {
            const std::size_t end = std::min(f.patterns.find(' ', at), f.patterns.size());
            CHECK(all.find(std::string(f.patterns.substr(at, end - at))) != std::string::npos);
            at = end + 1;
        }
        if (!f.dialogEntry.empty()) CHECK(filter.find(std::string(f.dialogEntry) + " (") != std::string::npos);
        CHECK(folder.find(std::string(f.folderWords.substr(0, f.folderWords.find(',')))) != std::string::npos);
        CHECK(database.find(std::string(f.databaseWords)) != std::string::npos);
        CHECK(database.find(std::string(f.databaseTables)) != std::string::npos);
        CHECK(rankFromWords().find(std::string(f.rankFrom)) != std::string::npos);
        // The README's table of formats names each one with its line.
        CHECK(readme.find("| `" + std::string(f.name) + "` | " + std::string(f.description) + " |") !=
              std::string::npos);
    }
    CHECK(all.rfind("Traces (*.json ", 0) == 0);
    CHECK(filter.size() > 15);
    CHECK(filter.substr(filter.size() - 15) == ";;All files (*)");
    CHECK(database.rfind("neither an ", 0) == 0);
    CHECK(rankFromWords() == "profiler_info_N.json or distributedInfo.rank");
}

TEST_CASE("every reader entry has a distinct name, and the formats are the readers'", "[reader-table]") {
    std::set<std::string_view> names;
    std::set<const FormatInfo*> produced;
    for (const ReaderEntry* e : readerTable()) {
        REQUIRE(e);
        INFO(e->name);
        CHECK_FALSE(e->name.empty());
        CHECK(names.insert(e->name).second);
        CHECK(e->sniff);
        CHECK(e->read);
        for (const FormatInfo* f : e->formats) {
            REQUIRE(f);
            produced.insert(f);
        }
        // A refusal reads no format; a reader at least one.
        const std::set<std::string_view> refusals{"folder-without-trace", "unreadable-sqlite", "ascend-analysis-db",
                                                  "other-sqlite",         "not-sqlite",        "nsys-report"};
        CHECK(e->formats.empty() == (refusals.count(e->name) == 1));
    }
    CHECK(produced == std::set<const FormatInfo*>(traceFormats().begin(), traceFormats().end()));
    // Each reader's formats, by name.
    auto namesOf = [](const ReaderEntry& e) {
        std::vector<std::string_view> out;
        for (const FormatInfo* f : e.formats) out.push_back(f->name);
        return out;
    };
    CHECK(namesOf(kChromeJsonReader) == std::vector<std::string_view>{"chrome", "kineto", "ascend"});
    CHECK(namesOf(kAscendFolderReader) == std::vector<std::string_view>{"ascend-folder", "ascend-db"});
    CHECK(namesOf(kNsysSqliteReader) == std::vector<std::string_view>{"nsys-sqlite"});
    // JSON is the fallback: last, and it takes any file no entry before it took.
    REQUIRE_FALSE(readerTable().empty());
    CHECK(readerTable().back()->name == "json");
}

TEST_CASE("each kind of input picks its reader or its refusal", "[reader-table]") {
    TempFile dir("reader-table");
    fs::create_directories(dir.path());
    const fs::path d(dir.path());
    auto write = [](const fs::path& p, const std::string& bytes) {
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << bytes;
    };

    write(d / "plain.json", kTraceJson);
    CHECK(picked((d / "plain.json").string()) == "json");
    write(d / "zipped.json.gz", std::string(reinterpret_cast<const char*>(kGzipTrace), sizeof kGzipTrace));
    CHECK(picked((d / "zipped.json.gz").string()) == "json");
    CHECK(picked((d / "missing.json").string()) == "json");  // the JSON reader says it cannot open it

    makeDb((d / "run.sqlite").string(), "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end);");
    CHECK(picked((d / "run.sqlite").string()) == "nsys-sqlite");
    makeDb((d / "session.db").string(),
           "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs); "
           "CREATE TABLE StringIds (id, value);");
    CHECK(picked((d / "session.db").string()) == "nsys-sqlite");
    makeDb((d / "ascend_pytorch_profiler_0.db").string(),
           "CREATE TABLE TASK (a); CREATE TABLE STRING_IDS (id, value);");
    CHECK(picked((d / "ascend_pytorch_profiler_0.db").string()) == "ascend-db");
    makeDb((d / "sub" / "analysis.db").string(), "CREATE TABLE StepTraceTime (step);");
    // An Ascend analysis.db: the Ascend reader's own refusal, which says where the trace is.
    CHECK(picked((d / "sub" / "analysis.db").string()) == "ascend-analysis-db");
    makeDb((d / "other.db").string(), "CREATE TABLE StepTraceTime (step);");
    CHECK(picked((d / "other.db").string()) == "other-sqlite");
    // SQLite's header and then nothing SQLite can read.
    write(d / "broken.db", std::string("SQLite format 3\0", 16) + std::string(200, 'x'));
    CHECK(picked((d / "broken.db").string()) == "unreadable-sqlite");
    write(d / "text.db", "not a database");
    CHECK(picked((d / "text.db").string()) == "not-sqlite");
    write(d / "empty.sqlite", "");
    CHECK(picked((d / "empty.sqlite").string()) == "not-sqlite");
    write(d / "capture.nsys-rep", "a container");
    CHECK(picked((d / "capture.nsys-rep").string()) == "nsys-report");
    write(d / "capture.qdrep", "a container");
    CHECK(picked((d / "capture.qdrep").string()) == "nsys-report");

    fs::create_directories(d / "empty");
    CHECK(picked((d / "empty").string()) == "folder-without-trace");
    write(d / "kineto" / "host_1.pt.trace.json", kTraceJson);
    CHECK(picked((d / "kineto").string()) == "kineto-folder");
    write(d / "two" / "a.pt.trace.json", kTraceJson);
    write(d / "two" / "b.pt.trace.json.gz", kTraceJson);
    CHECK(picked((d / "two").string()) == "folder-without-trace");
    write(d / "rank0" / "ASCEND_PROFILER_OUTPUT" / "trace_view.json", kTraceJson);
    CHECK(picked((d / "rank0").string()) == "ascend-folder");
    // trace_view.json opened as a file: the folder's reader when side files are beside it.
    CHECK(picked((d / "rank0" / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").string()) == "json");
    write(d / "rank0" / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", "Name\n");
    CHECK(picked((d / "rank0" / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").string()) == "ascend-folder");
    makeDb((d / "dbrank" / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db").string(),
           "CREATE TABLE TASK (a); CREATE TABLE STRING_IDS (id, value);");
    CHECK(picked((d / "dbrank").string()) == "ascend-folder");
}

TEST_CASE("the picked entry reads: formats, sources and refusals come back through loadTrace", "[reader-table]") {
    TempFile dir("reader-table-load");
    fs::create_directories(dir.path());
    const fs::path d(dir.path());
    {
        const std::string gz = (d / "zipped.json.gz").string();
        std::ofstream(gz, std::ios::binary).write(reinterpret_cast<const char*>(kGzipTrace), sizeof kGzipTrace);
        LoadResult r = loadTrace(gz);
        REQUIRE(r);
        CHECK(r.value()->traceFormat() == kChromeFormat);
        CHECK(r.value()->source().gzip);
        CHECK(r.value()->source().path == gz);
        CHECK(r.value()->slices().size() == 1);
    }
    {
        fs::create_directories(d / "kineto");
        const std::string file = (d / "kineto" / "host_1.pt.trace.json").string();
        std::ofstream(file) << kTraceJson;
        LoadResult r = loadTrace((d / "kineto").string());
        REQUIRE(r);
        CHECK(r.value()->source().path == file);
        CHECK_FALSE(r.value()->source().gzip);
    }
    {
        const std::string rep = (d / "capture.nsys-rep").string();
        std::ofstream(rep) << "x";
        LoadResult r = loadTrace(rep);
        REQUIRE(!r.ok());
        CHECK(r.failure().kind == Failure::Kind::NotATrace);
        CHECK(r.failure().reason ==
              "an Nsight Systems report: export it with `nsys export --type sqlite capture.nsys-rep` and open the "
              ".sqlite");
    }
    {
        const std::string broken = (d / "broken.db").string();
        std::ofstream(broken, std::ios::binary) << std::string("SQLite format 3\0", 16) + std::string(200, 'x');
        LoadResult r = loadTrace(broken);
        REQUIRE(!r.ok());
        CHECK(r.failure().kind == Failure::Kind::Unreadable);
        CHECK(r.failure().reason.rfind("cannot read this SQLite database: ", 0) == 0);
    }
    {
        fs::create_directories(d / "empty");
        LoadResult r = loadTrace((d / "empty").string());
        REQUIRE(!r.ok());
        CHECK(r.failure().kind == Failure::Kind::NotATrace);
        CHECK(r.failure().reason.rfind("no trace in this folder: ", 0) == 0);
    }
}
