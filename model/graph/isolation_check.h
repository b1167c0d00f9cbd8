// CheckIsolation: does a committed history keep the promise of a Delta isolation level?
//
// Concern: joining the pieces: the level's dependency graph (commit-order edges as
// CommitOrderFor says), the anomaly shapes the catalogue says the level forbids, and the
// bounded cycle search. Anomalies the level allows are neither searched nor reported.
//
// Thread-safety: stateless function.
#ifndef RLC_MODEL_GRAPH_ISOLATION_CHECK_H_
#define RLC_MODEL_GRAPH_ISOLATION_CHECK_H_

#include "model/graph/cycle_search.h"
#include "model/isolation/history.h"
#include "model/semantics/table.h"

namespace rlc::model {

// kValid: no forbidden cycle; kInvalid: `anomalies` names each one found, with its cycle;
// kUnknown: the budget ran out before any was found.
// REQUIRES: observed.versions is not empty.
GraphResult CheckIsolation(const ObservedHistory& observed, IsolationLevel level,
                           SearchBudget budget = {});

// The shapes `level` forbids, in catalogue order.
std::vector<AnomalyKind> ForbiddenAnomalies(IsolationLevel level);

}  // namespace rlc::model

#endif  // RLC_MODEL_GRAPH_ISOLATION_CHECK_H_
