#pragma once
// The dependency graph's edges as Boost's compressed sparse row graph: shared by the graph's
// builder (depgraph.cpp) and its replayer (replayer.cpp), private to core/analysis/whatif.
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>

#include "core/analysis/whatif/dep_edge.h"

namespace contend {

// 32-bit vertex and edge indices keep the graph compact (10^6 nodes, a few 10^6 edges).
using DepBoostGraph = boost::compressed_sparse_row_graph<boost::bidirectionalS, boost::no_property, DepEdge,
                                                         boost::no_property, std::uint32_t, std::uint32_t>;
struct DepCsr {
    DepBoostGraph g;
};

// An edge that bounds its target's start (the rest bound its end).
inline bool startEdge(DepEdgeKind k) {
    return k == DepEdgeKind::Stream || k == DepEdgeKind::Host || k == DepEdgeKind::Launch || k == DepEdgeKind::Event;
}

}  // namespace contend
