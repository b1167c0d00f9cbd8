// Serial semantics: the one correct result of running an operation alone on a table.
//
// Concern: LogicalTable x Operation -> OperationEffect: the next table, the rows the operation
// read (as predicate reads with the rows they matched) and wrote (inserts, updates, deletes with
// before and after images), and how Delta classifies the commit (blind append, dataChange).
//
// Rules worth stating:
//   1. A row qualifies for WHERE only when the predicate is True (NULL never qualifies).
//   2. MERGE: each target row matched by more than one source row makes the whole MERGE fail
//      (`error` set, table unchanged); a NULL key matches nothing. Delta fails only where its
//      scan meets the row, and not for a lone unconditional DELETE or an insert-only MERGE: the
//      model, a function of rows alone, is stricter (docs/gaps.md#g23). For a matched
//      target row the first matched clause whose condition holds applies; for an unmatched
//      source row the first not-matched clause; for an unmatched target row the first
//      not-matched-by-source clause.
//   3. OPTIMIZE (with or without ZORDER), metadata and protocol changes leave the rows as they
//      are; OPTIMIZE commits with dataChange=false.
//   4. An idempotent write whose (appId, version) is not newer than the table's is skipped.
//   5. Every commit, even a skipped or failed-free no-op one, advances `version` by one, except
//      a failed MERGE, which does not commit.
//
// Thread-safety: stateless functions.
#ifndef RLC_MODEL_SEMANTICS_SERIAL_H_
#define RLC_MODEL_SEMANTICS_SERIAL_H_

#include <optional>
#include <string>
#include <vector>

#include "model/semantics/operation.h"
#include "model/semantics/table.h"

namespace rlc::model {

// A read of the table through a predicate, and the rows it matched.
struct PredicateRead {
  Predicate predicate;
  std::vector<RowId> matched;  // ascending
  // The read is `matched` and nothing else: a foreign commit's read of the rows it removed,
  // which are rows, not a condition (`predicate` only names them). No row outside `matched`
  // was read, whatever its values: another writer's copy of one of them included.
  bool rows_only = false;
};

struct RowWrite {
  enum class Kind { kInsert, kUpdate, kDelete };
  Kind kind = Kind::kInsert;
  RowId row = 0;
  std::optional<Row> before;  // absent for an insert
  std::optional<Row> after;   // absent for a delete
};

struct OperationEffect {
  LogicalTable after;
  std::vector<PredicateRead> reads;
  std::vector<RowWrite> writes;  // ascending by row
  bool is_blind_append = false;  // adds rows and reads nothing of the table
  bool data_change = true;  // false for OPTIMIZE, or when nothing is written: Delta runs it under
                            // SnapshotIsolation
  bool changes_metadata = false;
  bool changes_protocol = false;
  bool skipped = false;              // an idempotent write already applied
  std::optional<std::string> error;  // the operation fails and commits nothing
};

OperationEffect Apply(const LogicalTable& table, const Operation& op);
// The same on `table` with its next_row_id replaced: for a writer whose new rows must not reuse
// identities that concurrent writers took, without copying the table to change one field.
OperationEffect Apply(const LogicalTable& table, const Operation& op, RowId next_row_id);

// Applies row-level writes computed elsewhere (another snapshot) to `table`, as a reconciled
// commit does: inserts add their rows, updates overwrite the row's values, deletes remove it.
// A write to a row that no longer exists is skipped and counted in *lost_writes.
// Advances the version by one.
LogicalTable ApplyWrites(const LogicalTable& table, const std::vector<RowWrite>& writes,
                         int* lost_writes = nullptr);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_SERIAL_H_
