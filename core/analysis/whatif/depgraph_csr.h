#pragma once
// The dependency graph's edges as Boost's compressed sparse row graph: shared by the graph's
// builder (depgraph.cpp) and its replayer (replayer.cpp), private to core/analysis/whatif.
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <vector>

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

// The vertices in topological order as Boost's topological_sort gives it (reversed): a depth-first
// search from each unvisited vertex in index order, out-edges in the graph's order, a vertex
// placed when it finishes. Boost's own search keeps a stack of ~48 bytes an entry grown by
// doubling and a colour of 4 bytes a vertex: at 10M kernels, where a stream's chain of edges
// makes the search as deep as the graph, it faulted in about 1 GB of fresh pages; this one keeps
// 12 bytes an entry in room reserved once and a byte a vertex. False when the graph has a cycle
// (`order` is then unspecified).
bool depthFirstOrder(const DepBoostGraph& bg, std::vector<std::uint32_t>& order);

}  // namespace contend
