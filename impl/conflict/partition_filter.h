// ReadPredicateMatcher: may a file, or a row, fall under any of the loser's read predicates?
// (docs/baseline.md#b4 step 3, the candidate filtering of the added-files check;
// docs/cases.md#c-1 and docs/cases.md#c-1b.)
//
// Concern: the loser's predicates, parsed and bound once against the read schema. MayMatch
// evaluates them on partition values only (data columns are unknown there and so may match);
// MayMatchFilePerRead adds the file's statistics (Case 1); RowMayMatch evaluates one row (the
// exact tier and 1b). A predicate that cannot be parsed or bound makes the matcher match
// everything: on doubt, conflict (and the reason says why).
//
// Thread-safety: a built matcher is immutable and may be shared.
#ifndef RLC_IMPL_CONFLICT_PARTITION_FILTER_H_
#define RLC_IMPL_CONFLICT_PARTITION_FILTER_H_

#include <memory>
#include <string>
#include <vector>

#include "impl/delta/actions.h"
#include "impl/delta/stats.h"
#include "impl/predicate/row_evaluator.h"

namespace rlc::conflict {

class ReadPredicateMatcher {
 public:
  ReadPredicateMatcher(const std::vector<std::string>& predicates,
                       const delta::Metadata& read_metadata);
  ~ReadPredicateMatcher();
  ReadPredicateMatcher(ReadPredicateMatcher&&) noexcept;

  // True when some read predicate may match a row in a file with these partition values.
  bool MayMatch(const delta::StringMap& partition_values) const;
  // Why the matcher matches everything ("" when it evaluates the predicates).
  const std::string& match_all_reason() const;
  // Every read predicate parsed and bound (there may be none).
  bool bound() const { return match_all_reason().empty(); }
  size_t size() const;
  // Whether every read predicate names partition columns only (true for none; false when the
  // matcher matches everything).
  bool NamesPartitionColumnsOnly() const;

  // One answer per read predicate: may a live row of a file with these statistics and partition
  // values satisfy it? REQUIRES: bound().
  std::vector<bool> MayMatchFilePerRead(const delta::FileStats& stats,
                                        const delta::StringMap& partition_values) const;
  // The physical paths of the columns the read predicates read from statistics (every column they
  // name but the partition columns), each once.
  const std::vector<delta::ColumnPath>& stats_columns() const;
  // The same from the statistics of stats_columns() only (delta::ParseStatsOf over them): what
  // the conflict check asks of every add of a winner. REQUIRES: bound().
  std::vector<bool> MayMatchFilePerRead(const delta::StatsView& stats,
                                        const delta::StringMap& partition_values) const;
  // The same into `answers`, whose memory is reused from file to file.
  void MayMatchFilePerRead(const delta::StatsView& stats, const delta::StringMap& partition_values,
                           std::vector<bool>* answers) const;
  // Whether some read predicate is TRUE on the row. A row that cannot be evaluated (a missing
  // column, a value of the wrong type) counts as matching. REQUIRES: bound().
  bool RowMayMatch(const predicate::RowLookup& row) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_PARTITION_FILTER_H_
