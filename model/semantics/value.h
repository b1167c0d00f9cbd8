// Value: one cell of the logical table: NULL, or a value of one of the column types the model
// knows: the integral types (byte, short, integer, long: int64_t), string, timestamp (an
// instant), timestamp_ntz (a wall clock), date, float and double (Double; a float column's value
// is a float widened), boolean, decimal and binary.
//
// Concern: Spark SQL's comparison with three-valued logic. Comparing NULL with anything is
// Unknown; comparing values of two types is a type error the model refuses to build (Compare
// aborts), because the predicates it generates are typed against the schema. A double compares
// as Spark compares it: NaN equals NaN and is above every other value, -0.0 equals 0.0.
//
// A decimal compares by its numeric value whatever its scale (1.5 equals 1.50), as Spark's
// decimals do; a binary by its bytes, unsigned. A timestamp_ntz compares by its wall clock.
//
// Timestamps are instants (microseconds since 1970-01-01T00:00:00Z): which zone a writer printed
// one in is a matter of the log's text, not of the value (fuzz/ reads and writes the text).
//
// Thread-safety: plain value.
#ifndef RLC_MODEL_SEMANTICS_VALUE_H_
#define RLC_MODEL_SEMANTICS_VALUE_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace rlc::model {

// An instant: microseconds since the epoch, UTC.
struct Timestamp {
  int64_t micros = 0;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

// A calendar date: days since 1970-01-01.
struct Date {
  int32_t days = 0;
  friend auto operator<=>(const Date&, const Date&) = default;
};

// A double. Equality and order here are the identity of stored values (a table holds -0.0 and
// 0.0 apart, and NaN equals itself), ordered as Java's Double.compare: -0.0 before 0.0, NaN
// last. SQL comparison is Compare's, below.
struct Double {
  double value = 0;
  friend bool operator==(const Double& a, const Double& b);
  friend std::strong_ordering operator<=>(const Double& a, const Double& b);
};

struct Boolean {
  bool value = false;
  friend auto operator<=>(const Boolean&, const Boolean&) = default;
};

// unscaled * 10^-scale. The model's decimals fit 18 digits (kDecimalPrecision in table.h).
struct Decimal {
  int64_t unscaled = 0;
  int32_t scale = 0;
  friend bool operator==(const Decimal& a, const Decimal& b);
  friend std::strong_ordering operator<=>(const Decimal& a, const Decimal& b);
};

struct Binary {
  std::string bytes;
  friend auto operator<=>(const Binary&, const Binary&) = default;
};

// A wall clock without a zone: microseconds since 1970-01-01 00:00:00, read as if in UTC.
struct TimestampNtz {
  int64_t micros = 0;
  friend auto operator<=>(const TimestampNtz&, const TimestampNtz&) = default;
};

using Value = std::variant<std::monostate, int64_t, std::string, Timestamp, Date, Double, Boolean,
                           Decimal, Binary, TimestampNtz>;

inline bool IsNull(const Value& v) { return std::holds_alternative<std::monostate>(v); }

// SQL's three truth values.
enum class Truth { kFalse, kTrue, kUnknown };

Truth Not(Truth t);
Truth And(Truth a, Truth b);
Truth Or(Truth a, Truth b);

// -1, 0, 1 for two non-null values of one type; nullopt when either is NULL.
// REQUIRES: a and b hold the same alternative when neither is NULL.
std::optional<int> Compare(const Value& a, const Value& b);

// A literal Spark SQL and rlc's predicate parser both read back as the same value: "NULL",
// "42", "'text'", "TIMESTAMP '2024-03-10 01:02:03.000004Z'", "DATE '2024-03-10'", "1.5E0",
// "true", "-12.50" (a decimal in Spark SQL, a double in rlc's parser: the same number for the
// model's 18 digits), "TIMESTAMP_NTZ '2024-03-10 01:02:03.000004'". A double that is no finite
// number has no literal: "CAST('NaN' AS DOUBLE)" and the like. A binary is Spark's X'0A1B',
// which rlc's parser does not read (the model draws no comparison with one).
std::string ToString(const Value& v);

// Civil dates, proleptic Gregorian: days since 1970-01-01 to (year, month, day) and back.
struct CivilDate {
  int64_t year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
};
CivilDate CivilFromDays(int64_t days);
int64_t DaysFromCivil(const CivilDate& date);

// The decimal text of unscaled * 10^-scale: "-12.50", "0.05", "7" (scale 0).
std::string DecimalText(int64_t unscaled, int32_t scale);

// "YYYY-MM-DD" of `days` since 1970-01-01.
std::string DateText(int64_t days);
// "YYYY-MM-DD HH:MM:SS.ffffff" of `micros` shifted by `offset_minutes` (no zone suffix).
std::string WallClockText(int64_t micros, int offset_minutes);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_VALUE_H_
