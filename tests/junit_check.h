#pragma once
// What a JUnit report must hold for CI test views (the Jenkins junit-10.xsd shape, which GitLab
// and GitHub test-report actions read): checked with Catch2 assertions, shared by the tests of the
// writer and of docs/ci.md.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "xml_check.h"

namespace contend::test {

inline bool isCount(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}
inline bool isSeconds(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0' && v >= 0 && s.find_first_of("eE") == std::string::npos;
}

// Checks `xml` and returns its one <testsuite>, copied (empty name when it is missing).
inline XmlElement checkJUnit(const std::string& xml) {
    XmlElement root;
    XmlChecker checker;
    INFO(checker.error());
    REQUIRE(checker.parse(xml, root));
    INFO(checker.error());
    REQUIRE(root.name == "testsuites");
    const auto suites = root.all("testsuite");
    REQUIRE(suites.size() == 1);
    const XmlElement& suite = *suites[0];
    CHECK(suite.attr("name") == "contend.compare");
    std::size_t failures = 0, skipped = 0, cases = 0;
    for (const XmlElement& c : suite.children) {
        // junit-10.xsd: properties, testcase*, system-out?, system-err?
        CHECK((c.name == "properties" || c.name == "testcase" || c.name == "system-out" || c.name == "system-err"));
        if (c.name != "testcase") continue;
        ++cases;
        CHECK(!c.attr("name").empty());
        CHECK(c.has("classname"));
        CHECK(isSeconds(c.attr("time")));
        for (const XmlElement& k : c.children)
            CHECK((k.name == "failure" || k.name == "skipped" || k.name == "error" || k.name == "system-out" ||
                   k.name == "system-err"));
        const auto f = c.all("failure");
        const auto s = c.all("skipped");
        CHECK(f.size() + s.size() <= 1);
        if (!f.empty()) {
            ++failures;
            CHECK(!f[0]->attr("message").empty());
        }
        if (!s.empty()) ++skipped;
    }
    for (const XmlElement* e : std::initializer_list<const XmlElement*>{&root, &suite}) {
        for (const char* a : {"tests", "failures", "errors", "skipped"}) {
            INFO("<" << e->name << "> @" << a);
            CHECK(isCount(e->attr(a)));
        }
        CHECK(isSeconds(e->attr("time")));
        CHECK(e->attr("tests") == std::to_string(cases));
        CHECK(e->attr("failures") == std::to_string(failures));
        CHECK(e->attr("skipped") == std::to_string(skipped));
        CHECK(e->attr("errors") == "0");
    }
    return suite;
}

}  // namespace contend::test
