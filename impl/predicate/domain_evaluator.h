// EvaluateOverDomains: which truth values a bound predicate may take on the live rows of a file,
// given a ColumnDomain (column_domain.h) for each column it names.
//
// Concern: the sound core of the stats and partition evaluators. Each node yields three flags:
// may some live row make it True, False, Unknown (NULL)? Leaves read the domains (interval logic,
// with a string upper bound that may be a prefix); NOT swaps True and False and keeps Unknown;
// AND and OR combine their children's flags as if the children were independent, which can only
// add possibilities (Kleene: AND is True only if all are True, False if any is False, Unknown if
// none is False and some is Unknown; OR dually). Handling NOT by swapping is what makes
// `NOT (s = 'abc')` sound where a bare "may be true" flag would not be.
//
// Thread-safety: stateless; the lookup is called from the calling thread only.
//
// Invariants (soundness):
//   1. If some row whose values lie in the domains makes the predicate True (row_evaluator.h),
//      the result has can_be_true; likewise for False and Unknown.
//   2. The lookup is asked only for columns of bound.columns().
#ifndef RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_
#define RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_

#include <functional>

#include "impl/predicate/bind.h"
#include "impl/predicate/column_domain.h"

namespace rlc::predicate {

struct Possible {
  bool can_be_true = false;
  bool can_be_false = false;
  bool can_be_unknown = false;
  friend bool operator==(const Possible&, const Possible&) = default;
};

using DomainLookup = std::function<ColumnDomain(const ResolvedColumn&)>;

Possible EvaluateOverDomains(const BoundExpr& bound, const DomainLookup& domains);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_
