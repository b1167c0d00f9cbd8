// Bounded cycle search over a dependency graph, as Elle does it: Tarjan's strongly connected
// components (Boost strong_components) over the edges a shape allows, then inside each
// non-trivial component a breadth-first search for a shortest cycle of that shape.
//
// Concern: finding and naming anomalies (anomaly_catalogue.h) with their cycles as
// explanations; a tri-state verdict.
//
// Shape search (a start edge u -> v of the shape's start kind, then a BFS from v back to u over
// states (vertex, rw edges taken, commit-order edge taken)):
//   G0 ww only, starts on a ww edge     G1c      ww+wr, starts on a wr edge
//   G-single starts on its rw edge, closes with ww/wr
//   G2 starts on an rw edge, needs one more rw edge on the way back
//   -commit-order variants: commit-order edges allowed too, and one of them required; G0's
//   starts on a commit-order edge.
// One anomaly per shape and component: the shortest cycle found, rotated to start at the
// transaction that committed first (so the "However" edge is the one that points back). A
// -commit-order cycle is dropped when the plain shape was reported over the same transactions
// (it did not need the commit order); search the plain shape first for that to apply.
//
// Results are never "valid" by default: a search that runs out of budget before finding a
// cycle reports kUnknown. An anomaly found is real even when the budget then runs out.
//
// Thread-safety: stateless functions.
#ifndef RLC_MODEL_GRAPH_CYCLE_SEARCH_H_
#define RLC_MODEL_GRAPH_CYCLE_SEARCH_H_

#include <cstddef>
#include <vector>

#include "model/explain/explanation.h"
#include "model/graph/anomaly_catalogue.h"
#include "model/graph/dependency_graph.h"

namespace rlc::model {

// BFS edge relaxations over all shapes and components. A model history has tens of
// transactions and hundreds of edges; one BFS per start edge costs O(edges), so a million
// steps covers every start edge of graphs a few thousand edges large, and keeps a run under
// about a second, as Elle's per-component cycle-search-timeout (1000 ms) does.
inline constexpr size_t kCycleSearchStepsMax = 1'000'000;
// Anomalies reported before the search stops: enough for a report to show every shape in
// several components; beyond it more cycles say nothing new.
inline constexpr size_t kAnomalyCyclesMax = 64;

struct SearchBudget {
  size_t steps_max = kCycleSearchStepsMax;
  size_t cycles_max = kAnomalyCyclesMax;
};

enum class GraphVerdict { kValid, kInvalid, kUnknown };

struct Anomaly {
  AnomalyKind kind = AnomalyKind::kG0;
  std::vector<EdgeExplanation> cycle;  // cycle[i].to_txn == cycle[i + 1].from_txn, closing
};

struct GraphResult {
  GraphVerdict verdict = GraphVerdict::kUnknown;
  std::vector<Anomaly> anomalies;  // in the order of `kinds`, then by component
  bool budget_exhausted = false;
};

// Searches `graph` for each shape in `kinds` (none when the edges those shapes allow close no
// cycle at all). kInvalid when an anomaly was found, else
// kUnknown when the budget ran out, else kValid.
GraphResult FindAnomalies(const DependencyGraph& graph, const std::vector<AnomalyKind>& kinds,
                          SearchBudget budget = {});

// Every shape of the catalogue, in catalogue order.
std::vector<AnomalyKind> AllAnomalyKinds();

}  // namespace rlc::model

#endif  // RLC_MODEL_GRAPH_CYCLE_SEARCH_H_
