// The one result/cancel convention (core/common/failure.h): a Failure says its kind, file and
// place; Result<T> holds a value or a Failure; a cancel is a Failure of kind Cancelled.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <variant>

#include "core/common/failure.h"

using namespace contend;

TEST_CASE("a failure's message names the file and the place when it has them", "[failure]") {
    Failure located = Failure::of(Failure::Kind::Malformed, "expected ',' or '}'", "trace.json");
    located.offset = 1048576;
    located.line = 2301;
    located.column = 17;
    CHECK(located.message() == "trace.json: byte 1048576 (line 2301, column 17): expected ',' or '}'");
    located.line = -1;
    CHECK(located.message() == "trace.json: byte 1048576: expected ',' or '}'");
    CHECK(Failure::of(Failure::Kind::Unreadable, "cannot open", "a.json").message() == "a.json: cannot open");
    Failure noFile = Failure::of(Failure::Kind::Malformed, "bad");
    noFile.offset = 3;
    CHECK(noFile.message() == "<input>: byte 3: bad");
    CHECK(Failure::of(Failure::Kind::OutOfMemory, "not enough memory: analysing this trace").message() ==
          "not enough memory: analysing this trace");
}

TEST_CASE("a cancel is a failure of kind Cancelled, the only way to say it", "[failure]") {
    const Failure c = Failure::cancelled("big.db");
    CHECK(c.kind == Failure::Kind::Cancelled);
    CHECK(c.isCancelled());
    CHECK(c.message() == "big.db: cancelled");
    CHECK(Failure::cancelled().message() == "cancelled");
    CHECK_FALSE(Failure::of(Failure::Kind::Other, "cancelled").isCancelled());  // the text decides nothing
}

TEST_CASE("a result holds its value or its failure", "[failure]") {
    Result<std::unique_ptr<int>> ok(std::make_unique<int>(7));
    REQUIRE(ok);
    CHECK(ok.ok());
    CHECK_FALSE(ok.cancelled());
    CHECK(*ok.value() == 7);
    std::unique_ptr<int> taken = std::move(ok).value();  // move-only values move out
    CHECK(*taken == 7);

    const Result<std::string> failed(Failure::of(Failure::Kind::NotATrace, "not a trace", "x.txt"));
    CHECK_FALSE(failed);
    CHECK_FALSE(failed.cancelled());
    CHECK(failed.failure().kind == Failure::Kind::NotATrace);
    CHECK_THROWS_AS(failed.value(), std::bad_variant_access);

    const Result<std::string> stopped(Failure::cancelled());
    CHECK(stopped.cancelled());
    const Result<int> five(5);
    CHECK_THROWS_AS(five.failure(), std::bad_variant_access);
}

TEST_CASE("a result's value is reached with -> and * as for std::optional, and a failure still throws", "[failure]") {
    Result<std::string> text(std::string("report"));
    CHECK(text->size() == 6);
    CHECK(*text == "report");
    text->append("/2");  // the value itself, not a copy
    CHECK(text.value() == "report/2");
    const Result<std::string>& same = text;
    CHECK(same->size() == 8);
    CHECK(*same == "report/2");

    const Result<std::string> failed(Failure::of(Failure::Kind::Malformed, "report: missing \"settings\""));
    CHECK_THROWS_AS(failed->size(), std::bad_variant_access);
    CHECK_THROWS_AS(*failed, std::bad_variant_access);
}
