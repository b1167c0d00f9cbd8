// Explanations as data: why one committed transaction must precede another, and the plain-text
// rendering of an edge or of a whole cycle (Elle's approach, docs/style.md#explanations).
//
// Concern: the small flat structs the dependency graph (model/graph) produces for each edge,
// and the one plain-text printer. The structs carry transaction names, rows, versions and SQL
// text only, never graph internals, so other renderers (JSON, Graphviz) can read them too.
//
// Sentences (one per edge; `from` must precede `to` in any allowed serial order):
//   ww  "T2 deleted row (5, 'u'), which T1 had updated at version 2"
//   wr  "T2 read row (5, 'x') at version 3, which T1 had inserted at version 2"
//       "T2's read `id = 5` at version 3 missed row (5, 'a'), which T1 had deleted at version 2"
//   rw  "T2 deleted row (17, 'a'), which T1 had read at version 3"
//       "T2 inserted row (12, 'b'), which matches T1's read `id > 10` at version 3"  (a phantom)
//   commit order  "T1 committed at version 2, before T2 committed at version 3"
// The second form of wr and rw is used exactly when `predicate` is not empty. A row is named by
// its values, as the edge saw them (row_values); by its identity ("row 17") only when they are
// not known: identities are the model's own numbering, which no reader of the table sees.
//
// Invariants of an EdgeExplanation:
//   1. from_txn != to_txn.
//   2. kind kCommitOrder has row 0 and empty predicate.
//
// Thread-safety: plain values and stateless functions.
#ifndef RLC_MODEL_EXPLAIN_EXPLANATION_H_
#define RLC_MODEL_EXPLAIN_EXPLANATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/isolation/history.h"
#include "model/semantics/table.h"

namespace rlc::model {

// Adya's dependency edges, plus the order of commits in the Delta log. Delta's Serializable is
// serializable in commit order (docs/decisions.md#isolation), so a commit-order edge is
// a constraint too; the graph adds those edges only when asked.
enum class EdgeKind { kWW, kWR, kRW, kCommitOrder };

// "ww", "wr", "rw", "commit-order".
std::string EdgeKindName(EdgeKind kind);

struct EdgeExplanation {
  EdgeKind kind = EdgeKind::kWW;
  std::string from_txn;  // must come first
  std::string to_txn;
  RowId row = 0;            // 0 for a commit-order edge
  std::string from_action;  // "inserted", "updated", "deleted", "read", "committed"
  std::string to_action;
  int64_t from_version = 0;  // the version from_txn's action was at (a read: its read version)
  int64_t to_version = 0;
  // SQL text of the read predicate when the edge comes from the predicate rather than from a
  // row the read matched (a phantom, or a row a read no longer saw); else empty.
  std::string predicate;
  // The row as the edge is about it, as a SQL tuple ("(5, 'v5')", RowValuesText): for ww the
  // image `from` left, for wr the row `to` read (or, missed, the row as it was before), for rw
  // the row `from` read (or, a phantom, the image `to` wrote). Empty: unknown.
  std::string row_values = {};

  friend bool operator==(const EdgeExplanation&, const EdgeExplanation&) = default;
};

// A row's values in schema order as a SQL tuple: "(5, 'v5')", "(7, NULL)".
std::string RowValuesText(const Row& row);

// One sentence, no final period (see the table at the top of this file).
std::string RenderEdge(const EdgeExplanation& edge);

// A transaction as the "Let:" block names it.
struct TxnLabel {
  std::string name;       // "T1"
  std::string operation;  // Describe(op), e.g. "DELETE WHERE id = 5"
  int64_t read_version = 0;
  int64_t commit_version = 0;
};

// Elle's three-part form, every line ending in '\n':
//   Let:
//     T1 = DELETE WHERE id = 5 (read version 0, commit version 2)
//     T2 = ...
//   Then:
//     - T1 < T2, because <sentence>
//   However:
//     - T2 < T1, because <sentence>: a contradiction.
// `txns` are listed in the order given; every edge but the last goes under "Then:".
// REQUIRES: cycle has at least two edges.
std::string RenderCycle(const std::vector<TxnLabel>& txns,
                        const std::vector<EdgeExplanation>& cycle);

// The labels of the transactions of `cycle`, in the order they occur as from_txn, taken from
// `history` (operation text by Describe). A name the history lacks gets operation "?" and
// versions 0: hand-built histories have no operations.
std::vector<TxnLabel> LabelCycle(const std::vector<EdgeExplanation>& cycle,
                                 const CommittedHistory& history);

}  // namespace rlc::model

#endif  // RLC_MODEL_EXPLAIN_EXPLANATION_H_
