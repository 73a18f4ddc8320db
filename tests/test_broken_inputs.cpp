// Broken inputs, one row each: loadTrace either fails with a message that names the file and the
// reason, or (for a file cut short) loads every complete event and says it was truncated. Never a
// crash, never a silent success.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>
#include <zlib.h>

#include "core/io/load.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

// A folder of its own per test run, removed at the end.
class Scratch {
  public:
    Scratch() : m_dir(fs::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-broken")) {
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    ~Scratch() {
        std::error_code ec;
        fs::permissions(m_dir, fs::perms::owner_all, fs::perm_options::add, ec);
        for (const auto& e : fs::recursive_directory_iterator(m_dir, ec))
            fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(m_dir, ec);
    }
    std::string write(const std::string& name, const std::string& bytes) const {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p.string();
    }
    fs::path dir() const { return m_dir; }

  private:
    fs::path m_dir;
};

std::string gzipped(const std::string& text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// Events that do not compress well, so that cutting the gzip in half cuts the event array.
std::string manyEvents(int n) {
    std::string json = "{\"traceEvents\": [\n";
    std::uint32_t x = 12345;
    for (int i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        if (i) json += ",\n";
        json += R"({"ph": "X", "name": "op)" + std::to_string(x) + R"(", "pid": 1, "tid": 1, "ts": )" +
                std::to_string(i * 10) + R"(, "dur": 5, "args": {"r": )" + std::to_string(x ^ 0x5bd1e995u) + "}}";
    }
    return json + "\n]}";
}

enum class Expect { Error, Truncated, Loads };

struct BrokenInput {
    const char* what;
    std::function<std::string(const Scratch&)> make;  // creates the input, returns its path
    Expect expect;
    std::vector<std::string> says;  // in the error message, or in a warning kind/example
    std::size_t slices = 0;         // loaded slices, for the rows that load
};

bool anyWarningSays(const Trace& t, const std::string& s) {
    for (const auto& w : t.stats().warnings)
        if (w.kind.find(s) != std::string::npos || w.example.find(s) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("broken inputs fail with the file and the reason, or load what is complete", "[reader][broken]") {
    const std::string nested =
        "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"deep\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": 1, \"dur\": 1, \"args\": {\"a\": " +
        std::string(10000, '[') + std::string(10000, ']') + "}}]}";
    const std::string deep = std::string(10000, '[') + std::string(10000, ']');
    // An X event with `fields`, then a plain one that must still load.
    auto twoEvents = [](const std::string& fields) {
        return "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"deep\", \"pid\": 1, \"tid\": 1, " + fields +
               "}, {\"ph\": \"X\", \"name\": \"ok\", \"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1}]}";
    };
    const std::string big = manyEvents(20000);
    auto write = [](const char* name, std::string bytes) {
        return [name, bytes = std::move(bytes)](const Scratch& s) { return s.write(name, bytes); };
    };
    const std::vector<BrokenInput> rows = {
        {"empty file", write("empty.json", ""), Expect::Error, {"empty.json", "the file is empty"}},
        {"white space only", write("blank.json", " \n\t\r\n "), Expect::Error, {"blank.json", "only white space"}},
        {"not JSON", write("hello.json", "hello"), Expect::Error, {"hello.json", "not a JSON trace", "'h'"}},
        {"a JSON object that is not a trace",
         write("object.json", "{\"a\": 1}"),
         Expect::Error,
         {"object.json", "not a trace", "traceEvents"}},
        {"a JSON number", write("number.json", "42"), Expect::Error, {"number.json", "not a JSON trace"}},
        {"a PNG named .json",
         write("image.json", std::string("\x89PNG\r\n\x1a\n", 8)),
         Expect::Error,
         {"image.json", "not a JSON trace: it starts with byte 0x89, expected"}},
        {"traceEvents that is not an array",
         write("notarray.json", "{\"traceEvents\": 5}"),
         Expect::Error,
         {"notarray.json", "not a trace"}},
        {"cut in the middle of an event",
         write("cut.json",
               "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
               "\"dur\": 2}, {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"ti"),
         Expect::Truncated,
         {"file truncated"}},
        {"broken JSON in the middle",
         write("broken.json", "{\"traceEvents\":[\n{\"ph\":\"X\",,}]}"),
         Expect::Error,
         {"broken.json", "byte ", "(line 2, column "}},
        {"a gzip cut short",
         [&big](const Scratch& s) {
             const std::string gz = gzipped(big);
             return s.write("cut.json.gz", gz.substr(0, gz.size() / 2));
         },
         Expect::Truncated,
         {"gzip"}},
        {"a folder with no trace",
         [](const Scratch& s) {
             fs::create_directories(s.dir() / "empty-folder");
             s.write("empty-folder/notes.txt", "x");
             return (s.dir() / "empty-folder").string();
         },
         Expect::Error,
         {"empty-folder", "no trace in this folder"}},
        {"a file that does not exist",
         [](const Scratch& s) { return (s.dir() / "missing.json").string(); },
         Expect::Error,
         {"missing.json", "no such file"}},
        {"ts of the wrong type",
         write("tstype.json", R"({"traceEvents": [
            {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": true, "dur": 1},
            {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}]})"),
         Expect::Loads,
         {"ts is not a number"},
         1},
        {"pid of the wrong type",
         write("pidtype.json", R"({"traceEvents": [
            {"ph": "X", "name": "a", "pid": {}, "tid": 1, "ts": 1, "dur": 1},
            {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}]})"),
         Expect::Loads,
         {"pid or tid is not a number or string"},
         2},
        {"args nested 10000 deep", write("nested.json", nested), Expect::Loads, {}, 1},
        {"an arg the reader keeps, nested 10000 deep",
         write("deepdims.json", twoEvents("\"ts\": 1, \"dur\": 1, \"args\": {\"Input Dims\": " + deep + "}")),
         Expect::Loads,
         {},
         2},
        {"ts nested 10000 deep",
         write("deepts.json", twoEvents("\"ts\": " + deep + ", \"dur\": 1")),
         Expect::Loads,
         {"ts is not a number"},
         1},
        {"a top-level value nested 10000 deep",
         write("deeptop.json", "{\"traceEvents\": [], \"deviceProperties\": " + deep + "}"),
         Expect::Loads,
         {}},
        {"10000 brackets never closed inside an event",
         write("unbalanced.json",
               "{\"traceEvents\": [{\"ph\": \"X\", \"args\": {\"a\": " + std::string(10000, '[') + "}}]}"),
         Expect::Error,
         {"unbalanced.json", "unbalanced brackets"}},
        {"10000 unclosed brackets",
         write("unclosed.json", std::string(10001, '[')),
         Expect::Truncated,
         {"file truncated"}},
    };
    Scratch scratch;
    for (const BrokenInput& row : rows) {
        INFO(row.what);
        const std::string path = row.make(scratch);
        LoadResult r = loadTrace(path);
        switch (row.expect) {
        case Expect::Error: {
            REQUIRE_FALSE(r);
            REQUIRE(!r.ok());
            const std::string m = r.failure().message();
            INFO(m);
            CHECK(r.failure().file.find(fs::path(path).filename().string()) != std::string::npos);
            for (const auto& s : row.says) CHECK_THAT(m, Catch::Contains(s));
            break;
        }
        case Expect::Truncated:
            REQUIRE(r);
            CHECK(r.value()->stats().truncated);
            for (const auto& s : row.says) CHECK(anyWarningSays(*r.value(), s));
            break;
        case Expect::Loads:
            REQUIRE(r);
            CHECK_FALSE(r.value()->stats().truncated);
            CHECK(r.value()->slices().size() == row.slices);
            for (const auto& s : row.says) CHECK(anyWarningSays(*r.value(), s));
            break;
        }
    }
}

TEST_CASE("a file cut short keeps every complete event", "[reader][broken]") {
    Scratch scratch;
    auto r = loadTrace(scratch.write("cut.json", R"({"traceEvents": [
      {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
      {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 2},
      {"ph": "X", "name": "c", "pid": 1, "ti)"));
    REQUIRE(r);
    CHECK(r.value()->stats().truncated);
    REQUIRE(r.value()->slices().size() == 2);
    CHECK(r.value()->str(r.value()->slices()[1].name) == "b");
}

TEST_CASE("a gzip cut short keeps the events before the cut", "[reader][broken]") {
    Scratch scratch;
    const std::string big = manyEvents(20000);
    const std::string gz = gzipped(big);
    auto whole = loadTrace(scratch.write("whole.json.gz", gz));
    REQUIRE(whole);
    CHECK(whole.value()->slices().size() == 20000);
    CHECK_FALSE(whole.value()->stats().truncated);
    auto cut = loadTrace(scratch.write("half.json.gz", gz.substr(0, gz.size() / 2)));
    REQUIRE(cut);
    CHECK(cut.value()->stats().truncated);
    CHECK(cut.value()->slices().size() > 1000);
    CHECK(cut.value()->slices().size() < 20000);
}

TEST_CASE("a broken event is located by byte, line and column", "[reader][broken]") {
    Scratch scratch;
    auto r = loadTrace(scratch.write("located.json", "{\"traceEvents\":[\n{\"ph\":\"X\",,}]}"));
    REQUIRE_FALSE(r);
    REQUIRE(!r.ok());
    CHECK(r.failure().offset >= 16);
    CHECK(r.failure().line == 2);
    CHECK(r.failure().column >= 1);
}

TEST_CASE("a file without read permission is an error naming it", "[reader][broken]") {
    if (::geteuid() == 0) {
        WARN("running as root, which can read anything: the permission row is skipped");
        return;
    }
    Scratch scratch;
    const std::string path = scratch.write("secret.json", "[]");
    fs::permissions(path, fs::perms::none);
    auto r = loadTrace(path);
    REQUIRE_FALSE(r);
    REQUIRE(!r.ok());
    CHECK_THAT(r.failure().message(), Catch::Contains("secret.json") && Catch::Contains("permission denied"));
}
