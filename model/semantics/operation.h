// The operations a writer can run, as the model sees them: what they mean on rows, nothing of
// how an engine writes files.
//
// Concern: the vocabulary shared by the serial semantics (serial.h), the isolation rules and
// the explorer that generates histories. Describe() renders an operation as a person would
// write it in SQL.
//
// Thread-safety: plain values.
#ifndef RLC_MODEL_SEMANTICS_OPERATION_H_
#define RLC_MODEL_SEMANTICS_OPERATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/semantics/predicate.h"
#include "model/semantics/table.h"

namespace rlc::model {

// SET column = value.
struct Assignment {
  std::string column;
  Value value;
  friend bool operator==(const Assignment&, const Assignment&) = default;
};

// INSERT INTO t VALUES ...: reads nothing of the table.
struct BlindInsert {
  std::vector<std::vector<Value>> rows;
};

// INSERT INTO t SELECT * (with `overrides` applied) FROM t WHERE source: reads the table.
struct InsertSelect {
  Predicate source;
  std::vector<Assignment> overrides;
};

struct Delete {
  Predicate where;
};

struct Update {
  Predicate where;
  std::vector<Assignment> set;
};

// One WHEN clause of a MERGE. Conditions of matched and not-matched-by-source clauses are over
// the target row; conditions of not-matched clauses are over the source row.
struct MergeClause {
  enum class Kind { kMatchedUpdate, kMatchedDelete, kNotMatchedInsert, kNotMatchedBySourceDelete };
  Kind kind = Kind::kMatchedUpdate;
  Predicate condition;           // TRUE when the clause has no AND condition
  std::vector<Assignment> set;   // kMatchedUpdate: literal assignments
  bool set_from_source = false;  // kMatchedUpdate: copy every non-key column from the source
};

// MERGE INTO t USING source ON t.key = source.key WHEN ...: clauses of one kind apply in the
// order written, the first whose condition holds wins (Spark/Delta semantics).
struct Merge {
  std::vector<std::vector<Value>> source_rows;  // rows with the table's schema
  std::string key_column;
  std::vector<MergeClause> clauses;
};

// OPTIMIZE (bin-packing) or, with zorder_by, OPTIMIZE ZORDER BY / recluster: rows unchanged.
struct Optimize {
  std::vector<std::string> zorder_by;
};

// ALTER TABLE SET TBLPROPERTIES (key = value): rows unchanged, metadata changed.
struct MetadataChange {
  std::string key;
  std::string value;
};

// A protocol upgrade adding a table feature: rows unchanged.
struct ProtocolChange {
  std::string add_feature;
};

// A blind append tagged with txn(appId, version): skipped when the table already recorded this
// appId at this version or later (Delta's idempotent writes).
struct IdempotentWrite {
  std::string app_id;
  int64_t version = 0;
  BlindInsert insert;
};

// A commit known only by the rows it changed: a foreign writer's, whose file actions say what it
// did in rows alone (the oracle reads them back from the log, fuzz/oracle/judgement.h). Each row
// of `removed` leaves the table (the live row with those values of the lowest identity), then
// each row of `added` joins it. A removed row the table does not hold makes the commit fail in
// that order (it did remove one). It read exactly the rows it removes: a writer reads a row to
// rewrite or delete it, and what else it read is its own engine's business, not in the log.
struct RowDelta {
  std::vector<std::vector<Value>> removed;
  std::vector<std::vector<Value>> added;
};

using Operation = std::variant<BlindInsert, InsertSelect, Delete, Update, Merge, Optimize,
                               MetadataChange, ProtocolChange, IdempotentWrite, RowDelta>;

// "DELETE WHERE id > 3", "OPTIMIZE ZORDER BY (id)", ...
std::string Describe(const Operation& op);
// The operation as one Spark SQL statement on the table written `{table}` (a caller puts the
// table's name or delta.`path` there), for Delta Spark to run the same operation (tests/engines):
// DELETE FROM, UPDATE, INSERT INTO ... VALUES / SELECT, MERGE INTO ... USING (VALUES ...),
// OPTIMIZE [ZORDER BY], ALTER TABLE SET TBLPROPERTIES. "" for an idempotent write, which SQL
// cannot tag with its application id. Literals are written as Describe writes them.
std::string SparkSql(const Operation& op, const std::vector<Column>& schema);
// Delta's commitInfo.operation name: WRITE, DELETE, UPDATE, MERGE, OPTIMIZE, SET TBLPROPERTIES, ...
std::string OperationName(const Operation& op);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_OPERATION_H_
