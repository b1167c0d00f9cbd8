#include "impl/predicate/domain_evaluator.h"

#include <limits>
#include <map>

#include "impl/base/mutants.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {
namespace {

// Whether cmp(a, b) may satisfy `test`; values the order cannot compare count as "may".
template <typename Test>
bool May(const Literal& a, const Literal& b, Test test) {
  std::optional<int> cmp = CompareValues(a, b);
  return !cmp.has_value() || test(*cmp);
}

bool StartsWithUpper(const ColumnDomain& d, const Literal& x) {
  return d.upper_is_prefix && x.kind == Literal::Kind::kString &&
         d.upper->kind == Literal::Kind::kString &&
         x.string_value.starts_with(d.upper->string_value);
}

// Questions about the non-NULL values a domain admits. With a prefix upper bound U the admitted
// strings are those <= U and those starting with U: x is below some of them iff x < U or x starts
// with U, and x is above all of them iff neither holds.
bool MayBeBelow(const ColumnDomain& d, const Literal& x) {  // some v < x
  return !d.lower || May(*d.lower, x, [](int c) { return c < 0; });
}
bool MayBeAtMost(const ColumnDomain& d, const Literal& x) {  // some v <= x
  return !d.lower || May(*d.lower, x, [](int c) { return c <= 0; });
}
bool MayBeAbove(const ColumnDomain& d, const Literal& x) {  // some v > x
  return !d.upper || May(*d.upper, x, [](int c) { return c > 0; }) || StartsWithUpper(d, x);
}
bool MayBeAtLeast(const ColumnDomain& d, const Literal& x) {  // some v >= x
  if (RLC_MUTANT(kDataSkippingGeOffByOne)) return !d.upper || May(*d.upper, x, [](int c) { return c > 0; });
  return !d.upper || May(*d.upper, x, [](int c) { return c >= 0; }) || StartsWithUpper(d, x);
}
bool MayBeEqual(const ColumnDomain& d, const Literal& x) {
  return MayBeAtMost(d, x) && MayBeAtLeast(d, x);
}
bool AllEqual(const ColumnDomain& d, const Literal& x) {
  if (!d.IsSingleValue()) return false;
  std::optional<int> cmp = CompareValues(*d.lower, x);
  return cmp.has_value() && *cmp == 0;
}

// {can be true, can be false} of `v op x` over the domain's non-NULL values v.
std::pair<bool, bool> CompareNonNull(const ColumnDomain& d, CompareOp op, const Literal& x) {
  switch (op) {
    case CompareOp::kEq:
      return {MayBeEqual(d, x), !AllEqual(d, x)};
    case CompareOp::kNe:
      return {!AllEqual(d, x), MayBeEqual(d, x)};
    case CompareOp::kLt:
      return {MayBeBelow(d, x), MayBeAtLeast(d, x)};
    case CompareOp::kLe:
      return {MayBeAtMost(d, x), MayBeAbove(d, x)};
    case CompareOp::kGt:
      return {MayBeAbove(d, x), MayBeAtMost(d, x)};
    case CompareOp::kGe:
      return {MayBeAtLeast(d, x), MayBeBelow(d, x)};
  }
  return {true, true};
}

ColumnDomain LiteralDomain(const Literal& literal) {
  ColumnDomain d;
  if (literal.is_null()) {
    d.may_be_non_null = false;
    return d;
  }
  d.may_be_null = false;
  d.lower = literal;
  d.upper = literal;
  return d;
}

// The domain of `c % k` from c's: |c % k| < |k|, with the sign of c.
ColumnDomain ModuloDomain(const ColumnDomain& c, int64_t k) {
  ColumnDomain d;
  d.may_be_null = c.may_be_null;
  d.may_be_non_null = c.may_be_non_null;
  if (c.IsSingleValue() && c.lower->kind == Literal::Kind::kLong) {
    const int64_t v = k == -1 ? 0 : c.lower->int_value % k;
    d.lower = Literal::Long(v);
    d.upper = Literal::Long(v);
    return d;
  }
  const int64_t m = k == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max()
                                                             : (k < 0 ? -k : k) - 1;
  const Literal zero = Literal::Long(0);
  const bool non_negative = c.lower && !May(*c.lower, zero, [](int cmp) { return cmp < 0; });
  const bool non_positive = c.upper && !May(*c.upper, zero, [](int cmp) { return cmp > 0; });
  d.lower = Literal::Long(non_negative ? 0 : -m);
  d.upper = Literal::Long(non_positive ? 0 : m);
  return d;
}

Possible Combine(const std::vector<Possible>& children, bool is_and) {
  // AND: True iff all True; False if any False; Unknown if none False and some Unknown.
  // OR is the dual (swap True and False).
  bool all_primary = true, any_secondary = false, any_unknown = false, all_no_secondary = true;
  for (const Possible& c : children) {
    const bool primary = is_and ? c.can_be_true : c.can_be_false;
    const bool secondary = is_and ? c.can_be_false : c.can_be_true;
    all_primary = all_primary && primary;
    any_secondary = any_secondary || secondary;
    any_unknown = any_unknown || c.can_be_unknown;
    all_no_secondary = all_no_secondary && (primary || c.can_be_unknown);
  }
  Possible p;
  p.can_be_unknown = any_unknown && all_no_secondary;
  (is_and ? p.can_be_true : p.can_be_false) = all_primary;
  (is_and ? p.can_be_false : p.can_be_true) = any_secondary;
  return p;
}

class DomainEval {
 public:
  DomainEval(const BoundExpr& bound, const DomainLookup& lookup) : bound_(bound), lookup_(lookup) {}

  Possible Condition(const Expr& e);

 private:
  const ColumnDomain& Column(const ColumnPath& path) {
    auto it = cache_.find(path);
    if (it == cache_.end()) it = cache_.emplace(path, lookup_(bound_.column(path))).first;
    return it->second;
  }
  ColumnDomain Operand(const Expr& e) {
    if (e.kind == Expr::Kind::kLiteral) return LiteralDomain(e.literal);
    if (e.kind == Expr::Kind::kModulo) return ModuloDomain(Column(e.column), e.modulus);
    RLC_ASSERT(e.kind == Expr::Kind::kColumn);
    return Column(e.column);
  }
  Possible Compare(const ColumnDomain& l, CompareOp op, const ColumnDomain& r);
  Possible In(const Expr& e);

  const BoundExpr& bound_;
  const DomainLookup& lookup_;
  std::map<ColumnPath, ColumnDomain> cache_;
};

Possible DomainEval::Compare(const ColumnDomain& l, CompareOp op, const ColumnDomain& r) {
  Possible p;
  p.can_be_unknown = l.may_be_null || r.may_be_null;
  if (!l.may_be_non_null || !r.may_be_non_null) return p;
  std::pair<bool, bool> tf{true, true};
  if (r.IsSingleValue())
    tf = CompareNonNull(l, op, *r.lower);
  else if (l.IsSingleValue())
    tf = CompareNonNull(r, FlipCompareOp(op), *l.lower);
  p.can_be_true = tf.first;
  p.can_be_false = tf.second;
  return p;
}

Possible DomainEval::In(const Expr& e) {
  const ColumnDomain d = Operand(e.children.at(0));
  Possible p;
  p.can_be_unknown = d.may_be_null;
  if (!d.may_be_non_null) return p;
  bool has_null = false, some_all_equal = false;
  for (const Literal& item : e.in_list) {
    if (item.is_null()) {
      has_null = true;
      continue;
    }
    p.can_be_true = p.can_be_true || MayBeEqual(d, item);
    some_all_equal = some_all_equal || AllEqual(d, item);
  }
  // A value equal to no item is False, or Unknown when the list holds a NULL.
  p.can_be_false = !has_null && !some_all_equal;
  p.can_be_unknown = p.can_be_unknown || (has_null && !some_all_equal);
  return p;
}

Possible DomainEval::Condition(const Expr& e) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::kColumn:
    case K::kLiteral:
    case K::kModulo:
      return Compare(Operand(e), CompareOp::kEq, LiteralDomain(Literal::Bool(true)));
    case K::kCompare:
      return Compare(Operand(e.children.at(0)), e.op, Operand(e.children.at(1)));
    case K::kIn:
      return In(e);
    case K::kIsNull:
    case K::kIsNotNull: {
      const ColumnDomain d = Operand(e.children.at(0));
      const bool is_null = e.kind == K::kIsNull;
      if (RLC_MUTANT(kDataSkippingNullsIgnored) && is_null) return Possible{false, true, false};
      return Possible{is_null ? d.may_be_null : d.may_be_non_null,
                      is_null ? d.may_be_non_null : d.may_be_null, false};
    }
    case K::kNot: {
      const Possible c = Condition(e.children.at(0));
      return Possible{c.can_be_false, c.can_be_true, c.can_be_unknown};
    }
    case K::kAnd:
    case K::kOr: {
      std::vector<Possible> children;
      children.reserve(e.children.size());
      for (const Expr& child : e.children) children.push_back(Condition(child));
      if (RLC_MUTANT(kDataSkippingOrFirstDisjunct) && e.kind == K::kOr) children.resize(1);
      return Combine(children, e.kind == K::kAnd);
    }
  }
  return Possible{true, true, true};
}

}  // namespace

Possible EvaluateOverDomains(const BoundExpr& bound, const DomainLookup& domains) {
  DomainEval eval(bound, domains);
  return eval.Condition(bound.expr());
}

}  // namespace rlc::predicate
