// Value: one cell of the logical table: NULL, or a value of one of the column types the model
// knows: long, string, timestamp (an instant), date and double.
//
// Concern: Spark SQL's comparison with three-valued logic. Comparing NULL with anything is
// Unknown; comparing values of two types is a type error the model refuses to build (Compare
// aborts), because the predicates it generates are typed against the schema. A double compares
// as Spark compares it: NaN equals NaN and is above every other value, -0.0 equals 0.0.
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

using Value = std::variant<std::monostate, int64_t, std::string, Timestamp, Date, Double>;

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
// "42", "'text'", "TIMESTAMP '2024-03-10 01:02:03.000004Z'", "DATE '2024-03-10'", "1.5E0".
// A double that is no finite number has no literal: "CAST('NaN' AS DOUBLE)" and the like.
std::string ToString(const Value& v);

// Civil dates, proleptic Gregorian: days since 1970-01-01 to (year, month, day) and back.
struct CivilDate {
  int64_t year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
};
CivilDate CivilFromDays(int64_t days);
int64_t DaysFromCivil(const CivilDate& date);

// "YYYY-MM-DD" of `days` since 1970-01-01.
std::string DateText(int64_t days);
// "YYYY-MM-DD HH:MM:SS.ffffff" of `micros` shifted by `offset_minutes` (no zone suffix).
std::string WallClockText(int64_t micros, int offset_minutes);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_VALUE_H_
