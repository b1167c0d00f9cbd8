// ColumnDomain: what may be assumed about one column's live values in one file, read from the
// file's statistics or from its partition value.
//
// Concern: turn Delta's per-file facts into sound bounds. Every field over-approximates: a domain
// may admit values no live row holds, never the reverse. A missing or unusable fact leaves the
// field at its "anything" value, so missing statistics mean "may match".
//
// From statistics (docs/formats.md#a2; stats keyed by the column's physical path, schema.h):
//   - Rows: numRecords counts physical rows; the live rows (after the DV) are a subset of them.
//   - nullCount: the live NULLs are at most nullCount and the live non-NULLs at most
//     numRecords - nullCount, whether the bounds are tight or wide. So nullCount == 0 rules out
//     NULL and nullCount == numRecords rules out non-NULL values, and nothing in between says
//     anything (the DV may have removed every NULL or every non-NULL row). This is exactly A2's
//     "with wide bounds nullCount carries information only at 0 or numRecords"; a value outside
//     [0, numRecords] is ignored.
//   - min/max bound the live non-NULL values, tight or wide (wide bounds stay valid bounds).
//     Adjustments: strings: max is kept as a prefix bound (upper_is_prefix: Delta truncates
//     string statistics, so any string that starts with max may exist; a truncated min is a
//     prefix of the true min, hence still <= it; a max ending in U+FFFD, the tie-breaker older
//     writers appended, loses it, docs/formats.md#a2); timestamps: widened by
//     kTimestampStatsSlackMicros both ways (Delta truncates them to milliseconds), and by
//     kZoneSlackMicros more when the text has no zone for a `timestamp` column; floats: widened
//     to the neighbouring floats (the JSON holds the float's shortest text, not its double value);
//     NaN, a decimal column, a value of the wrong JSON type or min > max: no bound.
// From a partition value: partition_value.h's one reading, its bounds as the domain's (kUnknown
// gives "anything", kNonNull a non-NULL value without bounds).
//
// Thread-safety: plain values and stateless functions.
//
// Invariants:
//   1. lower and upper, when both set, satisfy lower <= upper in value_order.h's order, and are of
//      the column's category (numeric bounds may be long or double).
//   2. upper_is_prefix is set only for strings.
#ifndef RLC_IMPL_PREDICATE_COLUMN_DOMAIN_H_
#define RLC_IMPL_PREDICATE_COLUMN_DOMAIN_H_

#include <optional>
#include <string>

#include "impl/delta/stats.h"
#include "impl/predicate/ast.h"
#include "impl/predicate/datetime.h"
#include "impl/predicate/partition_value.h"
#include "impl/predicate/schema.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {

// Delta writes timestamp statistics truncated to milliseconds: the true value is within 999 us.
inline constexpr int64_t kTimestampStatsSlackMicros = 1000;

// The bounds view the strings they came from (value_order.h's ValueRef): the statistics, the
// partition values or the predicate's literals must outlive the domain.
struct ColumnDomain {
  bool may_be_null = true;        // some live row may hold NULL
  bool may_be_non_null = true;    // some live row may hold a non-NULL value
  std::optional<ValueRef> lower;  // every live non-NULL value is >= lower
  std::optional<ValueRef> upper;  // every live non-NULL value is <= upper, or (if
  bool upper_is_prefix = false;   //   upper_is_prefix) is a string that starts with upper

  static ColumnDomain Anything() { return ColumnDomain{}; }
  // Every live non-NULL value equals lower (== upper).
  bool IsSingleValue() const;
};

// The column's domain in a file with these statistics.
ColumnDomain DomainFromStats(const ResolvedColumn& column, const delta::FileStats& stats);
// The same from what a file's statistics (of `num_records` physical rows) say of the column
// (nullptr: nothing).
ColumnDomain DomainFromColumnStats(const ResolvedColumn& column, std::optional<int64_t> num_records,
                                   const delta::ColumnStats* stats);
// The same into `*out`, every field of which it sets: Case 1 builds a domain per column for each
// of a hundred thousand files, and a domain built anew is cleared whole first.
void SetDomainFromColumnStats(const ResolvedColumn& column, std::optional<int64_t> num_records,
                              const delta::ColumnStats* stats, ColumnDomain* out);

// The column's domain in a file with this partition value (nullopt: a JSON null).
ColumnDomain DomainFromPartitionValue(const ResolvedColumn& column,
                                      const std::optional<std::string>& value);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_COLUMN_DOMAIN_H_
