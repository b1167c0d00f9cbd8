// The dependency graph over committed transactions (Adya's direct serialization graph), built
// from what each transaction read and wrote, by stable row identity.
//
// Concern: inferring the edges and explaining each one (model/explain). The cycle search is
// in cycle_search.h. The graph is plain data; Boost.Graph is used by the search only.
//
// Edge rules (version order of a row: version_order.h; V = the reader's read version):
//   ww  Ti -> Tj: Tj's write to row r directly follows Ti's in r's version order.
//   wr  Ti -> Tj: Ti made the last visible write to r installed at or before V, and either
//       a read of Tj matched r (Tj read Ti's version), or r is absent from that read's matches
//       while Ti's before-image matched its predicate (Tj observed that Ti deleted r or moved
//       it out of the predicate). Predicates are evaluated with the schema of the table at V.
//   rw  Ti -> Tj: a write of Tj to r installed after Ti's read version V, where r is among a
//       read's matches (Tj overwrote what Ti read), or r's after-image matches that read's
//       predicate (a phantom).
//   commit order (only when asked, see CommitOrderEdges in anomaly_catalogue.h).
// No edge joins a transaction to itself; transactions with effect.data_change == false
// (OPTIMIZE) get no edges. Among edges of one kind between one pair of transactions only the
// first found is kept (lowest row, then first read).
//
// Invariants: every edge's from and to index `txns`, from != to.
//
// Thread-safety: plain values and stateless functions.
#ifndef RLC_MODEL_GRAPH_DEPENDENCY_GRAPH_H_
#define RLC_MODEL_GRAPH_DEPENDENCY_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "model/graph/anomaly_catalogue.h"
#include "model/isolation/history.h"

namespace rlc::model {

struct GraphTxn {
  std::string name;
  int64_t read_version = 0;
  int64_t commit_version = 0;
  bool is_blind_append = false;
  bool data_change = true;
};

struct DependencyEdge {
  size_t from = 0;  // index into DependencyGraph::txns
  size_t to = 0;
  EdgeExplanation explanation;
};

struct DependencyGraph {
  std::vector<GraphTxn> txns;  // commit order, as ObservedHistory::txns
  std::vector<DependencyEdge> edges;

  // The explanations of the edges of `kind`, in the order they were found.
  std::vector<EdgeExplanation> EdgesOf(EdgeKind kind) const;
};

// REQUIRES: observed.versions is not empty.
DependencyGraph BuildDependencyGraph(const ObservedHistory& observed,
                                     CommitOrderEdges commit_order);

}  // namespace rlc::model

#endif  // RLC_MODEL_GRAPH_DEPENDENCY_GRAPH_H_
