// MayMatch: may this file hold a live row for which the predicate is True?
//
// Concern: data skipping for the conflict checker (docs/cases.md#c-1, docs/decisions.md#case-1).
// The answer true means "keep the file" (it may hold a matching row); false is a proof that no live
// row matches. Every rule that can say false is in column_domain.h (what the statistics and the
// partition values allow) and domain_evaluator.h (how a predicate combines them).
//
// Soundness, stated once (checked by tests/property/predicate_soundness_property_test.cc):
//   For any set of live rows consistent with the statistics (each row's values within min/max
//   as column_domain.h reads them, at most nullCount NULLs and at most numRecords - nullCount
//   non-NULLs per column, at most numRecords rows) and with the partition values, if
//   EvaluateRow (row_evaluator.h) gives True for one of the rows, the functions below return
//   true. In particular:
//   - Missing statistics (no stats at all, no numRecords, no min/max/nullCount for a column, a
//     column whose physical name cannot be resolved) never lead to false.
//   - Wide bounds (tightBounds=false) are read exactly like tight ones: min/max remain valid
//     bounds of the live rows, and the nullCount rules used (== 0: no NULL; == numRecords: only
//     NULLs) hold for the subset of physical rows that is live. Nothing is concluded from
//     0 < nullCount < numRecords, tight or wide. So under wide bounds IS NOT NULL on a column
//     with nullCount == numRecords cannot match: every physical row, hence every live row, is
//     NULL.
//   - Truncated strings: min is a prefix of the true min (still a lower bound); max may be a
//     truncated prefix, so a string that starts with max is treated as possibly present.
//   - numRecords == 0 (no rows at all): false.
//
// Thread-safety: stateless.
#ifndef RLC_IMPL_PREDICATE_STATS_EVALUATOR_H_
#define RLC_IMPL_PREDICATE_STATS_EVALUATOR_H_

#include <vector>

#include "impl/delta/actions.h"
#include "impl/delta/stats.h"
#include "impl/predicate/bind.h"

namespace rlc::predicate {

// From the file's statistics only (keyed by physical column paths); partition columns are
// treated as unknown.
bool MayMatch(const BoundExpr& bound, const delta::FileStats& stats);

// From the file's partition values only (keyed by the partition column's physical name, as in an
// add action); every other column is unknown. Values are typed by the schema; null or "" is NULL.
bool MayMatchPartition(const BoundExpr& bound, const delta::StringMap& partition_values);

// Both at once: partition columns from partition_values, the others from stats (nullptr: no
// statistics). Never false where either of the two above is true for every column it reads.
bool MayMatchFile(const BoundExpr& bound, const delta::FileStats* stats,
                  const delta::StringMap& partition_values);
// The same from the statistics of `columns` only (delta::ParseStatsOf over them): a column of the
// predicate's that is not among them is one the statistics say nothing of.
bool MayMatchFile(const BoundExpr& bound, const delta::StatsView& stats,
                  const std::vector<ColumnPath>& columns, const delta::StringMap& partition_values);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_STATS_EVALUATOR_H_
