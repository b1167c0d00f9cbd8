// PartitionValue: what one entry of an add's partitionValues says of its column's value, read
// once for every tier that uses it: the statistics tier's per-file domains (column_domain.h) and
// the row reader behind Case 1's exact tier, 1b and Case 2 (impl/parquet/parquet_table_files.h).
//
// Concern: one meaning per type, so that no two tiers read one text two ways. A tier that needs
// a single value (the row reader) takes kExact only and treats every other kind as unreadable
// (the reconcile falls back to Delta's abort); a tier that needs bounds takes kRange too.
//
// The meaning, per column type (docs/formats.md#partition-values):
//   - null, or "": kNull, for every type.
//   - byte, short, integer, long: decimal digits with an optional '-', within the type's range:
//     kExact. A value out of the type's range reads as NULL in Spark's cast: kUnknown.
//   - float, double: the text correctly rounded to the column's type (a float column's value is
//     the nearest float, as every reader's parse gives it): kExact. NaN: kUnknown.
//   - string: the text itself: kExact.
//   - boolean: "true" or "false" in any case: kExact; anything else (Spark reads "yes" or "1"
//     as true): kUnknown.
//   - date: YYYY-MM-DD: kExact.
//   - timestamp: with a zone (Z or an offset): kExact. Without one, each reader places it in its
//     own session zone, which the log does not record: kRange of kZoneSlackMicros either
//     way (Java's offsets reach +-18:00).
//   - timestamp_ntz: without a zone: kExact. With one (readers differ on whether the zone
//     shifts the wall clock): kUnknown.
//   - decimal: not NULL, no bounds here: kNonNull.
//   - any other type, or text that does not parse: kUnknown.
//
// Thread-safety: plain values and stateless functions.
//
// Invariants:
//   1. kExact: lower == upper in value_order.h's order. kRange: lower < upper.
//   2. A kString bound views the text it was read from, which must outlive the value.
//   3. why is set (a static string) exactly when kind is not kNull or kExact.
#ifndef RLC_IMPL_PREDICATE_PARTITION_VALUE_H_
#define RLC_IMPL_PREDICATE_PARTITION_VALUE_H_

#include <optional>
#include <string>

#include "impl/predicate/datetime.h"
#include "impl/predicate/schema.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {

// A timestamp written without a zone may be in any zone: Java's offsets reach +-18:00.
inline constexpr int64_t kZoneSlackMicros = 18 * 3600 * kMicrosPerSecond;

struct PartitionValue {
  enum class Kind : uint8_t {
    kNull,     // the column is NULL in every row of the file
    kExact,    // every row holds lower (== upper)
    kRange,    // every row holds one value in [lower, upper], which one is not known
    kNonNull,  // not NULL, nothing more
    kUnknown,  // nothing may be assumed
  };
  Kind kind = Kind::kUnknown;
  ValueRef lower;
  ValueRef upper;
  const char* why = nullptr;  // for kRange, kNonNull and kUnknown: why not one value
};

// The value `text` (nullopt: a JSON null) gives a column of `type`.
PartitionValue ReadPartitionValue(ColumnType type, const std::optional<std::string>& text);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_PARTITION_VALUE_H_
