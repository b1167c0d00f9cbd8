// Delta's documented conflict matrix (docs/matrix.md#f, from the Databricks docs on
// row-level concurrency) as data: for each pair of operation classes, each isolation level and
// with or without row-level concurrency, whether the pair can conflict.
//
// Concern: the contract the explorer checks each generated pair against. Cells the project
// keeps out of scope (docs/decisions.md#scope: ZORDER/recluster against DML, MERGE's net-new
// inserts and not-matched-by-source clauses) are `kDeferred`: aborting there is expected, not a
// missed reconcile.
//
// Thread-safety: immutable data and stateless functions.
#ifndef RLC_MODEL_ISOLATION_CONFLICT_MATRIX_H_
#define RLC_MODEL_ISOLATION_CONFLICT_MATRIX_H_

#include <string>
#include <vector>

#include "model/semantics/operation.h"
#include "model/semantics/table.h"

namespace rlc::model {

enum class OperationClass {
  kInsert,          // a blind append (INSERT VALUES, an idempotent write)
  kDml,             // UPDATE, DELETE, matched-only MERGE, INSERT ... SELECT from the same table
  kMergeNetNew,     // MERGE with a not-matched or not-matched-by-source clause
  kOptimize,        // OPTIMIZE compaction (dataChange=false)
  kOptimizeZOrder,  // OPTIMIZE ZORDER BY / recluster
  kMetadata,        // a metadata or protocol change
};

enum class Contract {
  kCannotConflict,  // both must commit
  kSameRowOnly,     // may abort only when both modify a common row
  kCanConflict,     // may abort
  kDeferred,        // out of scope (docs/decisions.md#scope): an abort is expected
};

struct MatrixCell {
  OperationClass a;
  OperationClass b;  // the concurrent operation; the matrix is symmetric
  bool row_level_concurrency;
  IsolationLevel level;  // Serializable or WriteSerializable
  Contract contract;
  const char* source;  // where the cell comes from
};

std::string OperationClassName(OperationClass c);
std::string ContractName(Contract c);
OperationClass Classify(const Operation& op);

// Every cell: 6 x 6 classes (symmetric pairs once), 2 levels, with and without RLC.
const std::vector<MatrixCell>& DocumentedConflictMatrix();

// The contract for a pair, in either order. `level` SnapshotIsolation reads as Serializable.
Contract LookUpContract(OperationClass a, OperationClass b, IsolationLevel level,
                        bool row_level_concurrency);

}  // namespace rlc::model

#endif  // RLC_MODEL_ISOLATION_CONFLICT_MATRIX_H_
