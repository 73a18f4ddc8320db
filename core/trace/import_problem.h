#pragma once
// Every problem an import can count, listed once with its text, what it counts and how bad it
// is (after Perfetto's storage/stats.h). Readers count a problem by its id
// (TraceBuilder::warn(ImportProblem, ...)); reports and views show the text from this table and
// decide by the id, the unit and the severity, never by reading the text back.
#include <cstdint>
#include <string_view>

namespace contend {

enum class ImportProblem : std::uint8_t {
    // An event was dropped.
    EventNotObject,
    EventWithoutPhase,
    MissingTs,
    TsNotNumber,
    TsOutOfRange,
    XWithoutDur,
    DurNotNumber,
    DurOutOfRange,
    NegativeDur,
    CounterWithoutValues,
    FlowWithoutId,
    // An event was kept, with something about it lost or guessed.
    PidTidNotText,
    FlowEndWithoutStart,
    UnmatchedEnd,
    UnmatchedBegin,
    InvalidUtf8,
    NonFiniteNumber,
    StringCut,
    ProfilerRangeWithoutKernel,
    // The file as a whole.
    TraceEventsNotArray,
    TextAfterEvents,
    DistributedInfoWithoutRank,
    BaseTimeNotInteger,
    BaseTimeOutOfRange,
    GzipCutShort,
    FileTruncated,
    // Ascend side files and exports.
    SideFileCellNotNumber,
    SideFileRowUnmatched,
    SideFileWithoutTaskIds,
    SideFileWithoutKeys,
    SideFileNotJoined,
    DatabaseExportNotRead,
    // Database exports (Ascend profiler databases, Nsight Systems SQLite).
    DbPmuRowWithoutMetric,
    DbKernelWithoutComputeInfo,
    DbNameMissing,
    DbIdNotInteger,
    DbIdOutOfRange,
    // Found at finalize, in every format: two device operators at once on one stream.
    DuplicateEvent,
    StreamOverlap,
    // Not a problem of this table: the default of an ImportWarning, and the table's end.
    Other,
};

// What a problem's count counts.
enum class ProblemUnit : std::uint8_t { Event, Byte, String, Value, Row };

enum class ProblemSeverity : std::uint8_t {
    Info,      // nothing of the trace was lost (an ignored key, a second export not read)
    DataLoss,  // events, values or bytes of the file did not make it into the trace as written
};

struct ImportProblemInfo {
    ImportProblem id;
    std::string_view text;  // as reports and `contend-cli info` show it
    ProblemUnit unit;
    ProblemSeverity severity;
};

const ImportProblemInfo& importProblemInfo(ImportProblem id);

// Whether a problem of this kind drops the event or row it counts (the trace lacks it), as
// opposed to keeping it with something lost or guessed; the report's damaged-input note adds
// these up.
bool problemDropsEvent(ImportProblem id);

// "event", "byte", "string", "value", "row".
std::string_view problemUnitName(ProblemUnit unit);

}  // namespace contend
