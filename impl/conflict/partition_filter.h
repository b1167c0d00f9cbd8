// ReadPredicateMatcher: does a file with given partition values fall under any of the loser's
// read predicates? (delta-rlc.md B4 step 3: the candidate filtering of the added-files check.)
//
// Concern: evaluate the loser's predicates on partition values only; a predicate's conjuncts on
// data columns are unknown here and so may match. A predicate that cannot be parsed or bound to
// the read schema makes the matcher match everything: on doubt, conflict (and the reason says
// why).
//
// Thread-safety: a built matcher is immutable and may be shared.
#ifndef RLC_IMPL_CONFLICT_PARTITION_FILTER_H_
#define RLC_IMPL_CONFLICT_PARTITION_FILTER_H_

#include <memory>
#include <string>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::conflict {

class ReadPredicateMatcher {
 public:
  ReadPredicateMatcher(const std::vector<std::string>& predicates, const delta::Metadata& read_metadata);
  ~ReadPredicateMatcher();
  ReadPredicateMatcher(ReadPredicateMatcher&&) noexcept;

  // True when some read predicate may match a row in a file with these partition values.
  bool MayMatch(const delta::StringMap& partition_values) const;
  // Why the matcher matches everything ("" when it evaluates the predicates).
  const std::string& match_all_reason() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_PARTITION_FILTER_H_
