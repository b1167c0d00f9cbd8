// The predicate language's syntax tree: literals, column references and conditions.
//
// Concern: the typed values and the tree that the parser builds, the binder checks and both
// evaluators walk. A value node (column, literal, modulo) yields a value; a condition node
// (compare, IN, IS [NOT] NULL, AND, OR, NOT) yields a truth value. A column or a literal may also
// stand where a condition is expected (`flag AND id > 3`, `TRUE`); the binder then requires it to
// be boolean.
//
// Thread-safety: plain values.
//
// Invariants (the parser builds only trees that keep them; Bind checks them on any tree):
//   1. kAnd and kOr have two or more children; kNot has one condition child; kCompare has two
//      value children; kIn, kIsNull and kIsNotNull have one value child.
//   2. A value child is kColumn, kLiteral or kModulo; kModulo has a non-empty column and a
//      non-zero modulus.
//   3. ToString(e) parses back to a tree equal to e (ParsePredicate, parser.h) for every tree the
//      parser can build; doubles print in their shortest round-tripping form.
#ifndef RLC_IMPL_PREDICATE_AST_H_
#define RLC_IMPL_PREDICATE_AST_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "impl/delta/stats.h"

namespace rlc::predicate {

// A column's logical path from the top of the schema: `a.b.c` is {"a", "b", "c"}.
using ColumnPath = delta::ColumnPath;

struct Literal {
  enum class Kind : uint8_t { kNull, kBool, kLong, kDouble, kString, kDate, kTimestamp };

  Kind kind = Kind::kNull;
  // kBool: 0 or 1. kLong: the value. kDate: days since 1970-01-01. kTimestamp: microseconds
  // since 1970-01-01T00:00:00Z (a literal without a zone is read as UTC).
  int64_t int_value = 0;
  double double_value = 0;   // kDouble only
  std::string string_value;  // kString only
  // kTimestamp only: written without a zone (TIMESTAMP '2024-01-31 10:00:00'). Spark reads such
  // a literal in the session's time zone, which rlc does not know: int_value is then the wall
  // clock read as UTC, and the binder refuses to compare it (bind.h).
  bool session_zone = false;
  // kTimestamp only: a timestamp_ntz's wall clock (a string the binder cast for such a column),
  // read as UTC in int_value.
  bool wall_clock = false;

  static Literal Null() { return Literal{}; }
  static Literal Bool(bool v) { return Literal{Kind::kBool, v ? 1 : 0, 0, {}, false, false}; }
  static Literal Long(int64_t v) { return Literal{Kind::kLong, v, 0, {}, false, false}; }
  static Literal Double(double v) { return Literal{Kind::kDouble, 0, v, {}, false, false}; }
  static Literal String(std::string v) {
    return Literal{Kind::kString, 0, 0, std::move(v), false, false};
  }
  static Literal Date(int64_t days) { return Literal{Kind::kDate, days, 0, {}, false, false}; }
  static Literal Timestamp(int64_t micros) {
    return Literal{Kind::kTimestamp, micros, 0, {}, false};
  }
  // A zone-less TIMESTAMP literal: `wall_micros` is its wall clock read as UTC.
  static Literal SessionTimestamp(int64_t wall_micros) {
    return Literal{Kind::kTimestamp, wall_micros, 0, {}, true, false};
  }
  // A timestamp_ntz value: `wall_micros` is its wall clock read as UTC.
  static Literal WallClock(int64_t wall_micros) {
    return Literal{Kind::kTimestamp, wall_micros, 0, {}, false, true};
  }

  bool is_null() const { return kind == Kind::kNull; }
  friend bool operator==(const Literal&, const Literal&) = default;
};

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "!=", "<", "<=", ">", ">=".
const char* CompareOpText(CompareOp op);
// The operator with its operands swapped: `a < b` is `b > a`.
CompareOp FlipCompareOp(CompareOp op);

struct Expr {
  enum class Kind : uint8_t {
    kColumn,     // column
    kLiteral,    // literal
    kModulo,     // column % modulus: Java/Spark remainder (sign of the dividend)
    kCompare,    // children[0] op children[1]
    kIn,         // children[0] IN (in_list...)
    kIsNull,     // children[0] IS NULL
    kIsNotNull,  // children[0] IS NOT NULL
    kAnd,        // children[0] AND children[1] AND ...
    kOr,         // children[0] OR children[1] OR ...
    kNot,        // NOT children[0]
  };

  Kind kind = Kind::kLiteral;
  CompareOp op = CompareOp::kEq;  // kCompare only
  ColumnPath column;              // kColumn, kModulo
  Literal literal;                // kLiteral
  int64_t modulus = 0;            // kModulo
  std::vector<Literal> in_list;   // kIn
  std::vector<Expr> children;

  static Expr Column(ColumnPath path);
  static Expr Lit(Literal literal);
  static Expr Modulo(ColumnPath path, int64_t modulus);
  static Expr Compare(Expr lhs, CompareOp op, Expr rhs);
  static Expr In(Expr operand, std::vector<Literal> list);
  static Expr IsNull(Expr operand);
  static Expr IsNotNull(Expr operand);
  static Expr And(std::vector<Expr> children);
  static Expr Or(std::vector<Expr> children);
  static Expr Not(Expr child);

  // kColumn, kLiteral or kModulo.
  bool is_value() const;
  friend bool operator==(const Expr&, const Expr&) = default;
};

// SQL-like text the parser reads back: `a.b >= 3 AND NOT (s IN ('x', 'y'))`.
std::string ToString(const Literal& literal);
std::string ToString(const Expr& expr);
// `a.b`, with backquotes around a name that is a keyword or not a plain identifier.
std::string ColumnPathToString(const ColumnPath& path);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_AST_H_
