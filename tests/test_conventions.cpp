// The format conventions (core/trace/conventions.h) and the format name table: what each name a
// profiler writes is taken to mean, and that finalize() itself no longer reads names.
#include <catch2/catch.hpp>

#include "core/io/db/ascend_db_reader.h"
#include "core/io/db/nsys_sqlite_reader.h"
#include "core/io/json/ascend_folder.h"
#include "core/io/json/chrome_json_reader.h"
#include "core/io/load.h"
#include "core/io/reader_table.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"

using namespace contend;

namespace {

std::uint32_t findSlice(const Trace& t, std::string_view name) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == name) return i;
    return kNone;
}

Slice slice(TraceBuilder& b, std::uint32_t track, std::string_view name, TimeNs start, TimeNs dur, char phase = 'X') {
    Slice s;
    s.start = start;
    s.dur = dur;
    s.name = b.intern(name);
    s.track = track;
    s.phase = phase;
    return s;
}

}  // namespace

TEST_CASE("every trace format has one name, and the names read back", "[conventions]") {
    const TraceFormat all[] = {kChromeFormat,       kKinetoFormat,   kAscendFormat,
                               kAscendFolderFormat, kAscendDbFormat, kNsysSqliteFormat};
    const char* names[] = {"chrome", "kineto", "ascend", "ascend-folder", "ascend-db", "nsys-sqlite"};
    for (std::size_t i = 0; i < std::size(all); ++i) {
        CHECK(formatName(all[i]) == names[i]);
        CHECK(formatFromName(names[i]) == all[i]);
    }
    CHECK_FALSE(formatFromName("json"));
    CHECK(TraceFormat{} == kChromeFormat);
    CHECK_FALSE(TraceFormat{} == kKinetoFormat);
    TraceBuilder b(kNsysSqliteFormat);
    const TracePtr t = b.finalize();
    CHECK(t->traceFormat() == kNsysSqliteFormat);
    CHECK(formatName(t->traceFormat()) == "nsys-sqlite");
}

TEST_CASE("Kineto categories map to slice flags", "[conventions]") {
    using namespace conventions;
    CHECK(sliceFlagsOfCategory("kernel") == kSliceDevice);
    CHECK(sliceFlagsOfCategory("gpu_memcpy") == (kSliceDevice | kSliceMemory));
    CHECK(sliceFlagsOfCategory("Memset") == (kSliceDevice | kSliceMemory));
    CHECK(sliceFlagsOfCategory("cuda_runtime") == kSliceLaunch);
    CHECK(sliceFlagsOfCategory("cuda_sync") == kSliceWait);
    CHECK(sliceFlagsOfCategory("cpu_op") == 0);
    CHECK(sliceFlagsOfCategory("kernels") == 0);  // exact names only
    CHECK(isKinetoCategory("cpu_op"));
    CHECK(isKinetoCategory("gpu_user_annotation"));
    CHECK_FALSE(isKinetoCategory("python_function"));  // Ascend writes it too
}

TEST_CASE("the wait-task rule is one list of text and database spellings", "[conventions]") {
    using namespace conventions;
    for (const char* t : {"EVENT_WAIT_SQE", "EVENT_RECORD_SQE", "NOTIFY_WAIT_SQE", "PLACE_HOLDER_SQE", "Notify Wait",
                          "Write Value", "EVENT_WAIT", "EVENT_RECORD", "NOTIFY_WAIT", "PROFILING_ENABLE"})
        CHECK(isWaitTaskType(t));
    for (const char* t : {"AI_CORE", "SDMA", "MIX_AIV", "KERNEL_AIVEC", ""}) CHECK_FALSE(isWaitTaskType(t));
    // The database's names fall in the same class as the text export's: one run gets the same
    // wait verdicts from either export (EVENT_RECORD is the database's EVENT_RECORD_SQE).
    for (const char* t : {"EVENT_WAIT", "EVENT_RECORD", "PROFILING_ENABLE", "PROFILING_DISABLE", "STARS_COMMON",
                          "KERNEL_AIVEC", "SDMA", "Notify Wait", "Write Value", "MEMCPY_ASYNC"}) {
        INFO(t);
        CHECK(isWaitTaskType(t) == isWaitTaskType(ascendTextTaskType(t)));
    }
    CHECK(ascendTextTaskType("EVENT_RECORD") == "EVENT_RECORD_SQE");
    CHECK(ascendTextTaskType("STARS_COMMON") == "DSA_SQE");
    CHECK(ascendTextTaskType("KERNEL_AIVEC") == "KERNEL_AIVEC");
    CHECK(isAscendDatabaseKernelTaskType("KERNEL_AICORE"));
    CHECK_FALSE(isAscendDatabaseKernelTaskType("EVENT_RECORD"));
    CHECK(isAscendDatabaseCopyTaskType("MEMCPY_ASYNC"));
    CHECK_FALSE(isAscendDatabaseCopyTaskType("SDMA"));
    CHECK(isMemoryTaskType("SDMA"));
    CHECK(isMemoryTaskType("PCIE_DMA_SQE"));
    CHECK(isMemoryTaskType("Reduce Inline"));
    CHECK_FALSE(isMemoryTaskType("AI_CORE"));
    CHECK(isProfilerStepName("ProfilerStep#12"));
    CHECK_FALSE(isProfilerStepName("ProfilerStep"));
    CHECK_FALSE(isProfilerStepName("my ProfilerStep#1"));
}

TEST_CASE("tagByConventions tags Ascend Hardware tasks and step markers, finalize alone does not", "[conventions]") {
    for (const bool tagged : {true, false}) {
        TraceBuilder b;
        b.setProcessName("9", "Ascend Hardware");
        b.setProcessName("1", "Python");
        const std::uint32_t npu = b.track("9", "2");
        const std::uint32_t emptyNpu = b.track("9", "5");  // a stream named in metadata only
        const std::uint32_t host = b.track("1", "1");
        SliceInfo wait;
        wait.taskType = b.intern("EVENT_WAIT_SQE");
        SliceInfo dma;
        dma.taskType = b.intern("SDMA");
        b.addSlice(slice(b, npu, "MatMul", 100, 50));
        b.addSlice(slice(b, npu, "wait", 200, 10), wait);
        b.addSlice(slice(b, npu, "copy", 300, 10), dma);
        b.addSlice(slice(b, npu, "mark", 400, 0, 'i'));
        b.addSlice(slice(b, host, "ProfilerStep#3", 0, 1000));
        SliceInfo hostWait;
        hostWait.taskType = b.intern("EVENT_WAIT_SQE");
        b.addSlice(slice(b, host, "not on the NPU", 10, 5), hostWait);
        b.addBegin(slice(b, host, "ProfilerStep#4", 2000, 0), {});
        b.addEnd(host, 3000, 0);
        if (tagged) conventions::tagByConventions(b);
        const TracePtr t = b.finalize();
        const auto& s = t->slices();
        const std::uint32_t matmul = findSlice(*t, "MatMul"), w = findSlice(*t, "wait"), copy = findSlice(*t, "copy");
        const std::uint32_t mark = findSlice(*t, "mark"), step3 = findSlice(*t, "ProfilerStep#3");
        const std::uint32_t step4 = findSlice(*t, "ProfilerStep#4"), other = findSlice(*t, "not on the NPU");
        REQUIRE(step4 != kNone);
        CHECK(s[matmul].is(kSliceDevice) == tagged);
        CHECK_FALSE(s[matmul].is(kSliceWait));
        CHECK(s[w].is(kSliceWait) == tagged);
        CHECK(s[copy].is(kSliceMemory) == tagged);
        CHECK_FALSE(s[mark].is(kSliceDevice));  // instants are marks, not tasks
        CHECK(s[step3].is(kSliceStep) == tagged);
        CHECK(s[step4].is(kSliceStep) == tagged);  // a B/E pair, tagged before it was paired
        CHECK_FALSE(s[other].is(kSliceDevice));
        CHECK_FALSE(s[other].is(kSliceWait));  // the flag is for NPU tasks; isWaitTask reads the type
        CHECK((t->tracks()[npu].kind == TrackKind::DeviceStream) == tagged);
        CHECK((t->tracks()[emptyNpu].kind == TrackKind::DeviceStream) == tagged);
        CHECK(t->tracks()[host].kind == TrackKind::HostThread);
    }
}

TEST_CASE("a loaded Ascend trace gets its device tracks and steps from the conventions", "[conventions]") {
    const std::string json = R"([
{"name": "process_name", "pid": 9, "tid": 0, "ph": "M", "args": {"name": "Ascend Hardware"}},
{"name": "MatMul", "pid": 9, "tid": 2, "ph": "X", "ts": "10.0", "dur": 5, "args": {"Task Type": "AI_CORE"}},
{"name": "wait", "pid": 9, "tid": 2, "ph": "X", "ts": "20.0", "dur": 5, "args": {"Task Type": "Notify Wait"}},
{"name": "ProfilerStep#1", "pid": 1, "tid": 1, "ph": "X", "ts": "0", "dur": 100}
])";
    const LoadResult r = loadTraceFromMemory(json, "inline.json");
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(t.traceFormat() == kAscendFormat);
    CHECK(t.slices()[findSlice(t, "MatMul")].is(kSliceDevice));
    CHECK(t.slices()[findSlice(t, "wait")].is(kSliceWait));
    CHECK(t.slices()[findSlice(t, "ProfilerStep#1")].is(kSliceStep));
}
