#pragma once
// An edge of the dependency graph (depgraph.h): its kind and lag. Apart from the graph so that
// the graph's Boost type (depgraph_csr.h) can name it without the graph's header.
#include <cstdint>

#include "core/trace/types.h"

namespace contend {

enum class DepEdgeKind : std::uint8_t { Stream, Host, Launch, Sync, Wait, Event };
// "stream", "host", "launch", "sync", "wait", "event" (defined in depgraph.cpp)
const char* depEdgeKindName(DepEdgeKind k);

struct DepEdge {
    TimeNs lag = 0;
    DepEdgeKind kind = DepEdgeKind::Stream;
};

}  // namespace contend
