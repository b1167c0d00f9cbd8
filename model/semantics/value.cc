#include "model/semantics/value.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rlc::model {
namespace {

// Java's Double.compare key: the bits, sign-folded so that integer order is the double order,
// with every NaN one value above +Infinity.
int64_t OrderKey(double v) {
  if (std::isnan(v)) return INT64_MAX;
  const auto bits = std::bit_cast<int64_t>(v);
  return bits < 0 ? INT64_MIN - bits - 1 : bits;  // negatives: reversed below the positives
}

template <typename T>
int Sign(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// SQL's order of doubles (Spark's): -0.0 equals 0.0, NaN equals NaN and is above every number.
int CompareDoubles(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) ? (std::isnan(y) ? 0 : 1) : -1;
  return x < y ? -1 : (x > y ? 1 : 0);
}

std::string TwoDigits(int64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string DoubleText(double v) {
  if (std::isnan(v)) return "CAST('NaN' AS DOUBLE)";
  if (std::isinf(v)) return v > 0 ? "CAST('Infinity' AS DOUBLE)" : "CAST('-Infinity' AS DOUBLE)";
  char digits[32];
  std::string text(digits, std::to_chars(digits, digits + sizeof(digits), v).ptr);
  // An exponent makes the literal a double in Spark SQL (1.5 alone is a decimal).
  if (text.find('e') == std::string::npos) text += "E0";
  return text;
}

// 128 bits (a GCC and Clang extension): two 18-digit decimals at a common scale fit.
__extension__ using Wide = __int128;

// a * 10^(to - from), widened: the model's decimals fit 18 digits, their scales 18 too.
Wide Rescaled(int64_t unscaled, int32_t from, int32_t to) {
  Wide v = unscaled;
  for (int32_t s = from; s < to; ++s) v *= 10;
  return v;
}

int CompareDecimals(const Decimal& a, const Decimal& b) {
  const int32_t scale = std::max(a.scale, b.scale);
  const Wide x = Rescaled(a.unscaled, a.scale, scale);
  const Wide y = Rescaled(b.unscaled, b.scale, scale);
  return x < y ? -1 : (x > y ? 1 : 0);
}

std::string HexText(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text = "X'";
  for (unsigned char c : bytes) text += {kHex[c >> 4], kHex[c & 15]};
  return text + "'";
}

}  // namespace

bool operator==(const Decimal& a, const Decimal& b) { return CompareDecimals(a, b) == 0; }
std::strong_ordering operator<=>(const Decimal& a, const Decimal& b) {
  return CompareDecimals(a, b) <=> 0;
}

std::string DecimalText(int64_t unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  // The magnitude as digits (unsigned: INT64_MIN's has no int64_t).
  std::string digits = std::to_string(negative ? 0 - static_cast<uint64_t>(unscaled)
                                               : static_cast<uint64_t>(unscaled));
  if (scale > 0) {
    while (digits.size() <= static_cast<size_t>(scale)) digits = "0" + digits;
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return (negative ? "-" : "") + digits;
}

bool operator==(const Double& a, const Double& b) { return OrderKey(a.value) == OrderKey(b.value); }
std::strong_ordering operator<=>(const Double& a, const Double& b) {
  return OrderKey(a.value) <=> OrderKey(b.value);
}

Truth Not(Truth t) {
  if (t == Truth::kUnknown) return t;
  return t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
}

Truth And(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  if (a == Truth::kTrue && b == Truth::kTrue) return Truth::kTrue;
  return Truth::kUnknown;
}

Truth Or(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  if (a == Truth::kFalse && b == Truth::kFalse) return Truth::kFalse;
  return Truth::kUnknown;
}

std::optional<int> Compare(const Value& a, const Value& b) {
  if (IsNull(a) || IsNull(b)) return std::nullopt;
  if (a.index() != b.index()) {
    std::fprintf(stderr, "model: comparing values of two types\n");
    std::abort();
  }
  if (const auto* x = std::get_if<Double>(&a))
    return CompareDoubles(x->value, std::get<Double>(b).value);
  if (const auto* x = std::get_if<std::string>(&a)) {
    const int c = x->compare(std::get<std::string>(b));  // byte-wise: UTF-8 in code point order
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  // Longs, timestamps, dates, booleans (false first), decimals (by value), binaries (unsigned
  // bytes: char_traits<char> compares as unsigned char): the alternative's own order.
  return Sign(a, b);
}

std::string ToString(const Value& v) {
  if (IsNull(v)) return "NULL";
  if (const auto* x = std::get_if<int64_t>(&v)) return std::to_string(*x);
  if (const auto* t = std::get_if<Timestamp>(&v))
    return "TIMESTAMP '" + WallClockText(t->micros, 0) + "Z'";
  if (const auto* d = std::get_if<Date>(&v)) return "DATE '" + DateText(d->days) + "'";
  if (const auto* x = std::get_if<Double>(&v)) return DoubleText(x->value);
  if (const auto* b = std::get_if<Boolean>(&v)) return b->value ? "true" : "false";
  if (const auto* d = std::get_if<Decimal>(&v)) return DecimalText(d->unscaled, d->scale);
  if (const auto* b = std::get_if<Binary>(&v)) return HexText(b->bytes);
  if (const auto* t = std::get_if<TimestampNtz>(&v))
    return "TIMESTAMP_NTZ '" + WallClockText(t->micros, 0) + "'";
  // SQL's quoting: a quote inside the string is doubled, so the text reads back unchanged.
  std::string quoted = "'";
  for (char c : std::get<std::string>(v))
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

// The proleptic Gregorian calendar of <chrono>, which Spark's dates follow too.
CivilDate CivilFromDays(int64_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

int64_t DaysFromCivil(const CivilDate& date) {
  const std::chrono::year_month_day ymd{std::chrono::year{static_cast<int>(date.year)},
                                        std::chrono::month{static_cast<unsigned>(date.month)},
                                        std::chrono::day{static_cast<unsigned>(date.day)}};
  return std::chrono::sys_days{ymd}.time_since_epoch().count();
}

std::string DateText(int64_t days) {
  const CivilDate d = CivilFromDays(days);
  std::string year = std::to_string(d.year < 0 ? -d.year : d.year);
  while (year.size() < 4) year = "0" + year;
  return (d.year < 0 ? "-" : "") + year + "-" + TwoDigits(d.month) + "-" + TwoDigits(d.day);
}

std::string WallClockText(int64_t micros, int offset_minutes) {
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  const int64_t local = micros + int64_t{offset_minutes} * 60 * 1000000;
  int64_t days = local / kMicrosPerDay;
  int64_t rest = local % kMicrosPerDay;
  if (rest < 0) rest += kMicrosPerDay, --days;
  std::string fraction = std::to_string(rest % 1000000);
  while (fraction.size() < 6) fraction = "0" + fraction;
  const int64_t seconds = rest / 1000000;
  return DateText(days) + " " + TwoDigits(seconds / 3600) + ":" + TwoDigits(seconds / 60 % 60) +
         ":" + TwoDigits(seconds % 60) + "." + fraction;
}

}  // namespace rlc::model
