#pragma once
// The Ascend database reader's state, shared by its two source files: ascend_db_reader.cpp
// (schema, strings, device tasks, PMU, communication) and ascend_db_host.cpp (host APIs, flows,
// counters, steps). Not a public header: use core/io/db/ascend_db_reader.h.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/io/db/sqlite_db.h"
#include "core/io/db/sqlite_reader_base.h"
#include "core/io/load_options.h"
#include "core/trace/trace_builder.h"

namespace contend::ascenddb {

using Col = SqliteCol;

// A slice added for a row, for flows: where it is and when it starts.
struct Endpoint {
    std::uint32_t track = 0;
    TimeNs start = 0;
    std::int64_t depth = 0;
    bool queue = false;       // a PyTorch enqueue/dequeue (async_task_queue) rather than an op
    bool collective = false;  // a COMMUNICATION_OP: the flow goes to it, not to its many tasks
};

// The base (sqlite_reader_base.h) holds the database, the builder, the error, the tables and
// the strings, and the helpers both SQLite readers use (select, scanDone, tick, fail).
class Reader : SqliteReaderBase {
  public:
    Reader(const SqliteDb& db, const std::string& path, TraceBuilder& b, const LoadOptions& o)
        : SqliteReaderBase(db, path, b, o) {}

    std::optional<Failure> run();

  private:
    // --- shared helpers
    // A time column: int64 from INTEGER, REAL or TEXT (PYTORCH_API writes its times as TEXT).
    // False when NULL, not a number or outside the model's time range.
    static bool timeOf(const SqliteStatement& st, int col, TimeNs& out);
    // A thread or series name, prefixed "NPU d " when the file holds several devices.
    std::string onDevice(std::string name, std::int64_t device) const;
    // The pid of a per-device process ("Ascend Hardware", "HBM", ...), named on first use.
    const std::string& devicePid(const char* process, std::int64_t device);

    // --- ascend_db_reader.cpp
    std::optional<Failure> checkBudget();
    std::optional<Failure> readStrings();
    void readInfo();
    std::optional<Failure> readComputeInfo();
    std::optional<Failure> readPmu();
    std::optional<Failure> readCommunicationInfo();
    std::optional<Failure> readTasks();
    std::optional<Failure> readCommunicationOps();

    // --- ascend_db_host.cpp
    std::optional<Failure> readCannApi();
    std::optional<Failure> readPytorchApi();
    std::optional<Failure> readMstx();
    void addFlows();
    std::optional<Failure> readCounters();
    std::optional<Failure> readSteps();

    bool m_multiDevice = false;

    struct Compute {
        StringId name = 0, taskType = 0, shape = 0;
        std::int64_t blockDim = -1, mixBlockDim = -1;
        TimeNs waitNs = -1;
    };
    std::unordered_map<std::int64_t, Compute> m_compute;  // by globalTaskId
    struct Communication {
        StringId taskType = 0, group = 0;
        std::int64_t plane = -1, size = -1;
    };
    std::unordered_map<std::int64_t, Communication> m_communication;  // by globalTaskId
    std::unordered_map<std::int64_t, std::vector<Metric>> m_pmu;      // by globalTaskId
    std::unordered_map<std::int64_t, std::uint32_t> m_groupIndex;     // group name id -> index

    // Connections: endpoints per connectionId, filled while reading, flows added at the end.
    std::unordered_map<std::int64_t, std::vector<Endpoint>> m_taskEnds;
    std::unordered_map<std::int64_t, std::vector<Endpoint>> m_cannEnds;
    std::unordered_map<std::int64_t, std::vector<Endpoint>> m_torchEnds;
    std::unordered_set<std::int64_t> m_steps;  // ProfilerStep#N seen in PYTORCH_API
    std::map<std::pair<std::string_view, std::int64_t>, std::string> m_pids;
};

}  // namespace contend::ascenddb
