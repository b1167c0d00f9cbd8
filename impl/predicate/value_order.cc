#include "impl/predicate/value_order.h"

#include <cmath>

namespace rlc::predicate {
namespace {

int Sign(int64_t a, int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

int CompareDoubles(double a, double b) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Exact: no rounding of the long to a double.
int CompareLongDouble(int64_t a, double b) {
  if (std::isnan(b)) return -1;
  constexpr double kTwo63 = 9223372036854775808.0;  // 2^63, exact as a double
  if (b >= kTwo63) return -1;
  if (b < -kTwo63) return 1;
  const double whole = std::trunc(b);  // in [-2^63, 2^63): fits an int64 exactly
  const int64_t w = static_cast<int64_t>(whole);
  if (a != w) return Sign(a, w);
  const double fraction = b - whole;
  return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0);
}

int CompareNumbers(const ValueRef& a, const ValueRef& b) {
  using K = ValueRef::Kind;
  if (a.kind == K::kLong && b.kind == K::kLong) return Sign(a.int_value, b.int_value);
  if (a.kind == K::kDouble && b.kind == K::kDouble) {
    return CompareDoubles(a.double_value, b.double_value);
  }
  if (a.kind == K::kLong) return CompareLongDouble(a.int_value, b.double_value);
  return -CompareLongDouble(b.int_value, a.double_value);
}

bool IsNumber(ValueRef::Kind k) {
  return k == ValueRef::Kind::kLong || k == ValueRef::Kind::kDouble;
}

}  // namespace

std::optional<int> CompareValues(const ValueRef& a, const ValueRef& b) {
  using K = ValueRef::Kind;
  if (a.is_null() || b.is_null()) return std::nullopt;
  if (IsNumber(a.kind) && IsNumber(b.kind)) return CompareNumbers(a, b);
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case K::kString:
      return CompareStrings(a.string_value, b.string_value);
    case K::kBool:
    case K::kDate:
    case K::kTimestamp:
      return Sign(a.int_value, b.int_value);
    default:
      return std::nullopt;
  }
}

bool Satisfies(int cmp, CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return cmp == 0;
    case CompareOp::kNe:
      return cmp != 0;
    case CompareOp::kLt:
      return cmp < 0;
    case CompareOp::kLe:
      return cmp <= 0;
    case CompareOp::kGt:
      return cmp > 0;
    case CompareOp::kGe:
      return cmp >= 0;
  }
  return false;
}

}  // namespace rlc::predicate
