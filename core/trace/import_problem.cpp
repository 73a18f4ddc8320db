#include "core/trace/import_problem.h"

#include <array>

namespace contend {

namespace {

using P = ImportProblem;
using U = ProblemUnit;
constexpr ProblemSeverity kLoss = ProblemSeverity::DataLoss;
constexpr ProblemSeverity kInfo = ProblemSeverity::Info;

// In enum order (checked in importProblemInfo).
constexpr std::array<ImportProblemInfo, static_cast<std::size_t>(P::Other) + 1> kProblems{{
    {P::EventNotObject, "event is not an object", U::Event, kLoss},
    {P::EventWithoutPhase, "event without \"ph\"", U::Event, kLoss},
    {P::MissingTs, "missing ts", U::Event, kLoss},
    {P::TsNotNumber, "ts is not a number", U::Event, kLoss},
    {P::TsOutOfRange, "ts out of range", U::Event, kLoss},
    {P::XWithoutDur, "X event without dur", U::Event, kLoss},
    {P::DurNotNumber, "dur is not a number", U::Event, kLoss},
    {P::DurOutOfRange, "dur out of range", U::Event, kLoss},
    {P::NegativeDur, "negative dur", U::Event, kLoss},
    {P::CounterWithoutValues, "counter event without numeric args", U::Event, kLoss},
    {P::FlowWithoutId, "flow event without id", U::Event, kLoss},
    {P::PidTidNotText, "pid or tid is not a number or string", U::Event, kLoss},
    {P::FlowEndWithoutStart, "flow end without start", U::Event, kLoss},
    {P::UnmatchedEnd, "unmatched E (no B)", U::Event, kLoss},
    {P::UnmatchedBegin, "unmatched B (no E)", U::Event, kLoss},
    {P::InvalidUtf8, "invalid UTF-8 replaced by '?'", U::Byte, kLoss},
    {P::NonFiniteNumber, "NaN or Infinity (not JSON) read as a missing value", U::Value, kLoss},
    {P::StringCut, "string longer than 64 KiB cut", U::String, kLoss},
    {P::ProfilerRangeWithoutKernel, "profiler range without its kernel", U::Event, kLoss},
    {P::TraceEventsNotArray, "traceEvents is not an array", U::Event, kLoss},
    {P::TextAfterEvents, "text after the end of the events array", U::Event, kInfo},
    {P::DistributedInfoWithoutRank, "distributedInfo has no integer rank (ignored)", U::Event, kInfo},
    {P::BaseTimeNotInteger, "baseTimeNanoseconds is not an integer", U::Event, kLoss},
    {P::BaseTimeOutOfRange, "baseTimeNanoseconds out of range (ignored)", U::Event, kLoss},
    {P::GzipCutShort, "gzip data cut short", U::Event, kLoss},
    {P::FileTruncated, "file truncated", U::Event, kLoss},
    {P::SideFileCellNotNumber, "side-file cell is not a number", U::Event, kLoss},
    {P::SideFileRowUnmatched, "side-file row without a matching NPU task", U::Event, kLoss},
    {P::SideFileWithoutTaskIds, "side file without Stream Id/Task Id columns", U::Event, kLoss},
    {P::SideFileWithoutKeys, "side file without Stream ID/Task ID or Name/Start Time(us) columns", U::Event, kLoss},
    {P::SideFileNotJoined, "side file not joined", U::Event, kLoss},
    {P::DatabaseExportNotRead, "database export not read (the text export was)", U::Event, kInfo},
    {P::DbPmuRowWithoutMetric, "TASK_PMU_INFO row without a named, numeric metric", U::Row, kLoss},
    {P::DbKernelWithoutComputeInfo, "kernel task without a COMPUTE_TASK_INFO row left out (as the text export does)",
     U::Row, kLoss},
    {P::DbNameMissing, "name not in the string table (StringIds / STRING_IDS missing, empty or short)", U::Row, kLoss},
    {P::DbIdNotInteger, "device or stream id is not an integer", U::Row, kLoss},
    {P::DbIdOutOfRange, "device or stream id out of range", U::Row, kLoss},
    {P::DuplicateEvent, "duplicate device operator (same stream, start, duration and name)", U::Event, kLoss},
    {P::StreamOverlap, "device operator overlaps an earlier one on its stream", U::Event, kLoss},
    {P::Other, "", U::Event, kLoss},
}};

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < kProblems.size(); ++i)
        if (static_cast<std::size_t>(kProblems[i].id) != i) return false;
    return true;
}
static_assert(inEnumOrder(), "kProblems must list every ImportProblem once, in enum order");

constexpr std::array<std::string_view, 5> kUnitNames{"event", "byte", "string", "value", "row"};

}  // namespace

const ImportProblemInfo& importProblemInfo(ImportProblem id) {
    const auto i = static_cast<std::size_t>(id);
    return kProblems[i < kProblems.size() ? i : kProblems.size() - 1];
}

bool problemDropsEvent(ImportProblem id) {
    switch (id) {
    case P::EventNotObject:
    case P::EventWithoutPhase:
    case P::MissingTs:
    case P::TsNotNumber:
    case P::TsOutOfRange:
    case P::XWithoutDur:
    case P::DurNotNumber:
    case P::DurOutOfRange:
    case P::NegativeDur:
    case P::CounterWithoutValues:
    case P::FlowWithoutId:
    case P::DbIdNotInteger:
    case P::DbIdOutOfRange: return true;
    default: return false;
    }
}

std::string_view problemUnitName(ProblemUnit unit) {
    const auto i = static_cast<std::size_t>(unit);
    return i < kUnitNames.size() ? kUnitNames[i] : kUnitNames[0];
}

}  // namespace contend
