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

#include <optional>
#include <vector>

#include "impl/delta/actions.h"
#include "impl/delta/stats.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/domain_evaluator.h"

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

// Several predicates compiled once (domain_evaluator.h) and judged file after file, each column's
// domain built once per file for all of them: Case 1's statistics tier judges every add of a
// winner this way. Each answer is the one MayMatchFile above gives for that predicate.
class FilePredicates {
 public:
  // `predicates` and `stats_columns` (the columns given to delta::ParseStatsOf) must outlive this.
  FilePredicates(const std::vector<BoundExpr>& predicates,
                 const std::vector<ColumnPath>& stats_columns);

  // (*answers)[i]: may a live row of the file satisfy predicates[i]? REQUIRES: `stats` was read
  // for stats_columns (one entry per column).
  void MayMatchPerPredicate(const delta::StatsView& stats, const delta::StringMap& partition_values,
                            std::vector<bool>* answers) const;
  void MayMatchPerPredicate(const delta::FileStats& stats, const delta::StringMap& partition_values,
                            std::vector<bool>* answers) const;
  // From the partition values only, as MayMatchPartition.
  void MayMatchPerPredicate(const delta::StringMap& partition_values,
                            std::vector<bool>* answers) const;

 private:
  template <typename FromStats>
  void Judge(bool has_stats, std::optional<int64_t> num_records,
             const delta::StringMap& partition_values, const FromStats& from_stats,
             std::vector<bool>* answers) const;

  ColumnTable columns_;
  std::vector<DomainProgram> programs_;  // one per predicate
  std::vector<int> stats_index_;  // per column of columns_: its index in stats_columns, or -1
  size_t stats_columns_ = 0;      // how many stats_columns there are
};

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_STATS_EVALUATOR_H_
