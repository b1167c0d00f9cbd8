#include "model/graph/isolation_check.h"

#include "model/graph/anomaly_catalogue.h"
#include "model/graph/dependency_graph.h"

namespace rlc::model {

std::vector<AnomalyKind> ForbiddenAnomalies(IsolationLevel level) {
  std::vector<AnomalyKind> kinds;
  for (const AnomalyRow& row : kAnomalyCatalogue) {
    if (Forbids(level, row.kind)) kinds.push_back(row.kind);
  }
  return kinds;
}

GraphResult CheckIsolation(const ObservedHistory& observed, IsolationLevel level,
                           SearchBudget budget) {
  const DependencyGraph graph = BuildDependencyGraph(observed, CommitOrderFor(level));
  return FindAnomalies(graph, ForbiddenAnomalies(level), budget);
}

}  // namespace rlc::model
