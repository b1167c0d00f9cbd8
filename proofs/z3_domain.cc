#include "proofs/z3_domain.h"

#include "impl/base/assert.h"

namespace rlc::proofs {

namespace {

// Sum of 0/1 terms, left to right; 0 for none. Z3's n-ary add needs at least one argument.
z3::expr SumOfIndicators(z3::context& context, const std::vector<z3::expr>& conditions) {
  z3::expr sum = context.int_val(0);
  for (const z3::expr& condition : conditions) {
    sum = sum + z3::ite(condition, context.int_val(1), context.int_val(0));
  }
  return sum;
}

}  // namespace

Z3Domain::Z3Domain(z3::context& context, int universe) : context_(&context), universe_(universe) {
  RLC_ASSERT(universe >= 0);
}

void Z3Domain::CheckUniverse(const Set& s) const {
  RLC_ASSERT(!s.array && static_cast<int>(s.members.size()) == universe_);
}

Z3Domain::Bool Z3Domain::True() const { return context_->bool_val(true); }
Z3Domain::Bool Z3Domain::False() const { return context_->bool_val(false); }
Z3Domain::Int Z3Domain::Const(int64_t v) const { return context_->int_val(v); }

Z3Domain::Set Z3Domain::EmptySet() const {
  return Set{std::vector<z3::expr>(universe_, False()), std::nullopt};
}

Z3Domain::Set Z3Domain::FreshUnboundedSet(const std::string& name) const {
  return Set{{},
             context_->constant(name.c_str(),
                                context_->array_sort(context_->int_sort(), context_->bool_sort()))};
}

Z3Domain::Set Z3Domain::EmptyUnboundedSet() const {
  return Set{{}, z3::const_array(context_->int_sort(), False())};
}

Z3Domain::Set Z3Domain::Insert(const Set& s, const Int& x) const {
  Set result = s;
  InsertWhen(result, x, True());
  return result;
}

void Z3Domain::InsertWhen(Set& s, const Int& x, const Bool& when) const {
  if (s.array) {
    s.array = z3::store(*s.array, x, z3::select(*s.array, x) || when);
    return;
  }
  CheckUniverse(s);
  // An x outside [0, universe) matches no j: nothing is inserted (see the header).
  for (int j = 0; j < universe_; ++j) s.members[j] = s.members[j] || (when && x == Const(j));
}

Z3Domain::Bool Z3Domain::Contains(const Set& s, const Int& x) const {
  if (s.array) return z3::select(*s.array, x);
  CheckUniverse(s);
  z3::expr any = False();
  for (int j = 0; j < universe_; ++j) any = any || (s.members[j] && x == Const(j));
  return any;
}

Z3Domain::Set Z3Domain::Union(const Set& s, const Set& t) const {
  CheckUniverse(s);
  CheckUniverse(t);
  Set result = s;
  for (int j = 0; j < universe_; ++j) result.members[j] = s.members[j] || t.members[j];
  return result;
}

Z3Domain::Set Z3Domain::Intersect(const Set& s, const Set& t) const {
  CheckUniverse(s);
  CheckUniverse(t);
  Set result = s;
  for (int j = 0; j < universe_; ++j) result.members[j] = s.members[j] && t.members[j];
  return result;
}

Z3Domain::Set Z3Domain::Difference(const Set& s, const Set& t) const {
  CheckUniverse(s);
  CheckUniverse(t);
  Set result = s;
  for (int j = 0; j < universe_; ++j) result.members[j] = s.members[j] && !t.members[j];
  return result;
}

Z3Domain::Int Z3Domain::Cardinality(const Set& s) const {
  CheckUniverse(s);
  return SumOfIndicators(*context_, s.members);
}

Z3Domain::Int Z3Domain::Rank(const Set& s, const Int& below) const {
  CheckUniverse(s);
  std::vector<z3::expr> counted;
  counted.reserve(s.members.size());
  for (int j = 0; j < universe_; ++j) counted.push_back(s.members[j] && Const(j) < below);
  return SumOfIndicators(*context_, counted);
}

Z3Domain::Bool Z3Domain::IsEmpty(const Set& s) const {
  if (s.array) return *s.array == z3::const_array(context_->int_sort(), False());
  CheckUniverse(s);
  z3::expr none = True();
  for (const z3::expr& member : s.members) none = none && !member;
  return none;
}

Z3Domain::Bool Z3Domain::IsSubset(const Set& s, const Set& t) const {
  CheckUniverse(s);
  CheckUniverse(t);
  z3::expr within = True();
  for (int j = 0; j < universe_; ++j) within = within && z3::implies(s.members[j], t.members[j]);
  return within;
}

Z3Domain::Set Z3Domain::IteSet(const Bool& c, const Set& s, const Set& t) const {
  if (s.array || t.array) {
    RLC_ASSERT(s.array && t.array);
    return Set{{}, z3::ite(c, *s.array, *t.array)};
  }
  CheckUniverse(s);
  CheckUniverse(t);
  Set result = s;
  for (int j = 0; j < universe_; ++j) result.members[j] = z3::ite(c, s.members[j], t.members[j]);
  return result;
}

Z3Domain::Set Z3Domain::FreshSet(const std::string& name) const {
  Set result = EmptySet();
  for (int j = 0; j < universe_; ++j) {
    result.members[j] = context_->bool_const((name + "[" + std::to_string(j) + "]").c_str());
  }
  return result;
}

Z3Domain::Int Z3Domain::FreshInt(const std::string& name) const {
  return context_->int_const(name.c_str());
}

Z3Domain::Bool Z3Domain::SetEq(const Set& s, const Set& t) const {
  if (s.array || t.array) {
    RLC_ASSERT(s.array && t.array);
    return *s.array == *t.array;  // extensional
  }
  CheckUniverse(s);
  CheckUniverse(t);
  z3::expr same = True();
  for (int j = 0; j < universe_; ++j) same = same && s.members[j] == t.members[j];
  return same;
}

}  // namespace rlc::proofs
