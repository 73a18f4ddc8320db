// docs/ci.md runs as written: the contend-cli lines of its GitHub Actions and GitLab CI jobs are
// the same commands, and run here (contend-cli from this build) on the simulated pair they name
// they exit 0 and write a JUnit report that CI test views accept, and the summary.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "junit_check.h"
#include "test_paths.h"
#include "test_support.h"

namespace fs = std::filesystem;
using contend::test::slurp;

namespace {

// The contend-cli command lines of each ```yaml block of the doc, in order, one list per block.
std::vector<std::vector<std::string>> yamlCommands(const std::string& doc) {
    std::vector<std::vector<std::string>> blocks;
    std::istringstream in(doc);
    std::string line;
    bool inYaml = false;
    while (std::getline(in, line)) {
        if (line.rfind("```yaml", 0) == 0) {
            inYaml = true;
            blocks.emplace_back();
            continue;
        }
        if (line.rfind("```", 0) == 0) {
            inYaml = false;
            continue;
        }
        if (!inYaml) continue;
        std::size_t k = line.find_first_not_of(' ');
        if (k == std::string::npos) continue;
        if (line.compare(k, 2, "- ") == 0) k += 2;
        if (line.compare(k, 12, "contend-cli ") == 0) blocks.back().push_back(line.substr(k));
    }
    return blocks;
}

int shell(const std::string& cmd) {
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("docs/ci.md: the jobs' contend-cli commands run and publish a valid JUnit report", "[ci][cli][doc]") {
    const std::string doc = slurp(fs::path(contend::test::sourceDir()) / "docs" / "ci.md");
    REQUIRE(!doc.empty());
    const auto blocks = yamlCommands(doc);
    REQUIRE(blocks.size() == 2);    // GitHub Actions, GitLab CI
    CHECK(blocks[0] == blocks[1]);  // the same commands in both
    const std::vector<std::string>& commands = blocks[0];
    REQUIRE(commands.size() == 4);
    CHECK(commands[0] == "contend-cli simulate mixed --seed 3 --out before.json");
    CHECK(commands[1] == "contend-cli simulate mixed --seed 3 --fixed --out after.json");
    CHECK(commands[2].rfind("contend-cli analyze ", 0) == 0);
    CHECK(commands[3].find("contend-cli compare before.json after.json --fail-on-regression") == 0);
    CHECK(commands[3].find("--junit contend-junit.xml") != std::string::npos);
    CHECK(commands[3].find("--summary-md contend-summary.md") != std::string::npos);

    const fs::path dir = fs::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-ci-doc");
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const std::string& c : commands) {
        const std::string cmd = "cd '" + dir.string() + "' && " + contend::test::cliPath() +
                                c.substr(std::string("contend-cli").size()) + " >/dev/null 2>&1";
        INFO(c);
        CHECK(shell(cmd) == 0);
    }
    const contend::test::XmlElement suite = contend::test::checkJUnit(slurp(dir / "contend-junit.xml"));
    CHECK(suite.attr("failures") == "0");
    std::vector<std::string> names;
    for (const auto* c : suite.all("testcase")) names.push_back(c->attr("name"));
    CHECK(names.size() == 11);
    CHECK(std::find(names.begin(), names.end(), "no new anomalies") != names.end());
    CHECK(std::find(names.begin(), names.end(), "no new contention windows") != names.end());
    CHECK(std::find(names.begin(), names.end(), "end-to-end within tolerance") != names.end());
    CHECK(std::find(names.begin(), names.end(), "no extra wait added on bandwidth") != names.end());
    const std::string md = slurp(dir / "contend-summary.md");
    CHECK(md.find("### Contend: no regression") == 0);
    CHECK(md.find(".json") == std::string::npos);  // no local files named
    CHECK(fs::exists(dir / "after-csv" / "anomalies.csv"));

    // The same pair the other way round is a regression: exit 1, and the report says so.
    const std::string reverse =
        "cd '" + dir.string() + "' && " + contend::test::cliPath() +
        " compare after.json before.json --fail-on-regression --junit reverse.xml >/dev/null 2>&1";
    CHECK(shell(reverse) == 1);
    const contend::test::XmlElement bad = contend::test::checkJUnit(slurp(dir / "reverse.xml"));
    CHECK(bad.attr("failures") != "0");
    fs::remove_all(dir);
}
