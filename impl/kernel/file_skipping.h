// Case 1's statistics tier for one of the winner's added files: may it hold a row the loser's
// reads select? (docs/cases.md#c-1; docs/decisions.md#case-1.)
//
// Concern: the guards and the combination; the per-read answers come from the statistics
// evaluator (impl/predicate/stats_evaluator.h, sound by its own contract), one per read predicate.
// A file is kept (the conflict stands) when any guard holds:
//   - the loser read the whole table, or recorded no read predicate (it must conflict with every
//     add: Delta's guard);
//   - some read predicate could not be parsed or bound against the read schema;
//   - the file has no statistics, or they do not parse;
// and otherwise when some read may match (reads combine with OR; the conjuncts of one read are
// ANDed inside its predicate).
//
// Written over a ValueDomain (value_domain.h); the guards are shape, known concretely.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_DATA_SKIPPING_H_
#define RLC_IMPL_KERNEL_DATA_SKIPPING_H_

#include <vector>

#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

struct SkippingGuards {
  bool whole_table_read = false;
  bool has_read_predicates = false;
  bool predicates_bound = false;   // every read predicate parsed and bound
  bool statistics_usable = false;  // the file's statistics are present and parse
};

// Whether the guards let the statistics decide at all.
inline bool StatisticsMayDecide(const SkippingGuards& g) {
  return !g.whole_table_read && g.has_read_predicates && g.predicates_bound && g.statistics_usable;
}

// REQUIRES: may_match_per_read has one answer per read predicate when StatisticsMayDecide(g).
template <ValueDomain D>
typename D::Bool KeepAddedFile(const D& d, const SkippingGuards& g,
                               const std::vector<typename D::Bool>& may_match_per_read) {
  if (!StatisticsMayDecide(g) || may_match_per_read.empty()) return d.True();
  typename D::Bool keep = d.False();
  for (const typename D::Bool& may_match : may_match_per_read) keep = d.Or(keep, may_match);
  return keep;
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_DATA_SKIPPING_H_
