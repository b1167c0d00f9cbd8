// EvaluateRow: a bound predicate on one row, with SQL's three-valued logic.
//
// Concern: the exact meaning of a predicate, against which the stats evaluator is checked.
//   - A comparison, IN or modulo with a NULL operand is Unknown.
//   - `x IN (l1, ..., ln)`: True if some li equals x; else Unknown if some li is NULL; else False.
//   - IS NULL / IS NOT NULL are never Unknown.
//   - NOT, AND, OR follow Kleene's tables (False AND Unknown = False, True OR Unknown = True).
//   - `c % k` is Java's remainder (the sign of c); MIN % -1 is 0.
//   - Order within a category: value_order.h (numbers by exact value, NaN largest).
// A row qualifies only when the result is kTrue.
//
// Thread-safety: stateless; the lookup is called from the calling thread only.
//
// Invariants:
//   1. The lookup is asked only for column paths of bound.columns().
//   2. Errors (kInvalidArgument) name the column: a missing value, or a value whose category does
//      not fit the column's type (a double for an integral column, a string for a date, ...).
#ifndef RLC_IMPL_PREDICATE_ROW_EVALUATOR_H_
#define RLC_IMPL_PREDICATE_ROW_EVALUATOR_H_

#include <functional>
#include <map>
#include <optional>

#include "impl/base/status.h"
#include "impl/predicate/ast.h"
#include "impl/predicate/bind.h"

namespace rlc::predicate {

enum class Truth : uint8_t { kFalse, kTrue, kUnknown };

Truth Not(Truth t);
Truth And(Truth a, Truth b);
Truth Or(Truth a, Truth b);
const char* TruthName(Truth t);  // "TRUE", "FALSE", "UNKNOWN"

// A row's values by logical column path; nullopt means the row has no such column.
using RowLookup = std::function<std::optional<Literal>(const ColumnPath&)>;
using RowValues = std::map<ColumnPath, Literal>;

Result<Truth> EvaluateRow(const BoundExpr& bound, const RowLookup& row);
Result<Truth> EvaluateRow(const BoundExpr& bound, const RowValues& row);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_ROW_EVALUATOR_H_
