#pragma once
// Which device operations the breakdowns count, as HTA selects them (hta/common/trace.py,
// align_and_filter_trace): the operations on a stream (a device slice whose stream is known)
// and, when the trace has two or more ProfilerStep#N markers, only those launched by a host
// call that started before the last step began (HTA drops the last step as likely incomplete,
// with the kernels it launched). Without two steps every operation on a stream counts.
// An operation's launch call is the host call with its correlation id (HTA joins on it), else
// the host slice the trace links it to (a flow: Ascend's connection ids, a trace without
// correlation ids).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/analysis/breakdowns/hta_rules.h"
#include "core/analysis/breakdowns/stats.h"
#include "core/trace/trace.h"

namespace contend::breakdowns {

struct Scope {
    std::vector<std::uint32_t> ops;  // slice indices in start order (ties by index)
    std::uint64_t deviceOps = 0;     // device operations on a stream, before the step cut
    bool lastStepCut = false;        // the last step's operations were left out
    std::string text;                // the scope in words, for the report

    // The operations of each stream, in start order; streams ascending.
    struct Stream {
        std::int32_t stream = -1;
        std::vector<std::uint32_t> ops;
    };
    std::vector<Stream> streams;

    // The launch call of each slice (by slice index; kNone: none, or not a device operation).
    std::vector<std::uint32_t> launches;
    std::uint32_t launchOf(std::uint32_t slice) const { return launches[slice]; }
    // Whether each in-scope operation's launch call is an enqueue call (hta_rules.h), by slice
    // index (0 outside the scope); and that call, or kNone.
    std::vector<std::uint8_t> enqueued;
    std::uint32_t enqueueCallOf(std::uint32_t slice) const { return enqueued[slice] ? launches[slice] : kNone; }

    // HTA's kernel type of every name in scope, classified once.
    std::unordered_map<StringId, KernelType> types;
    KernelType type(StringId name) const {
        const auto it = types.find(name);
        return it == types.end() ? KernelType::Other : it->second;
    }
    // The scope's operations of one type, in start order; with a range, those that run in it
    // (TimeRange::runs).
    std::vector<std::uint32_t> opsOfType(const Trace& trace, KernelType type, const TimeRange& range = {}) const;
    // The scope's operations that run in the range, in start order.
    std::vector<std::uint32_t> opsIn(const Trace& trace, const TimeRange& range) const;
};

Scope htaScope(const Trace& trace);

}  // namespace contend::breakdowns
