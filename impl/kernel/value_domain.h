// ValueDomain: the algebra every reconcile kernel is written in, so one kernel text serves both
// the checker (concrete values) and the proofs (Z3 terms).
//
// Concern: a kernel decides with these operations only. Everything that depends on a value goes
// through them (including choices: Ite, never a C++ `if` on a Bool); C++ control flow may depend
// only on the *shape* of the input (how many files, which statistics are present), which the
// checker knows concretely and a proof fixes per obligation.
//
// A domain D provides three value types and the operations below, as const member functions:
//   D::Bool   True(), False(), And(a, b), Or(a, b), Not(a), Implies(a, b)
//   D::Int    Const(int64_t), Add(a, b), Sub(a, b), Eq(a, b), Lt(a, b), Le(a, b),
//             Ite(Bool, Int, Int)
//   D::Set    EmptySet(), Insert(s, Int), Contains(s, Int), Union(s, t), Intersect(s, t),
//             Difference(s, t) (s minus t), Cardinality(s) -> Int, Rank(s, Int) -> Int (members
//             of s below the Int), IsEmpty(s), IsSubset(s, t), Equal(s, t), IteSet(Bool, s, t),
//             InsertWhen(Set& s, Int, Bool) (adds the Int when the Bool holds; in place, so the
//             concrete domain inserts in O(log n)),
//             UnionTestingMeet(s, t, m, Set& u) -> Bool: sets u = Union(s, t) and answers
//             Equal(Intersect(s, t), m); DifferenceTestingSubset(s, t, Set& r) -> Bool: sets
//             r = Difference(s, t) and answers IsSubset(t, s). Each is exactly its two plain
//             operations (a symbolic domain defines it so); a concrete domain gets both answers
//             from one pass over the sets. The output set must not be one of the inputs,
//             Ranker(s) -> an object r with r.Below(Int) -> Int = Rank(s, Int); a concrete domain
//             answers ascending queries in amortized O(1) (a remap asks once per deleted row,
//             in order), a symbolic one is Rank itself,
//             ForEachMember(s, f): calls f(Int element, Bool present) for each candidate
//             element in ascending order. A concrete domain visits exactly the members (present
//             is true); a bounded symbolic domain visits its whole universe, with present =
//             Contains(s, element). A kernel's loop body must therefore guard every effect with
//             `present` (Implies, InsertWhen, IteSet), never assume it.
//   D::Value  a statistic's value: ValueLe(a, b) -> Bool, false when the two cannot be compared
//             (a concrete domain may meet values of different types; false only ever costs a
//             reconcile, never admits one).
// Integers are mathematical (no overflow): the production domain computes in 128 bits, which the
// row counts of one commit cannot leave; Z3 uses unbounded Int.
//
// Thread-safety: a domain object is immutable once built.
#ifndef RLC_IMPL_KERNEL_VALUE_DOMAIN_H_
#define RLC_IMPL_KERNEL_VALUE_DOMAIN_H_

#include <concepts>
#include <cstdint>

namespace rlc::kernel {

// The part without sets: enough for kernels that judge values and counts (stats_leaf.h,
// truth_values.h), and what a domain over predicate literals provides.
template <class D>
concept ValueOrder = requires(const D& d, typename D::Bool b, typename D::Int i,
                              typename D::Value v) {
  { d.True() } -> std::convertible_to<typename D::Bool>;
  { d.False() } -> std::convertible_to<typename D::Bool>;
  { d.And(b, b) } -> std::convertible_to<typename D::Bool>;
  { d.Or(b, b) } -> std::convertible_to<typename D::Bool>;
  { d.Not(b) } -> std::convertible_to<typename D::Bool>;
  { d.Implies(b, b) } -> std::convertible_to<typename D::Bool>;
  { d.Const(int64_t{0}) } -> std::convertible_to<typename D::Int>;
  { d.Add(i, i) } -> std::convertible_to<typename D::Int>;
  { d.Sub(i, i) } -> std::convertible_to<typename D::Int>;
  { d.Eq(i, i) } -> std::convertible_to<typename D::Bool>;
  { d.Lt(i, i) } -> std::convertible_to<typename D::Bool>;
  { d.Le(i, i) } -> std::convertible_to<typename D::Bool>;
  { d.Ite(b, i, i) } -> std::convertible_to<typename D::Int>;
  { d.ValueLe(v, v) } -> std::convertible_to<typename D::Bool>;
};

template <class D>
concept ValueDomain = ValueOrder<D> &&
    requires(const D& d, typename D::Bool b, typename D::Int i, typename D::Set s) {
  { d.EmptySet() } -> std::convertible_to<typename D::Set>;
  { d.Insert(s, i) } -> std::convertible_to<typename D::Set>;
  { d.Contains(s, i) } -> std::convertible_to<typename D::Bool>;
  { d.Union(s, s) } -> std::convertible_to<typename D::Set>;
  { d.Intersect(s, s) } -> std::convertible_to<typename D::Set>;
  { d.Difference(s, s) } -> std::convertible_to<typename D::Set>;
  { d.Cardinality(s) } -> std::convertible_to<typename D::Int>;
  { d.Rank(s, i) } -> std::convertible_to<typename D::Int>;
  { d.IsEmpty(s) } -> std::convertible_to<typename D::Bool>;
  { d.IsSubset(s, s) } -> std::convertible_to<typename D::Bool>;
  { d.Equal(s, s) } -> std::convertible_to<typename D::Bool>;
  { d.IteSet(b, s, s) } -> std::convertible_to<typename D::Set>;
  { d.Ranker(s).Below(i) } -> std::convertible_to<typename D::Int>;
  {d.InsertWhen(s, i, b)};
  { d.UnionTestingMeet(s, s, s, s) } -> std::convertible_to<typename D::Bool>;
  { d.DifferenceTestingSubset(s, s, s) } -> std::convertible_to<typename D::Bool>;
  {d.ForEachMember(s, [](const typename D::Int&, const typename D::Bool&) {})};
};

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_VALUE_DOMAIN_H_
