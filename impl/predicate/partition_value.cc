#include "impl/predicate/partition_value.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include "impl/base/mutants.h"

namespace rlc::predicate {
namespace {

using Kind = PartitionValue::Kind;

PartitionValue Exact(ValueRef v) {
  PartitionValue p;
  p.kind = Kind::kExact;
  p.lower = p.upper = v;
  return p;
}

PartitionValue Unknown(const char* why) {
  PartitionValue p;
  p.kind = Kind::kUnknown;
  p.why = why;
  return p;
}

// The integral types' ranges: a value outside its column's reads as NULL in Spark's cast.
bool InRange(ColumnType type, int64_t v) {
  switch (type) {
    case ColumnType::kByte:
      return v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max();
    case ColumnType::kShort:
      return v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
    case ColumnType::kInteger:
      return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    default:
      return true;
  }
}

PartitionValue Integral(ColumnType type, std::string_view text) {
  int64_t v = 0;
  const std::from_chars_result r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
    return Unknown("not an integer");
  }
  if (!InRange(type, v)) return Unknown("out of the column type's range");
  return Exact(ValueRef::Long(v));
}

// Parsed as T itself, so that a float column's value is the text rounded once, to a float.
template <typename T>
PartitionValue Floating(std::string_view text) {
  T v = 0;
  const std::from_chars_result r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return Unknown("not a number");
  if (std::isnan(v)) return Unknown("NaN");
  return Exact(ValueRef::Double(static_cast<double>(v)));
}

bool EqualsIgnoringCase(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char c = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (c != lower[i]) return false;
  }
  return true;
}

PartitionValue Timestamp(ColumnType type, std::string_view text) {
  const std::optional<ParsedTimestamp> ts = ParseTimestamp(text);
  if (!ts.has_value()) return Unknown("not a timestamp");
  if (type == ColumnType::kTimestampNtz) {
    if (ts->has_zone) return Unknown("a timestamp_ntz written with a zone");
    return Exact(ValueRef::Timestamp(ts->micros));
  }
  if (ts->has_zone || RLC_MUTANT("partition-timestamp-read-as-utc"))
    return Exact(ValueRef::Timestamp(ts->micros));
  PartitionValue p;
  p.kind = Kind::kRange;
  p.lower = ValueRef::Timestamp(ts->micros - kZoneSlackMicros);
  p.upper = ValueRef::Timestamp(ts->micros + kZoneSlackMicros);
  p.why = "a timestamp written without a zone, which each reader places in its session zone";
  return p;
}

}  // namespace

PartitionValue ReadPartitionValue(ColumnType type, const std::optional<std::string>& text) {
  if (!text.has_value() || text->empty()) {
    PartitionValue p;
    p.kind = Kind::kNull;
    return p;
  }
  const std::string_view t = *text;
  if (IsIntegral(type)) return Integral(type, t);
  switch (type) {
    case ColumnType::kFloat:
      return Floating<float>(t);
    case ColumnType::kDouble:
      return Floating<double>(t);
    case ColumnType::kString:
      return Exact(ValueRef::String(t));
    case ColumnType::kBoolean:
      if (EqualsIgnoringCase(t, "true")) return Exact(ValueRef::Bool(true));
      if (EqualsIgnoringCase(t, "false")) return Exact(ValueRef::Bool(false));
      return Unknown("not true or false");
    case ColumnType::kDate: {
      const std::optional<int64_t> days = ParseDate(t);
      if (!days.has_value()) return Unknown("not a date YYYY-MM-DD");
      return Exact(ValueRef::Date(*days));
    }
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return Timestamp(type, t);
    case ColumnType::kDecimal: {
      PartitionValue p;
      p.kind = Kind::kNonNull;
      p.why = "a decimal, which rlc does not bound";
      return p;
    }
    default:
      return Unknown("a type rlc does not read partition values of");
  }
}

}  // namespace rlc::predicate
