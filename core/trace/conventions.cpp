#include "core/trace/conventions.h"

#include <cstring>
#include <vector>

#include "core/trace/trace_builder.h"

namespace contend::conventions {

namespace {

// Size first, then bytes: the chunk parser asks for every event, and std::string_view's ==
// going through compare() profiled as ~8% of load time there.
template <std::size_t N>
inline bool eq(std::string_view a, const char (&lit)[N]) {
    return a.size() == N - 1 && std::memcmp(a.data(), lit, N - 1) == 0;
}

}  // namespace

bool isProfilerStepName(std::string_view name) { return name.rfind(kProfilerStepPrefix, 0) == 0; }

bool isDeviceCategory(std::string_view c) {
    return eq(c, "kernel") || eq(c, "gpu_memcpy") || eq(c, "gpu_memset") || eq(c, "Kernel") || eq(c, "Memcpy") ||
           eq(c, "Memset") || eq(c, "mtia_ccp_events");
}

bool isMemoryCategory(std::string_view c) {
    return eq(c, "gpu_memcpy") || eq(c, "gpu_memset") || eq(c, "Memcpy") || eq(c, "Memset");
}

bool isLaunchCategory(std::string_view c) {
    return eq(c, "cuda_runtime") || eq(c, "cuda_driver") || eq(c, "Runtime") || eq(c, "mtia_runtime");
}

bool isSyncCategory(std::string_view c) { return eq(c, "cuda_sync"); }

bool isKinetoCategory(std::string_view c) {
    return isDeviceCategory(c) || isLaunchCategory(c) || eq(c, "cpu_op") || eq(c, "ac2g") || eq(c, "Operator") ||
           eq(c, "user_annotation") || eq(c, "gpu_user_annotation");
}

std::uint8_t sliceFlagsOfCategory(std::string_view c) {
    std::uint8_t f = 0;
    if (isDeviceCategory(c)) f |= kSliceDevice;
    if (isMemoryCategory(c)) f |= kSliceMemory;
    if (isLaunchCategory(c)) f |= kSliceLaunch;
    if (isSyncCategory(c)) f |= kSliceWait;
    return f;
}

std::string_view ascendTextTaskType(std::string_view t) {
    if (t == "EVENT_WAIT") return "EVENT_WAIT_SQE";
    if (t == "EVENT_RECORD") return "EVENT_RECORD_SQE";
    if (t == "PROFILING_ENABLE" || t == "PROFILING_DISABLE") return "PLACE_HOLDER_SQE";
    if (t == "STARS_COMMON") return "DSA_SQE";
    return t;
}

bool isAscendDatabaseCopyTaskType(std::string_view t) {
    return t == "MEMCPY_ASYNC" || t == "MEMCPY" || t == "MEMSET_ASYNC";
}

bool isAscendDatabaseKernelTaskType(std::string_view t) {
    return t == "AI_CORE" || t == "KERNEL_AICORE" || t == "KERNEL_AIVEC" || t == "AI_VECTOR_CORE" || t == "MIX_AIC" ||
           t == "MIX_AIV" || t == "KERNEL_MIX_AIC" || t == "KERNEL_MIX_AIV";
}

bool isWaitTaskType(std::string_view t) {
    // The text export's spellings (and NOTIFY_WAIT, the database's own for NOTIFY_WAIT_SQE); a
    // database name is a wait when its text export name is, so the two cannot disagree.
    const auto textWait = [](std::string_view x) {
        return x == "EVENT_WAIT_SQE" || x == "Notify Wait" || x == "NOTIFY_WAIT_SQE" || x == "EVENT_RECORD_SQE" ||
               x == "PLACE_HOLDER_SQE" || x == "Write Value" || x == "NOTIFY_WAIT";
    };
    return textWait(t) || textWait(ascendTextTaskType(t));
}

bool isWaitActivityName(std::string_view n) {
    return n == "event_wait" || n == "event_record" || n == "wait_event" || n == "record_event";
}

bool isMemoryTaskType(std::string_view t) {
    return t.find("SDMA") != std::string_view::npos || t.find("DMA") != std::string_view::npos || t == "Memcpy" ||
           t == "Reduce Inline";
}

bool isDmaRequestName(std::string_view n) { return n == "dma_request"; }

void tagByConventions(TraceBuilder& b) {
    std::vector<char> hardware(b.trackCount(), 0);
    for (std::uint32_t t = 0; t < hardware.size(); ++t) {
        hardware[t] = b.processNameOf(t) == kAscendHardwareProcess ? 1 : 0;
        if (hardware[t]) b.setDeviceTrack(t);
    }
    auto tag = [&](Slice& s, const SliceInfo& info) {
        if (isProfilerStepName(b.str(s.name))) s.flags |= kSliceStep;
        if (s.is(kSliceDevice) && isDmaRequestName(b.str(s.name))) s.flags |= kSliceDma;
        if (s.track >= hardware.size() || !hardware[s.track] || s.phase == 'i') return;
        s.flags |= kSliceDevice;
        const std::string_view type = b.str(info.taskType);
        if (isWaitTaskType(type)) s.flags |= kSliceWait;
        if (isMemoryTaskType(type)) s.flags |= kSliceMemory;
    };
    std::vector<Slice>& slices = b.pendingSlices();
    const std::vector<SliceInfo>& infos = b.pendingInfos();
    for (std::size_t i = 0; i < slices.size(); ++i) tag(slices[i], infos[i]);
    std::vector<Slice>& begins = b.pendingBegins();
    const std::vector<SliceInfo>& beginInfos = b.pendingBeginInfos();
    for (std::size_t i = 0; i < begins.size(); ++i) tag(begins[i], beginInfos[i]);
}

}  // namespace contend::conventions
