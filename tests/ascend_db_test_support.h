#pragma once
// What the Ascend database tests share (test_ascend_db.cpp, test_ascend_db_real.cpp).
#include <catch2/catch.hpp>
#include <iostream>
#include <string>
#include <string_view>

#include "core/io/load.h"
#include "core/trace/trace.h"
#include "test_support.h"

namespace contend::test::ascend_db {

inline void requireSharedTraces() {
    if (test::haveSharedTraces()) return;
    std::cerr << test::sharedTraces() << " not found: real Ascend database tests skipped" << std::endl;
    contend::test::skipTest();
}

inline std::uint32_t findSlice(const Trace& t, std::string_view name, std::string_view process = {}) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == name &&
            (process.empty() || t.tracks()[t.slices()[i].track].processName == process))
            return i;
    FAIL("no slice named " << name);
    return kNone;
}

inline const CounterSeries* findCounter(const Trace& t, const std::string& label) {
    for (const auto& c : t.counters())
        if (c.label() == label) return &c;
    return nullptr;
}

inline std::uint64_t phase(const Trace& t, const char* k) {
    return t.stats().phases.count(k) ? t.stats().phases.at(k) : 0;
}

inline LoadResult loadOk(const std::string& path) {
    LoadResult r = loadTrace(path);
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    return r;
}

}  // namespace contend::test::ascend_db
