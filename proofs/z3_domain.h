// Z3Domain: the symbolic instantiation of the kernels' ValueDomain (impl/kernel/value_domain.h),
// so a proof runs the very kernel text the checker runs, on Z3 terms instead of values.
//
// Concern: the semantics of each domain operation as a Z3 term, and nothing else (obligations
// are built in *_obligations.h, models are printed by counterexample.h).
//   Bool   a Z3 term of sort Bool.
//   Int    a Z3 term of sort Int: mathematical integers, as the domain contract requires.
//   Value  a statistic's value, modelled as an Int; ValueLe is <=. (The concrete domain can also
//          answer "incomparable"; a proof that needs that models it in its premise.)
//   Set    a set over the bounded universe {0, ..., universe - 1}, fixed per domain object: one
//          Bool membership term per element. Element j is in the set exactly when members[j].
//          Or, for a set the kernels only insert into and test (an output DV), an unbounded set:
//          a Z3 array from Int to Bool (FreshUnboundedSet, EmptyUnboundedSet), so that a claim
//          covers every output row, not only those below the universe. Unbounded sets support
//          Insert, InsertWhen, Contains, IsEmpty, Equal/SetEq and IteSet of two unbounded sets;
//          the other operations need bounded sets (RLC_ASSERT).
// Set operations on an Int x:
//   Insert / InsertWhen  element j becomes members[j] || (x == j) [&& when]. An x outside the
//          universe inserts nothing (the concrete domain asserts instead): an obligation must
//          therefore state, or inherit from the kernel's own guards, that every inserted position
//          is in range. A claim that an inserted position is a member fails when it is not, so a
//          dropped insertion shows up as a counterexample rather than hiding. An unbounded set
//          becomes store(a, x, a[x] || when): every x is a row.
//   Contains  OR_j (members[j] && x == j): false outside the universe, as concretely.
//   Rank(s, x)  the number of members j with j < x.
//   ForEachMember  visits every element j = 0 .. universe - 1 in ascending order with
//          present = members[j], as the contract prescribes for a bounded symbolic domain.
// Every Set passed to an operation must come from a domain with the same universe
// (RLC_ASSERT); Z3 terms must all belong to this domain's context.
//
// Thread-safety: the object is immutable, but a z3::context is not thread-safe: use a domain,
// its terms and its context from one thread.
#ifndef RLC_PROOFS_Z3_DOMAIN_H_
#define RLC_PROOFS_Z3_DOMAIN_H_

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/kernel/value_domain.h"

namespace rlc::proofs {

class Z3Domain {
 public:
  using Bool = z3::expr;
  using Int = z3::expr;
  using Value = z3::expr;
  struct Set {
    std::vector<z3::expr>
        members;  // bounded: members[j]: element j is in the set; size() == universe
    std::optional<z3::expr> array;  // unbounded: the Int -> Bool array, and members is empty
  };

  // REQUIRES: 0 <= universe. The context must outlive the domain and every term it builds.
  Z3Domain(z3::context& context, int universe);

  z3::context& context() const { return *context_; }
  int universe() const { return universe_; }

  Bool True() const;
  Bool False() const;
  Bool And(const Bool& a, const Bool& b) const { return a && b; }
  Bool Or(const Bool& a, const Bool& b) const { return a || b; }
  Bool Not(const Bool& a) const { return !a; }
  Bool Implies(const Bool& a, const Bool& b) const { return z3::implies(a, b); }

  Int Const(int64_t v) const;
  Int Add(const Int& a, const Int& b) const { return a + b; }
  Int Sub(const Int& a, const Int& b) const { return a - b; }
  Bool Eq(const Int& a, const Int& b) const { return a == b; }
  Bool Lt(const Int& a, const Int& b) const { return a < b; }
  Bool Le(const Int& a, const Int& b) const { return a <= b; }
  Int Ite(const Bool& c, const Int& a, const Int& b) const { return z3::ite(c, a, b); }

  Set EmptySet() const;
  Set Insert(const Set& s, const Int& x) const;
  Bool Contains(const Set& s, const Int& x) const;
  Set Union(const Set& s, const Set& t) const;
  Set Intersect(const Set& s, const Set& t) const;
  Set Difference(const Set& s, const Set& t) const;  // s minus t
  Int Cardinality(const Set& s) const;
  Int Rank(const Set& s, const Int& below) const;  // members < below
  // The kernels' rank cursor: symbolically, Rank itself.
  struct RankCursor {
    const Z3Domain* d;
    Set s;
    Int Below(const Int& row) const { return d->Rank(s, row); }
  };
  RankCursor Ranker(const Set& s) const { return RankCursor{this, s}; }
  Bool IsEmpty(const Set& s) const;
  Bool IsSubset(const Set& s, const Set& t) const;
  Bool Equal(const Set& s, const Set& t) const { return SetEq(s, t); }
  Set IteSet(const Bool& c, const Set& s, const Set& t) const;
  void InsertWhen(Set& s, const Int& x, const Bool& when) const;
  // By definition, the two plain operations each.
  Bool UnionTestingMeet(const Set& s, const Set& t, const Set& meet, Set& joined) const {
    const Bool holds = Equal(Intersect(s, t), meet);  // before `joined`, which may alias s or t
    joined = Union(s, t);
    return holds;
  }
  Bool DifferenceTestingSubset(const Set& s, const Set& t, Set& rest) const {
    const Bool holds = IsSubset(t, s);
    rest = Difference(s, t);
    return holds;
  }
  template <typename F>
  void ForEachMember(const Set& s, F&& visit) const {
    CheckUniverse(s);
    for (int j = 0; j < universe_; ++j) visit(Const(j), s.members[j]);
  }

  Bool ValueLe(const Value& a, const Value& b) const { return a <= b; }

  // For obligations. REQUIRES: `name` is unused in this context (Z3 identifies constants by
  // name, so a reused name would silently tie two "fresh" inputs together).
  Set FreshSet(const std::string& name) const;           // constants name[0] .. name[universe-1]
  Set FreshUnboundedSet(const std::string& name) const;  // an array constant `name`
  Set EmptyUnboundedSet() const;                         // the constant-false array
  Int FreshInt(const std::string& name) const;
  Bool SetEq(const Set& s, const Set& t) const;

 private:
  void CheckUniverse(const Set& s) const;  // s is bounded, over this universe

  z3::context* context_;  // not owned
  int universe_;
};

static_assert(rlc::kernel::ValueDomain<Z3Domain>);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_Z3_DOMAIN_H_
