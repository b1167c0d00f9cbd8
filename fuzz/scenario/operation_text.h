// Reading operations back from the text model::Describe writes, so a scenario file, a shrunk
// counterexample and a report all speak one language.
//
// Concern: the grammar (keywords are case-insensitive; values are integers, 'strings' with ''
// for a quote, or NULL; rows are tuples in schema order):
//   INSERT VALUES (v, ...), ...                       [txn APP vN] makes it an idempotent write
//   INSERT SELECT [(col = v, ...)] [WHERE p]          INSERT ... SELECT from the table itself
//   DELETE [WHERE p]
//   UPDATE SET col = v, ... [WHERE p]
//   MERGE USING (v, ...), ... ON col WHEN ...         clauses, in order:
//       WHEN MATCHED [AND p] THEN DELETE | THEN UPDATE SET col = v, ... | THEN UPDATE SET *
//       WHEN NOT MATCHED [AND p] THEN INSERT
//       WHEN NOT MATCHED BY SOURCE [AND p] THEN DELETE
//   OPTIMIZE [ZORDER BY (col, ...)]
//   SET TBLPROPERTIES (key = 'value')
//   ADD FEATURE name
// Predicates: TRUE, FALSE, col op v (op one of = <> < <= > >=), col IS [NOT] NULL, NOT (p),
// AND / OR (AND binds tighter), parentheses. Columns must exist in the schema and literals must
// have their column's type, so a typo is an error here rather than a predicate that never holds.
//
// Errors: kInvalidArgument, naming the character offset and what was expected there.
//
// Thread-safety: stateless functions.
#ifndef RLC_FUZZ_SCENARIO_OPERATION_TEXT_H_
#define RLC_FUZZ_SCENARIO_OPERATION_TEXT_H_

#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "model/semantics/operation.h"
#include "model/semantics/predicate.h"
#include "model/semantics/table.h"

namespace rlc::scenario {

Result<model::Operation> ParseOperation(std::string_view text,
                                        const std::vector<model::Column>& schema);
Result<model::Predicate> ParsePredicate(std::string_view text,
                                        const std::vector<model::Column>& schema);
// A comma-separated list of tuples "(1, 'a'), (2, NULL)", each of the schema's width and types.
Result<std::vector<std::vector<model::Value>>> ParseRows(std::string_view text,
                                                         const std::vector<model::Column>& schema);

}  // namespace rlc::scenario

#endif  // RLC_FUZZ_SCENARIO_OPERATION_TEXT_H_
