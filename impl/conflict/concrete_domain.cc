#include "impl/conflict/concrete_domain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "impl/base/limits.h"

namespace rlc::conflict {
namespace {

bool IsRow(Int128 v) { return v >= 0 && v <= static_cast<Int128>(kRowIndexMax); }

// -1, 0, 1 for a long against a double, exactly (no rounding of the long); NaN is unordered.
std::optional<int> CompareLongDouble(int64_t a, double b) {
  if (std::isnan(b)) return std::nullopt;
  if (b >= 9223372036854775808.0) return -1;  // 2^63: above every long
  if (b < -9223372036854775808.0) return 1;
  const double floor_b = std::floor(b);
  const auto whole = static_cast<int64_t>(floor_b);
  if (a < whole) return -1;
  if (a > whole) return 1;
  return floor_b == b ? 0 : -1;
}

}  // namespace

ConcreteDomain::Set ConcreteDomain::Insert(const Set& s, Int row) const {
  RLC_ASSERT(IsRow(row));
  Set out = s;
  out.Add(static_cast<uint64_t>(row));
  return out;
}

ConcreteDomain::Bool ConcreteDomain::Contains(const Set& s, Int row) const {
  return IsRow(row) && s.Contains(static_cast<uint64_t>(row));
}

ConcreteDomain::Int ConcreteDomain::Rank(const Set& s, Int below) const {
  if (below <= 0) return 0;
  const Int128 last = below - 1;
  return static_cast<Int128>(s.Rank(IsRow(last) ? static_cast<uint64_t>(last) : kRowIndexMax));
}

ConcreteDomain::RankCursor::RankCursor(const Set& s) : members_(s.ToVector()) {
  members_.push_back(std::numeric_limits<uint64_t>::max());
}

ConcreteDomain::Bool ConcreteDomain::ValueLe(const Value& a, const Value& b) const {
  if (const auto* x = std::get_if<int64_t>(&a)) {
    if (const auto* y = std::get_if<int64_t>(&b)) return *x <= *y;
    if (const auto* y = std::get_if<double>(&b)) {
      std::optional<int> c = CompareLongDouble(*x, *y);
      return c.has_value() && *c <= 0;
    }
    return false;
  }
  if (const auto* x = std::get_if<double>(&a)) {
    if (const auto* y = std::get_if<double>(&b)) return *x <= *y;  // false with NaN
    if (const auto* y = std::get_if<int64_t>(&b)) {
      std::optional<int> c = CompareLongDouble(*y, *x);
      return c.has_value() && *c >= 0;
    }
    return false;
  }
  if (const auto* x = std::get_if<std::string>(&a)) {
    const auto* y = std::get_if<std::string>(&b);
    return y != nullptr && *x <= *y;  // std::string compares as unsigned bytes (char_traits<char>)
  }
  if (const auto* x = std::get_if<bool>(&a)) {
    const auto* y = std::get_if<bool>(&b);
    return y != nullptr && (!*x || *y);
  }
  return false;  // NULL
}

}  // namespace rlc::conflict
