// The anomaly catalogue: the cycle shapes the dependency graph names, and which of Delta's
// isolation levels forbids each, as one table with a source per row (docs/style.md#catalogues).
//
// Concern: names and the level -> forbidden-anomalies table. The cycle search
// (cycle_search.h) finds the shapes; CheckIsolation (isolation_check.h) reads this table.
//
// Shapes (Adya's phenomena over the direct serialization graph, searched as Elle does):
//   G0        a cycle of ww edges only.
//   G1c       ww and wr edges, at least one wr.
//   G-single  exactly one rw edge, the rest ww or wr.
//   G2        two or more rw edges (one rw edge is G-single, reported as such).
//   <shape>-commit-order  the same shape once commit-order edges are allowed too, for a cycle
//             that needs one of them: it uses a commit-order edge, and the plain shape has no
//             cycle over the same transactions (cycle_search.h).
//
// The WriteSerializable exception, in one place (docs/decisions.md#isolation): a blind
// append may be serialized later than its commit, past transactions that did not see it. The
// catalogue marks every shape forbidden under WriteSerializable; the exception lives in the
// commit-order edges the WriteSerializable graph gets (CommitOrderFor): a commit-order edge
// out of a blind append B goes only to the later transactions whose read version is at or
// after B's commit version (model/isolation/isolation.h allows exactly these serial orders).
// So the cycle "T -rw-> B -commit-order-> T" (T's read missed B's rows: the rw edge points into
// the blind append, the commit-order edge leaves it) is excused: the graph has no B -> T
// commit-order edge. Data edges (ww, wr, rw) bind under every level: a cycle of data edges
// alone has no serial order at all, whichever way a blind append moves, so it is never
// excused, even when all its rw edges point into blind appends.
//
// SnapshotIsolation orders transactions by snapshot, not by commit (Adya's PL-SI): its graph
// has no commit-order edges and the -commit-order shapes are not forbidden.
//
// Thread-safety: constant data and stateless functions.
#ifndef RLC_MODEL_GRAPH_ANOMALY_CATALOGUE_H_
#define RLC_MODEL_GRAPH_ANOMALY_CATALOGUE_H_

#include <array>
#include <string>

#include "model/semantics/table.h"

namespace rlc::model {

enum class AnomalyKind {
  kG0,
  kG1c,
  kGSingle,
  kG2,
  kG0CommitOrder,
  kG1cCommitOrder,
  kGSingleCommitOrder,
  kG2CommitOrder,
};

// "G0", "G1c", "G-single", "G2", "G0-commit-order", ...
std::string AnomalyName(AnomalyKind kind);

struct AnomalyRow {
  AnomalyKind kind;
  bool forbidden_by_serializable;
  bool forbidden_by_write_serializable;  // over the WriteSerializable graph (see above)
  bool forbidden_by_snapshot_isolation;
  const char* source;
};

// Sources: [Adya] A. Adya, "Weak Consistency: A Generalized Theory and Optimistic
// Implementations for Distributed Transactions", PhD thesis, MIT 1999 (MIT/LCS/TR-786), the
// phenomena G0/G1c/G-single/G2 and the levels PL-1 ... PL-3 and PL-SI that proscribe them;
// [Elle] Kingsbury & Alvaro, "Elle: Inferring Isolation Anomalies from Experimental
// Observations", VLDB 2020, the cycle searches; [Delta] Delta/Databricks docs, "Isolation
// levels and write conflicts" (WriteSerializable); [decisions] docs/decisions.md#isolation.
inline constexpr std::array<AnomalyRow, 8> kAnomalyCatalogue = {{
    {AnomalyKind::kG0, true, true, true,
     "[Adya] PL-1 proscribes G0, so every higher level does; [Elle] G0 = ww-only cycle"},
    {AnomalyKind::kG1c, true, true, true,
     "[Adya] PL-2 proscribes G1c, and PL-SI includes PL-2; [Elle] G1c = ww+wr cycle"},
    {AnomalyKind::kGSingle, true, true, true,
     "[Adya] PL-2+ proscribes G-single and PL-SI is stronger than PL-2+; [Elle] G-single"},
    {AnomalyKind::kG2, true, true, false,
     "[Adya] PL-3 proscribes G2, PL-SI allows it (write skew); [Delta] WriteSerializable "
     "keeps writes serializable, the blind-append exception is a commit-order one"},
    {AnomalyKind::kG0CommitOrder, true, true, false,
     "[decisions] Serializable and WriteSerializable are serializable in commit order; "
     "[Adya] PL-SI orders by snapshot, not commit; [Elle] the -realtime variants' analogue"},
    {AnomalyKind::kG1cCommitOrder, true, true, false,
     "[decisions] serializable in commit order; [Adya] PL-SI orders by snapshot"},
    {AnomalyKind::kGSingleCommitOrder, true, true, false,
     "[decisions] serializable in commit order, a blind append may move later under "
     "WriteSerializable [Delta]; [Adya] PL-SI orders by snapshot"},
    {AnomalyKind::kG2CommitOrder, true, true, false,
     "[decisions] serializable in commit order, a blind append may move later under "
     "WriteSerializable [Delta]; [Adya] PL-SI orders by snapshot"},
}};

// The catalogue row of `kind`.
const AnomalyRow& CatalogueRow(AnomalyKind kind);
bool Forbids(IsolationLevel level, AnomalyKind kind);

// Which commit-order edges a level's dependency graph gets.
enum class CommitOrderEdges {
  kNone,               // SnapshotIsolation: data edges only
  kCommitOrder,        // Serializable: Ti -> Tj when Tj is the next data-changing commit
  kWriteSerializable,  // as kCommitOrder, but a blind append B only precedes the later
                       // transactions that read B's commit (see above)
};
CommitOrderEdges CommitOrderFor(IsolationLevel level);

}  // namespace rlc::model

#endif  // RLC_MODEL_GRAPH_ANOMALY_CATALOGUE_H_
