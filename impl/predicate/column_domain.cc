#include "impl/predicate/column_domain.h"

#include <cmath>
#include <limits>

#include "impl/base/mutants.h"
#include "impl/kernel/stats_leaf.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/literal_order.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {
namespace {

enum class Side : uint8_t { kLower, kUpper };

// A float column's value, given the shortest text of the float read as a double: the float
// itself is (float)d; one float step either way covers a writer that rounded differently.
std::optional<ValueRef> FloatBound(double d, Side side) {
  if (!(std::fabs(d) <= std::numeric_limits<float>::max())) return std::nullopt;  // NaN too
  const float f = static_cast<float>(d);
  const float inf = std::numeric_limits<float>::infinity();
  const float widened = std::nextafter(f, side == Side::kLower ? -inf : inf);
  if (std::isinf(widened)) return std::nullopt;
  return ValueRef::Double(static_cast<double>(widened));
}

std::optional<ValueRef> TimestampBound(std::string_view text, ColumnType type, Side side) {
  std::optional<ParsedTimestamp> ts = ParseTimestamp(text);
  if (!ts.has_value()) return std::nullopt;
  int64_t slack = kTimestampStatsSlackMicros;
  if (!ts->has_zone && type == ColumnType::kTimestamp) slack += kZoneSlackMicros;
  return ValueRef::Timestamp(side == Side::kLower ? ts->micros - slack : ts->micros + slack);
}

// U+FFFD in UTF-8: the tie-breaker older Delta writers append to a truncated string max.
constexpr std::string_view kOldTieBreaker = "\xef\xbf\xbd";

// A string max. Older Delta writers truncated a max past 32 characters and appended U+FFFD,
// having compared in UTF-16, where a supplementary character (U+10000 and up) sorts below
// U+FFFD; in UTF-8, which Delta compares, it sorts above. So "prefix" + U+FFFD may be below the
// true max "prefix" + U+1F600...: without the tie-breaker, the prefix still bounds it (the true
// max starts with it). A max that really ends in U+FFFD only loses its last character.
ValueRef StringUpperBound(std::string_view max) {
  if (max.size() >= kOldTieBreaker.size() &&
      max.substr(max.size() - kOldTieBreaker.size()) == kOldTieBreaker) {
    max.remove_suffix(kOldTieBreaker.size());
  }
  return ValueRef::String(max);
}

// A min (kLower) or max (kUpper) statistic as a bound for the column's type.
[[gnu::always_inline]] inline std::optional<ValueRef> StatBound(const delta::StatValueView& v,
                                                                ColumnType type, Side side) {
  using K = delta::StatValueView::Kind;
  const std::string_view* s = v.kind == K::kString ? &v.text : nullptr;
  switch (CategoryOf(type)) {
    case ValueCategory::kNumeric:
      if (type == ColumnType::kDecimal) return std::nullopt;
      if (v.kind == K::kInt) return ValueRef::Long(v.integer);
      if (v.kind != K::kDouble || std::isnan(v.number)) return std::nullopt;
      if (type == ColumnType::kFloat && !RLC_MUTANT("float-statistic-read-as-double"))
        return FloatBound(v.number, side);
      return ValueRef::Double(v.number);
    case ValueCategory::kString:
      if (s == nullptr) return std::nullopt;
      if (side == Side::kUpper) return StringUpperBound(*s);  // a view of the statistics
      return ValueRef::String(*s);
    case ValueCategory::kBoolean:
      if (v.kind != K::kBool) return std::nullopt;
      return ValueRef::Bool(v.boolean);
    case ValueCategory::kDate: {
      if (s == nullptr) return std::nullopt;
      std::optional<int64_t> days = ParseDate(*s);
      if (!days.has_value()) return std::nullopt;
      return ValueRef::Date(*days);
    }
    case ValueCategory::kTimestamp:
      if (s == nullptr) return std::nullopt;
      return TimestampBound(*s, type, side);
    default:
      return std::nullopt;
  }
}

}  // namespace

bool ColumnDomain::IsSingleValue() const {
  if (!lower.has_value() || !upper.has_value() || upper_is_prefix) return false;
  std::optional<int> cmp = CompareValues(*lower, *upper);
  return cmp.has_value() && *cmp == 0;
}

void SetDomainFromColumnStats(const ResolvedColumn& column, std::optional<int64_t> num_records,
                              const delta::ColumnStats* stats, ColumnDomain* out) {
  ColumnDomain& d = *out;
  d.may_be_null = d.may_be_non_null = true;
  d.lower.reset();
  d.upper.reset();
  d.upper_is_prefix = false;
  if (!column.physical_path.has_value() || column.is_partition) return;
  const std::optional<int64_t> null_count =
      stats != nullptr ? stats->null_count : std::optional<int64_t>();
  const kernel::NullFacts<LiteralOrder> facts =
      kernel::NullFactsFromCounts(LiteralOrder{}, num_records.has_value(), num_records.value_or(0),
                                  null_count.has_value(), null_count.value_or(0));
  d.may_be_null = facts.may_be_null;
  d.may_be_non_null = facts.may_be_non_null;
  if (!d.may_be_null && !d.may_be_non_null) return;  // no live row: bounds say nothing more
  if (stats == nullptr) return;
  // stats_type: the type the oldest files' statistics were written under (a type widening).
  if (stats->min.has_value()) d.lower = StatBound(*stats->min, column.stats_type, Side::kLower);
  if (stats->max.has_value()) d.upper = StatBound(*stats->max, column.stats_type, Side::kUpper);
  d.upper_is_prefix = d.upper.has_value() && d.upper->kind == ValueRef::Kind::kString;
  if (d.lower.has_value() && d.upper.has_value()) {
    const bool lower_under_prefix =
        d.upper_is_prefix && d.lower->string_value.starts_with(d.upper->string_value);
    if (!lower_under_prefix && !ValueAtMost(*d.lower, *d.upper)) {  // contradictory: use neither
      d.lower.reset();
      d.upper.reset();
      d.upper_is_prefix = false;
    }
  }
}

ColumnDomain DomainFromColumnStats(const ResolvedColumn& column, std::optional<int64_t> num_records,
                                   const delta::ColumnStats* stats) {
  ColumnDomain d;
  SetDomainFromColumnStats(column, num_records, stats, &d);
  return d;
}

ColumnDomain DomainFromStats(const ResolvedColumn& column, const delta::FileStats& stats) {
  if (!column.physical_path.has_value() || column.is_partition) return ColumnDomain{};
  const ColumnPath& path = *column.physical_path;
  const auto view = [](const delta::StatValue& v) {
    delta::StatValueView out;
    using K = delta::StatValueView::Kind;
    if (const auto* b = std::get_if<bool>(&v)) out.kind = K::kBool, out.boolean = *b;
    if (const auto* i = std::get_if<int64_t>(&v)) out.kind = K::kInt, out.integer = *i;
    if (const auto* d = std::get_if<double>(&v)) out.kind = K::kDouble, out.number = *d;
    if (const auto* s = std::get_if<std::string>(&v)) out.kind = K::kString, out.text = *s;
    return out;
  };
  delta::ColumnStats c;
  if (const auto n = stats.null_count.find(path); n != stats.null_count.end())
    c.null_count = n->second;
  if (const auto m = stats.min_values.find(path); m != stats.min_values.end())
    c.min = view(m->second);
  if (const auto m = stats.max_values.find(path); m != stats.max_values.end())
    c.max = view(m->second);
  return DomainFromColumnStats(column, stats.num_records, &c);
}

ColumnDomain DomainFromPartitionValue(const ResolvedColumn& column,
                                      const std::optional<std::string>& value) {
  const PartitionValue p = ReadPartitionValue(column.type, value);
  ColumnDomain d;
  switch (p.kind) {
    case PartitionValue::Kind::kNull:
      d.may_be_non_null = false;
      return d;
    case PartitionValue::Kind::kExact:
    case PartitionValue::Kind::kRange:
      d.lower = p.lower;
      d.upper = p.upper;
      [[fallthrough]];
    case PartitionValue::Kind::kNonNull:
      d.may_be_null = false;
      return d;
    case PartitionValue::Kind::kUnknown:
      break;
  }
  return ColumnDomain::Anything();
}

}  // namespace rlc::predicate
