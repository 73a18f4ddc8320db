// The CI outputs of compare: the checks, the JUnit XML (well-formed, escaped, counts that add
// up) and the pull-request summary.
#include <catch2/catch.hpp>
#include <string>

#include "core/report/compare/compare_checks.h"
#include "core/report/compare/compare_summary_md.h"
#include "core/report/compare/junit_report.h"
#include "core/report/xml_text.h"
#include "junit_check.h"

using namespace contend;
using contend::test::XmlElement;

namespace {

CompareResult cleanResult() {
    CompareResult r;
    r.baseEndToEnd = 100'000'000;  // 100 ms
    r.newEndToEnd = 99'000'000;
    r.endToEndChange = -0.01;
    r.verdict = "the change resolved 2 anomalies";
    r.basePath = "/home/me/before.json";
    r.newPath = "/home/me/after.json";
    r.baseByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 2'000'000;
    r.newByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 1'000'000;
    AnomalyDiff gone;
    gone.inBase = true;
    r.anomalies.resolved = {gone, gone};
    return r;
}

const XmlElement* testcase(const XmlElement& suite, const std::string& name) {
    for (const XmlElement* c : suite.all("testcase"))
        if (c->attr("name") == name) return c;
    return nullptr;
}

}  // namespace

TEST_CASE("xmlEscape: entities, bad UTF-8 and forbidden characters", "[ci][junit]") {
    CHECK(xmlEscape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(xmlEscape("caf\xC3\xA9") == "caf\xC3\xA9");            // valid UTF-8 kept
    CHECK(xmlEscape("x\xFFy") == "x\xEF\xBF\xBDy");              // a bad byte -> U+FFFD
    CHECK(xmlEscape("\xE2\x82") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // a cut sequence, byte by byte
    CHECK(xmlEscape("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
    CHECK(xmlEscape(std::string("a\0b\x01\x1F", 5)) == "ab");    // C0 controls dropped
    CHECK(xmlEscape("l1\nl2\tx") == "l1&#10;l2&#9;x");           // kept through attribute normalisation
}

TEST_CASE("compare checks: the three gates plus one per resource", "[ci][junit]") {
    CompareSettings s;
    CompareResult r = cleanResult();
    auto checks = compareChecks(r, s);
    REQUIRE(checks.size() == 3 + kResourceCount - 1);
    CHECK(checks[0].name == "no new anomalies");
    CHECK(checks[1].name == "no new contention windows");
    CHECK(checks[2].name == "end-to-end within tolerance");
    CHECK(checks[3].name == "no extra wait added on bandwidth");
    CHECK(checks.back().name == "no extra wait added on unknown");
    CHECK(countChecks(checks, CheckOutcome::Failed) == 0);
    CHECK(countChecks(checks, CheckOutcome::Skipped) == kResourceCount - 2);  // all but bandwidth
    CHECK(regressions(r, s).empty());

    // 3 new anomalies, 5% slower, 3 ms more cache wait (allowed: 2% of 100 ms = 2 ms).
    AnomalyDiff added;
    added.inNew = true;
    r.anomalies.added = {added, added, added};
    r.newEndToEnd = 105'000'000;
    r.endToEndChange = 0.05;
    r.newByResource[static_cast<std::size_t>(Resource::Cache)] = 3'000'000;
    checks = compareChecks(r, s);
    CHECK(checks[0].outcome == CheckOutcome::Failed);
    CHECK(checks[0].message.find("3 new anomalies (allowed 0)") != std::string::npos);
    CHECK(checks[1].outcome == CheckOutcome::Passed);
    CHECK(checks[2].outcome == CheckOutcome::Failed);
    CHECK(checks[2].message.find("+5.0%") != std::string::npos);
    const auto cache = static_cast<std::size_t>(Resource::Cache);
    CHECK(checks[3 + cache].outcome == CheckOutcome::Failed);
    CHECK(checks[3 + cache].message.find("grew by 3") != std::string::npos);
    // The gates agree with regressions() in core/analysis/compare/compare.h.
    CHECK(regressions(r, s).size() == 2);
    s.maxNewAnomalies = 3;
    s.endToEndTolerance = 0.10;  // allows 10 ms of growth per resource too
    CHECK(countChecks(compareChecks(r, s), CheckOutcome::Failed) == 0);
    CHECK(regressions(r, s).empty());
}

TEST_CASE("JUnit report: well-formed, counts consistent, failures in words, every text escaped", "[ci][junit]") {
    CompareSettings s;
    CompareResult r = cleanResult();
    r.verdict = "<&> \"quoted\" 'single' \xFF bad byte \x01 control";
    r.basePath = "dir/a&b<before>.json";
    AnomalyDiff added;
    added.inNew = true;
    r.anomalies.added = {added};
    JUnitOptions o;
    o.seconds = 1.25;
    o.timestamp = "2026-12-01T07:22:00";
    const std::string xml = compareToJUnit(r, s, o);
    const XmlElement suite = contend::test::checkJUnit(xml);
    CHECK(suite.attr("tests") == std::to_string(3 + kResourceCount - 1));
    CHECK(suite.attr("failures") == "1");
    CHECK(suite.attr("time") == "1.250");
    CHECK(suite.attr("timestamp") == "2026-12-01T07:22:00");
    const XmlElement* c = testcase(suite, "no new anomalies");
    REQUIRE(c);
    REQUIRE(c->all("failure").size() == 1);
    CHECK(c->all("failure")[0]->attr("message").find("1 new anomalies (allowed 0)") != std::string::npos);
    REQUIRE(testcase(suite, "no extra wait added on compute"));
    CHECK(testcase(suite, "no extra wait added on compute")->all("skipped").size() == 1);
    // The verdict comes back as written, but for the bad byte (U+FFFD) and the control (dropped).
    bool found = false;
    for (const XmlElement* p : suite.all("properties")[0]->all("property"))
        if (p->attr("name") == "verdict") {
            found = true;
            CHECK(p->attr("value") == "<&> \"quoted\" 'single' \xEF\xBF\xBD bad byte  control");
        } else if (p->attr("name") == "base") {
            CHECK(p->attr("value") == "dir/a&b<before>.json");
        }
    CHECK(found);
}

TEST_CASE("the checker refuses broken XML", "[ci][junit]") {
    contend::test::XmlElement e;
    contend::test::XmlChecker x;
    CHECK_FALSE(x.parse("<a><b></a></b>", e));
    CHECK_FALSE(x.parse("<a x=\"1\" x=\"2\"/>", e));
    CHECK_FALSE(x.parse("<a>&bogus;</a>", e));
    CHECK_FALSE(x.parse("<a>x & y</a>", e));
    CHECK_FALSE(x.parse("<a x=1/>", e));
    CHECK_FALSE(x.parse("<a>\xFF</a>", e));
    CHECK_FALSE(x.parse("<a/><b/>", e));
    CHECK_FALSE(x.parse(std::string("<a>\x01</a>"), e));
    CHECK(x.parse("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a k='&lt;&#10;'>t&amp;<b/></a>\n", e));
    CHECK(e.attr("k") == "<\n");
    CHECK(e.text == "t&");
}

TEST_CASE("PR summary: verdict, counts before -> after, five biggest changes, no local paths", "[ci][summary]") {
    CompareSettings s;
    CompareResult r = cleanResult();
    for (int k = 0; k < 7; ++k) {
        OperatorDiff d;
        d.signature = "op" + std::to_string(k) + (k == 0 ? " a|b `x`" : "");
        d.inBase = d.inNew = true;
        d.base.totalNs = 1000;
        d.now.totalNs = 2000;
        d.meanChange = 1.0;
        r.operators.push_back(d);
    }
    const std::string md = compareSummaryMarkdown(r, s);
    CHECK(md.find("### Contend: no regression") == 0);
    CHECK(md.find("**Verdict:** the change resolved 2 anomalies") != std::string::npos);
    CHECK(md.find("| end-to-end | 100 ms | 99 ms | -1.0% |") != std::string::npos);
    CHECK(md.find("| anomalies | 2 | 0 | -2 (2 resolved, 0 new) |") != std::string::npos);
    CHECK(md.find("| contention windows | 0 | 0 | = (0 resolved, 0 new) |") != std::string::npos);
    CHECK(md.find("`op0 a/b 'x'`") != std::string::npos);  // cannot split the table
    CHECK(md.find("`op4`") != std::string::npos);
    CHECK(md.find("`op5`") == std::string::npos);  // five only
    CHECK(md.find("before.json") == std::string::npos);
    CHECK(md.find("/home/") == std::string::npos);
    CHECK(md.find("](") == std::string::npos);

    AnomalyDiff added;
    added.inNew = true;
    r.anomalies.added = {added};
    const std::string bad = compareSummaryMarkdown(r, s);
    CHECK(bad.find("### Contend: 1 check failed") == 0);
    CHECK(bad.find("- no new anomalies: 1 new anomalies (allowed 0)") != std::string::npos);
}
