// Case 1's statistics evaluator above its leaves: which of SQL's three truth values (True,
// False, Unknown) a condition may take on a file's live rows, from what its parts may take
// (docs/formats.md#a2, docs/cases.md#c-1; the leaves are stats_leaf.h, the tree walk is
// impl/predicate/domain_evaluator.cc).
//
// Concern: the combination rules, each of which would drop a file holding a matching row if it
// answered "cannot" where a row takes that value:
//   Negation      NOT swaps True and False; Unknown stays Unknown.
//   Connective    AND (OR is its dual, with True and False swapped) over any number of
//     children, folded one child at a time (Begin, Step, Finish) so that a proof can run the
//     very step by induction on the number of children: a row's AND is True iff every child is
//     True, False iff some child is False, Unknown otherwise.
//   NullTest      IS NULL / IS NOT NULL from the column's null facts; never Unknown.
//   Comparison    `a OP b`: Unknown when either side may be NULL; if either side is surely
//     NULL nothing else; otherwise the leaf's answer for the non-NULL values.
//   InList        `v IN (x1, ...)`, folded over the items: True if some non-NULL item may equal
//     v; False unless some item is NULL or surely equals v; Unknown when v may be NULL, or when
//     a NULL item is present and no item surely equals v. Each item's facts come from the leaf
//     kernel's `=`: may_equal (some admitted v equals it) and all_equal (every admitted v does).
//
// Written over a ValueOrder (value_domain.h), using only its Bool operations.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_TRUTH_VALUES_H_
#define RLC_IMPL_KERNEL_TRUTH_VALUES_H_

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "impl/base/mutants.h"
#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueOrder D>
struct MayTake {
  typename D::Bool can_be_true;
  typename D::Bool can_be_false;
  typename D::Bool can_be_unknown;
};

template <ValueOrder D>
MayTake<D> Negation(const D& /*d*/, const MayTake<D>& child) {
  return {child.can_be_false, child.can_be_true, child.can_be_unknown};
}

// The fold of a connective. For AND, `primary` is True and `secondary` False; for OR the reverse.
template <ValueOrder D>
struct ConnectiveFold {
  bool is_and;
  typename D::Bool all_primary;       // every child so far may take the primary value
  typename D::Bool any_secondary;     // some child so far may take the secondary value
  typename D::Bool any_unknown;       // some child so far may be Unknown
  typename D::Bool all_no_secondary;  // every child so far may avoid the secondary value
};

template <ValueOrder D>
ConnectiveFold<D> BeginConnective(const D& d, bool is_and) {
  return {is_and, d.True(), d.False(), d.False(), d.True()};
}

template <ValueOrder D>
ConnectiveFold<D> StepConnective(const D& d, const ConnectiveFold<D>& fold,
                                 const MayTake<D>& child) {
  const typename D::Bool primary = fold.is_and ? child.can_be_true : child.can_be_false;
  const typename D::Bool secondary = fold.is_and ? child.can_be_false : child.can_be_true;
  return {fold.is_and, d.And(fold.all_primary, primary), d.Or(fold.any_secondary, secondary),
          d.Or(fold.any_unknown, child.can_be_unknown),
          d.And(fold.all_no_secondary, d.Or(primary, child.can_be_unknown))};
}

template <ValueOrder D>
MayTake<D> FinishConnective(const D& d, const ConnectiveFold<D>& fold) {
  const typename D::Bool unknown = d.And(fold.any_unknown, fold.all_no_secondary);
  if (fold.is_and) return {fold.all_primary, fold.any_secondary, unknown};
  return {fold.any_secondary, fold.all_primary, unknown};
}

// The children as a span (a vector converts): D is deduced from `d` alone.
template <ValueOrder D>
MayTake<D> Connective(const D& d, std::span<const MayTake<std::type_identity_t<D>>> children,
                      bool is_and) {
  ConnectiveFold<D> fold = BeginConnective(d, is_and);
  for (size_t i = 0; i < children.size(); ++i) {
    if (RLC_MUTANT("data-skipping-or-first-disjunct") && !is_and && i >= 1)
      break;  // an OR judged by its first disjunct
    fold = StepConnective(d, fold, children[i]);
  }
  return FinishConnective(d, fold);
}

template <ValueOrder D>
MayTake<D> NullTest(const D& d, const typename D::Bool& may_be_null,
                    const typename D::Bool& may_be_non_null, bool is_null) {
  if (RLC_MUTANT("data-skipping-nulls-ignored") && is_null) return {d.False(), d.True(), d.False()};
  return {is_null ? may_be_null : may_be_non_null, is_null ? may_be_non_null : may_be_null,
          d.False()};
}

// `leaf_true` / `leaf_false`: the leaf's answer for the non-NULL values of both sides.
template <ValueOrder D>
MayTake<D> Comparison(const D& d, const typename D::Bool& left_may_be_null,
                      const typename D::Bool& left_may_be_non_null,
                      const typename D::Bool& right_may_be_null,
                      const typename D::Bool& right_may_be_non_null,
                      const typename D::Bool& leaf_true, const typename D::Bool& leaf_false) {
  const typename D::Bool both_non_null = d.And(left_may_be_non_null, right_may_be_non_null);
  return {d.And(both_non_null, leaf_true), d.And(both_non_null, leaf_false),
          d.Or(left_may_be_null, right_may_be_null)};
}

template <ValueOrder D>
struct InListItem {
  bool is_null;                // the item is the literal NULL (a fact of the query text)
  typename D::Bool may_equal;  // meaningful when !is_null
  typename D::Bool all_equal;  // meaningful when !is_null
};

template <ValueOrder D>
struct InListFold {
  typename D::Bool any_may_equal, has_null, some_all_equal;
};

template <ValueOrder D>
InListFold<D> BeginInList(const D& d) {
  return {d.False(), d.False(), d.False()};
}

template <ValueOrder D>
InListFold<D> StepInList(const D& d, const InListFold<D>& fold, const InListItem<D>& item) {
  if (item.is_null) return {fold.any_may_equal, d.True(), fold.some_all_equal};
  return {d.Or(fold.any_may_equal, item.may_equal), fold.has_null,
          d.Or(fold.some_all_equal, item.all_equal)};
}

template <ValueOrder D>
MayTake<D> FinishInList(const D& d, const InListFold<D>& fold, const typename D::Bool& may_be_null,
                        const typename D::Bool& may_be_non_null) {
  const typename D::Bool no_sure_match = d.Not(fold.some_all_equal);
  return {d.And(may_be_non_null, fold.any_may_equal),
          d.And(may_be_non_null, d.And(d.Not(fold.has_null), no_sure_match)),
          d.Or(may_be_null, d.And(may_be_non_null, d.And(fold.has_null, no_sure_match)))};
}

template <ValueOrder D>
MayTake<D> InList(const D& d, const std::vector<InListItem<D>>& items,
                  const typename D::Bool& may_be_null, const typename D::Bool& may_be_non_null) {
  InListFold<D> fold = BeginInList(d);
  for (const InListItem<D>& item : items) fold = StepInList(d, fold, item);
  return FinishInList(d, fold, may_be_null, may_be_non_null);
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_TRUTH_VALUES_H_
