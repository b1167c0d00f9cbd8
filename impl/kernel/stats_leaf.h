// Case 1's statistics evaluator at its leaves: what a file's statistics say about one column, and
// which truth values `column OP literal` may then take on the file's live rows
// (docs/formats.md#a2, docs/cases.md#c-1; impl/predicate/domain_evaluator.h combines the leaves
// with AND, OR and NOT).
//
// Concern: the two decisions a wrong answer of which would drop a file that holds a matching row.
//   NullFacts  from numRecords and the column's nullCount: may a live row hold NULL, may one hold
//     a non-NULL value? The DV may delete any physical rows, so nullCount (which counts physical
//     rows) says something only at its extremes: 0 rules NULL out, numRecords rules non-NULL
//     out, and numRecords = 0 rules both out. A count that is absent, negative or above
//     numRecords says nothing.
//   CompareWithLiteral  may `v OP x` be True, may it be False, for a non-NULL live value v, given
//     bounds lower <= v and v <= upper (each when present). Wide bounds are still bounds. A
//     string `upper` may be truncated (Delta truncates string statistics): then `upper_is_prefix`
//     is set and v may also be any string that starts with upper. The caller says whether the
//     literal itself starts with upper (`x_starts_with_upper`), a fact about two known strings.
//     Strings starting with upper form an interval of the string order just above upper, so
//     x lies below some admitted v iff x < upper or x starts with upper.
// Values are compared only through ValueLe, which is false for values that cannot be compared
// (other types): each test below is written so that such a false answer says "may", never
// "cannot": "cannot be below x" is written "x <= lower", never "not (lower < x)".
//
// Written over a ValueOrder (value_domain.h): the checker runs it on literals
// (impl/predicate/domain_evaluator.cc), proofs/ on Z3 terms.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_STATS_LEAF_H_
#define RLC_IMPL_KERNEL_STATS_LEAF_H_

#include "impl/base/mutants.h"
#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueOrder D>
struct NullFacts {
  typename D::Bool may_be_null;
  typename D::Bool may_be_non_null;
};

template <ValueOrder D>
NullFacts<D> NullFactsFromCounts(const D& d, const typename D::Bool& has_rows,
                                 const typename D::Int& rows,
                                 const typename D::Bool& has_null_count,
                                 const typename D::Int& null_count) {
  const typename D::Bool no_rows = d.And(has_rows, d.Eq(rows, d.Const(0)));
  const typename D::Bool usable =
      d.And(has_null_count,
            d.And(d.Le(d.Const(0), null_count), d.Implies(has_rows, d.Le(null_count, rows))));
  const typename D::Bool no_nulls = d.And(usable, d.Eq(null_count, d.Const(0)));
  const typename D::Bool all_nulls = d.And(usable, d.And(has_rows, d.Eq(null_count, rows)));
  return {d.And(d.Not(no_rows), d.Not(no_nulls)), d.And(d.Not(no_rows), d.Not(all_nulls))};
}

template <ValueOrder D>
struct ValueBounds {
  typename D::Bool has_lower;
  typename D::Value lower;  // meaningful when has_lower
  typename D::Bool has_upper;
  typename D::Value upper;  // meaningful when has_upper
  typename D::Bool upper_is_prefix;
};

enum class LeafOp { kEq, kNe, kLt, kLe, kGt, kGe };

template <ValueOrder D>
struct LeafPossible {
  typename D::Bool can_be_true;
  typename D::Bool can_be_false;
};

// Over the non-NULL live values (NULL makes every comparison Unknown; the caller adds that).
template <ValueOrder D>
LeafPossible<D> CompareWithLiteral(const D& d, const ValueBounds<D>& b, LeafOp op,
                                   const typename D::Value& x,
                                   const typename D::Bool& x_starts_with_upper) {
  using Bool = typename D::Bool;
  // Each fact as a function, computed only for the operators that ask for it: the checker judges
  // a leaf for each of a winner's files, and most operators need two or three of the five.
  const auto prefix_reaches_x = [&] { return d.And(b.upper_is_prefix, x_starts_with_upper); };
  // Some admitted v with v < x, v <= x, v > x, v >= x, v = x.
  const auto may_be_below = [&] { return d.Implies(b.has_lower, d.Not(d.ValueLe(x, b.lower))); };
  const auto may_be_at_most = [&] {
    return d.Implies(b.has_lower,
                     d.Not(d.And(d.ValueLe(x, b.lower), d.Not(d.ValueLe(b.lower, x)))));
  };
  const auto may_be_above = [&] {
    return d.Implies(b.has_upper, d.Or(d.Not(d.ValueLe(b.upper, x)), prefix_reaches_x()));
  };
  const auto may_be_at_least = [&]() -> Bool {
    if (RLC_MUTANT("data-skipping-ge-off-by-one"))
      return d.Implies(b.has_upper, d.Not(d.ValueLe(b.upper, x)));
    return d.Implies(b.has_upper,
                     d.Or(d.Not(d.And(d.ValueLe(b.upper, x), d.Not(d.ValueLe(x, b.upper)))),
                          prefix_reaches_x()));
  };
  const auto may_be_equal = [&] { return d.And(may_be_at_most(), may_be_at_least()); };
  // Every admitted v equals x: a single value (lower = upper, not a prefix) that is x.
  const auto all_equal = [&] {
    return d.And(d.And(b.has_lower, b.has_upper),
                 d.And(d.Not(b.upper_is_prefix),
                       d.And(d.And(d.ValueLe(b.lower, b.upper), d.ValueLe(b.upper, b.lower)),
                             d.And(d.ValueLe(b.lower, x), d.ValueLe(x, b.lower)))));
  };
  switch (op) {
    case LeafOp::kEq:
      return {may_be_equal(), d.Not(all_equal())};
    case LeafOp::kNe:
      return {d.Not(all_equal()), may_be_equal()};
    case LeafOp::kLt:
      return {may_be_below(), may_be_at_least()};
    case LeafOp::kLe:
      return {may_be_at_most(), may_be_above()};
    case LeafOp::kGt:
      return {may_be_above(), may_be_at_most()};
    case LeafOp::kGe:
      return {may_be_at_least(), may_be_below()};
  }
  return {d.True(), d.True()};
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_STATS_LEAF_H_
