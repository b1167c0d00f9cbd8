// The order of non-null values within one category, shared by the row and stats evaluators.
//
// Concern: one comparison so both evaluators agree. Numeric values compare by exact value (a
// long against a double is exact even past 2^53); NaN equals NaN and is above every other number,
// and -0.0 equals 0.0 (Spark's ordering). Strings compare as unsigned bytes (UTF-8 code point
// order, as Spark). FALSE < TRUE. Dates and timestamps compare by their integers.
//
// Thread-safety: stateless functions.
//
// ValueRef is the statistics evaluator's value: a Literal's fields with the string viewed, not
// owned, so that judging a file (a hundred thousand of them in one conflict check) copies no
// string. It views what it was made from (a literal of the predicate, a statistic, a partition
// value), which must outlive it.
//
// Invariants:
//   1. CompareValues is a total order on the non-null values of one category: antisymmetric,
//      transitive, and it returns nullopt exactly when either side is NULL or the categories
//      differ.
#ifndef RLC_IMPL_PREDICATE_VALUE_ORDER_H_
#define RLC_IMPL_PREDICATE_VALUE_ORDER_H_

#include <optional>
#include <string_view>

#include "impl/predicate/ast.h"

namespace rlc::predicate {

struct ValueRef {
  using Kind = Literal::Kind;

  Kind kind = Kind::kNull;
  int64_t int_value = 0;          // as Literal::int_value
  double double_value = 0;        // kDouble only
  std::string_view string_value;  // kString only: a view

  ValueRef() = default;
  // Views the literal's string: the literal must outlive the ValueRef.
  ValueRef(const Literal& l)  // NOLINT(google-explicit-constructor): a literal is a value
      : kind(l.kind),
        int_value(l.int_value),
        double_value(l.double_value),
        string_value(l.string_value) {}

  static ValueRef Of(Kind kind, int64_t v) {
    ValueRef r;
    r.kind = kind;
    r.int_value = v;
    return r;
  }
  static ValueRef Long(int64_t v) { return Of(Kind::kLong, v); }
  static ValueRef Bool(bool v) { return Of(Kind::kBool, v ? 1 : 0); }
  static ValueRef Date(int64_t days) { return Of(Kind::kDate, days); }
  static ValueRef Timestamp(int64_t micros) { return Of(Kind::kTimestamp, micros); }
  static ValueRef Double(double v) {
    ValueRef r;
    r.kind = Kind::kDouble;
    r.double_value = v;
    return r;
  }
  static ValueRef String(std::string_view v) {
    ValueRef r;
    r.kind = Kind::kString;
    r.string_value = v;
    return r;
  }

  bool is_null() const { return kind == Kind::kNull; }
};

// -1, 0 or 1; nullopt when either side is NULL or the two are of different categories.
std::optional<int> CompareValues(const ValueRef& a, const ValueRef& b);
inline std::optional<int> CompareValues(const Literal& a, const Literal& b) {
  return CompareValues(ValueRef(a), ValueRef(b));
}

// Whether `cmp` (a CompareValues result) satisfies op.
bool Satisfies(int cmp, CompareOp op);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_VALUE_ORDER_H_
