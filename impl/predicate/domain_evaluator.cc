#include "impl/predicate/domain_evaluator.h"

#include <limits>
#include <map>

#include "impl/base/assert.h"
#include "impl/base/mutants.h"
#include "impl/kernel/stats_leaf.h"
#include "impl/predicate/literal_order.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {
namespace {

// Whether cmp(a, b) may satisfy `test`; values the order cannot compare count as "may".
template <typename Test>
bool May(const Literal& a, const Literal& b, Test test) {
  std::optional<int> cmp = CompareValues(a, b);
  return !cmp.has_value() || test(*cmp);
}

kernel::ValueBounds<LiteralOrder> BoundsOf(const ColumnDomain& d) {
  // An absent bound's value is never read (the kernel tests has_lower / has_upper first).
  return {d.lower.has_value(), d.lower.value_or(Literal::Null()), d.upper.has_value(),
          d.upper.value_or(Literal::Null()), d.upper_is_prefix};
}

bool StartsWithUpper(const ColumnDomain& d, const Literal& x) {
  return d.upper.has_value() && x.kind == Literal::Kind::kString && d.upper->kind == Literal::Kind::kString &&
         x.string_value.starts_with(d.upper->string_value);
}

kernel::LeafOp LeafOpOf(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return kernel::LeafOp::kEq;
    case CompareOp::kNe: return kernel::LeafOp::kNe;
    case CompareOp::kLt: return kernel::LeafOp::kLt;
    case CompareOp::kLe: return kernel::LeafOp::kLe;
    case CompareOp::kGt: return kernel::LeafOp::kGt;
    case CompareOp::kGe: return kernel::LeafOp::kGe;
  }
  RLC_ASSERT(false);  // every CompareOp is mapped above
  return kernel::LeafOp::kEq;
}

// {can be true, can be false} of `v op x` over the domain's non-NULL values v.
std::pair<bool, bool> CompareNonNull(const ColumnDomain& d, CompareOp op, const Literal& x) {
  const kernel::LeafPossible<LiteralOrder> p =
      kernel::CompareWithLiteral(LiteralOrder{}, BoundsOf(d), LeafOpOf(op), x, StartsWithUpper(d, x));
  return {p.can_be_true, p.can_be_false};
}

bool MayBeEqual(const ColumnDomain& d, const Literal& x) { return CompareNonNull(d, CompareOp::kEq, x).first; }
bool AllEqual(const ColumnDomain& d, const Literal& x) { return !CompareNonNull(d, CompareOp::kEq, x).second; }

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
