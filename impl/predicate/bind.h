// Bind: check a predicate against a table schema; the evaluators take only bound predicates.
//
// Concern: every column exists (schema.h resolution, case-insensitive as Spark), every comparison
// and IN compares values of one category, and conditions are boolean. Categories: numeric (byte,
// short, integer, long, float, double, decimal columns; long and double literals, compared by
// value), string, boolean, date, timestamp (timestamp and timestamp_ntz). NULL fits every
// category. A string literal compared with a date or timestamp column is converted to a DATE or
// TIMESTAMP literal here (as Spark casts it); one that does not parse is an error.
// Comparisons Spark may answer otherwise than rlc's exact values are refused (kInvalidArgument,
// "refused, <why>"): a float or double column against an integer its common type rounds, an
// integral column against a whole or huge double, a zone-less TIMESTAMP literal or string for a
// `timestamp`, a timestamp_ntz against an instant (docs/predicate-semantics.md).
//
// Thread-safety: BoundExpr is immutable; share it freely.
//
// Invariants of a BoundExpr (Bind returns one only when they hold):
//   1. expr() keeps the invariants of ast.h, its condition nodes nest at most
//      kBoundNestingMax deep (all the parser can build), and its column paths are spelled as the
//      schema spells them.
//   2. columns() has an entry for every column path in expr(), with its type, physical path and
//      partition flag.
//   3. Comparisons and IN lists pair compatible categories; modulo applies to integral columns;
//      a value standing as a condition is boolean (a column, TRUE, FALSE or NULL).
#ifndef RLC_IMPL_PREDICATE_BIND_H_
#define RLC_IMPL_PREDICATE_BIND_H_

#include <map>

#include "impl/base/limits.h"
#include "impl/base/status.h"
#include "impl/predicate/ast.h"
#include "impl/predicate/schema.h"

namespace rlc::predicate {

// Each parser level ('(' or NOT, at most kPredicateNestingMax) adds at most an OR, an AND and a
// NOT node to a path of the tree.
inline constexpr int kBoundNestingMax = 3 * (kPredicateNestingMax + 1);

enum class ValueCategory : uint8_t { kNull, kNumeric, kString, kBoolean, kDate, kTimestamp, kNone };

// The category of a column type (kNone for struct, array, map, binary and other types).
ValueCategory CategoryOf(ColumnType type);
// The category of a literal (kNull for NULL).
ValueCategory CategoryOf(const Literal& literal);
// "numeric", "string", ...
const char* CategoryName(ValueCategory category);

class BoundExpr {
 public:
  const Expr& expr() const { return expr_; }
  const std::map<ColumnPath, ResolvedColumn>& columns() const { return columns_; }
  // REQUIRES: path occurs in expr().
  const ResolvedColumn& column(const ColumnPath& path) const;

 private:
  friend Result<BoundExpr> Bind(const Expr& expr, const TableSchema& schema);
  BoundExpr() = default;
  Expr expr_;
  std::map<ColumnPath, ResolvedColumn> columns_;
};

// kInvalidArgument naming the column or the operator on a type error or an unknown column
// ("predicate: column s (string) cannot be compared with 5 (numeric)"); kOverLimit when the tree
// nests deeper than kBoundNestingMax.
Result<BoundExpr> Bind(const Expr& expr, const TableSchema& schema);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_BIND_H_
