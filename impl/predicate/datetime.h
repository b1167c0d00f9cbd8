// Dates and timestamps as text: the forms the predicate language, Delta's statistics and
// Delta's partition values use, and their integer encodings.
//
// Concern: `YYYY-MM-DD` <-> days since 1970-01-01, and
// `YYYY-MM-DD[T| ]HH:MM:SS[.fraction][zone]` <-> microseconds since 1970-01-01T00:00:00Z, in the
// proleptic Gregorian calendar. The zone is `Z`, `+HH:MM`, `+HHMM` or `+HH` (or `-`); a fraction
// longer than six digits is truncated toward the past (the stats evaluator allows for that).
//
// Thread-safety: stateless functions.
//
// Invariants:
//   1. Years are 0000..9999 (four digits), months and days valid for the month (leap years
//      included), hours 0..23, minutes and seconds 0..59, zone offsets up to 18:00 (Java's bound).
//   2. FormatDate(ParseDate(t)) == t for every valid date t; FormatTimestamp prints UTC with the
//      fraction only when it is non-zero, and ParseTimestamp reads it back to the same value.
#ifndef RLC_IMPL_PREDICATE_DATETIME_H_
#define RLC_IMPL_PREDICATE_DATETIME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rlc::predicate {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

struct ParsedTimestamp {
  int64_t micros = 0;     // since the epoch, UTC when has_zone, else the wall clock read as UTC
  bool has_zone = false;  // the text ended in Z or an offset
};

// nullopt when the text is not exactly a valid date.
std::optional<int64_t> ParseDate(std::string_view text);
// nullopt when the text is not a valid timestamp (a date alone is refused).
std::optional<ParsedTimestamp> ParseTimestamp(std::string_view text);

// "2024-01-31". REQUIRES: the date's year is in 0000..9999 for the text to parse back.
std::string FormatDate(int64_t days);
// "2024-01-31 10:00:00" or "2024-01-31 10:00:00.000123", in UTC.
std::string FormatTimestamp(int64_t micros);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_DATETIME_H_
