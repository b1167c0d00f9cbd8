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

// Strings as unsigned bytes, -1, 0 or 1. Most strings a file's statistics are compared with
// differ in their first byte: that byte decides without a call.
inline int CompareStrings(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0])
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]) ? -1 : 1;
  const int c = a.compare(b);  // char_traits<char>: unsigned bytes
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// -1, 0 or 1; nullopt when either side is NULL or the two are of different categories.
// Pure (it reads only its arguments), so that a comparison whose answer goes unused is not made.
[[gnu::pure]] std::optional<int> CompareValues(const ValueRef& a, const ValueRef& b);
inline std::optional<int> CompareValues(const Literal& a, const Literal& b) {
  return CompareValues(ValueRef(a), ValueRef(b));
}

// Whether CompareValues(a, b) <= 0: false for values it cannot compare. Inline, without an
// optional, for two values of one kind other than double: Case 1 asks this a dozen times of each
// of a hundred thousand files' statistics.
[[gnu::always_inline]] inline bool ValueAtMost(const ValueRef& a, const ValueRef& b) {
  using K = ValueRef::Kind;
  if (a.kind == b.kind) {
    switch (a.kind) {
      case K::kLong:
      case K::kBool:
      case K::kDate:
      case K::kTimestamp:
        return a.int_value <= b.int_value;
      case K::kString:
        return CompareStrings(a.string_value, b.string_value) <= 0;
      default:
        break;
    }
  }
  const std::optional<int> cmp = CompareValues(a, b);
  return cmp.has_value() && *cmp <= 0;
}

// Whether `cmp` (a CompareValues result) satisfies op.
bool Satisfies(int cmp, CompareOp op);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_VALUE_ORDER_H_
