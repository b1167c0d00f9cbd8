#include "impl/predicate/domain_evaluator.h"

#include <array>
#include <limits>

#include "impl/base/assert.h"
#include "impl/kernel/stats_leaf.h"
#include "impl/kernel/truth_values.h"
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
  return d.upper.has_value() && x.kind == Literal::Kind::kString &&
         d.upper->kind == Literal::Kind::kString &&
         x.string_value.starts_with(d.upper->string_value);
}

kernel::LeafOp LeafOpOf(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return kernel::LeafOp::kEq;
    case CompareOp::kNe:
      return kernel::LeafOp::kNe;
    case CompareOp::kLt:
      return kernel::LeafOp::kLt;
    case CompareOp::kLe:
      return kernel::LeafOp::kLe;
    case CompareOp::kGt:
      return kernel::LeafOp::kGt;
    case CompareOp::kGe:
      return kernel::LeafOp::kGe;
  }
  RLC_ASSERT(false);  // every CompareOp is mapped above
  return kernel::LeafOp::kEq;
}

// {can be true, can be false} of `v op x` over the domain's non-NULL values v.
std::pair<bool, bool> CompareNonNull(const ColumnDomain& d, CompareOp op, const Literal& x) {
  const kernel::LeafPossible<LiteralOrder> p = kernel::CompareWithLiteral(
      LiteralOrder{}, BoundsOf(d), LeafOpOf(op), x, StartsWithUpper(d, x));
  return {p.can_be_true, p.can_be_false};
}

bool MayBeEqual(const ColumnDomain& d, const Literal& x) {
  return CompareNonNull(d, CompareOp::kEq, x).first;
}
bool AllEqual(const ColumnDomain& d, const Literal& x) {
  return !CompareNonNull(d, CompareOp::kEq, x).second;
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

using MayTake = kernel::MayTake<LiteralOrder>;

Possible FromKernel(const MayTake& m) { return {m.can_be_true, m.can_be_false, m.can_be_unknown}; }
MayTake ToKernel(const Possible& p) { return {p.can_be_true, p.can_be_false, p.can_be_unknown}; }

class DomainEval {
 public:
  DomainEval(const BoundExpr& bound, const DomainLookup& lookup) : bound_(bound), lookup_(lookup) {}

  Possible Condition(const Expr& e);

 private:
  // The column's domain. The reference is used before the next call (Operand copies it).
  const ColumnDomain& Column(const ColumnPath& path) {
    for (size_t i = 0; i < cached_; ++i) {
      if (*cache_[i].first == path) return cache_[i].second;
    }
    if (cached_ == cache_.size()) return uncached_ = lookup_(bound_.column(path));
    cache_[cached_] = {&path, lookup_(bound_.column(path))};
    return cache_[cached_++].second;
  }
  ColumnDomain Operand(const Expr& e) {
    if (e.kind == Expr::Kind::kLiteral) return LiteralDomain(e.literal);
    if (e.kind == Expr::Kind::kModulo) return ModuloDomain(Column(e.column), e.modulus);
    RLC_ASSERT(e.kind == Expr::Kind::kColumn);
    return Column(e.column);
  }
  Possible Compare(const ColumnDomain& l, CompareOp op, const ColumnDomain& r);
  // Compare(l, op, LiteralDomain(x)) without building the literal's domain: the common shape
  // (`column op literal`), judged for every file a read predicate meets.
  Possible CompareToLiteral(const ColumnDomain& l, CompareOp op, const Literal& x);
  Possible In(const Expr& e);

  const BoundExpr& bound_;
  const DomainLookup& lookup_;
  // Each column's domain, asked once per evaluation: a predicate names few columns, so a small
  // array (no allocation per column, as a map's nodes were, for every file of every winner);
  // columns beyond it are asked each time they are met.
  std::array<std::pair<const ColumnPath*, ColumnDomain>, 4> cache_;
  size_t cached_ = 0;
  ColumnDomain uncached_;
};

Possible DomainEval::Compare(const ColumnDomain& l, CompareOp op, const ColumnDomain& r) {
  // The leaf runs on single values only; between two ranges any answer is possible.
  std::pair<bool, bool> tf{true, true};
  if (l.may_be_non_null && r.may_be_non_null) {
    if (r.IsSingleValue())
      tf = CompareNonNull(l, op, *r.lower);
    else if (l.IsSingleValue())
      tf = CompareNonNull(r, FlipCompareOp(op), *l.lower);
  }
  return FromKernel(kernel::Comparison(LiteralOrder{}, l.may_be_null, l.may_be_non_null,
                                       r.may_be_null, r.may_be_non_null, tf.first, tf.second));
}

Possible DomainEval::CompareToLiteral(const ColumnDomain& l, CompareOp op, const Literal& x) {
  // LiteralDomain(x) admits NULL alone or x alone, and is a single value when x is not NULL.
  const bool x_is_null = x.is_null();
  std::pair<bool, bool> tf{true, true};
  if (l.may_be_non_null && !x_is_null) tf = CompareNonNull(l, op, x);
  return FromKernel(kernel::Comparison(LiteralOrder{}, l.may_be_null, l.may_be_non_null, x_is_null,
                                       !x_is_null, tf.first, tf.second));
}

Possible DomainEval::In(const Expr& e) {
  const ColumnDomain d = Operand(e.children.at(0));
  std::vector<kernel::InListItem<LiteralOrder>> items;
  items.reserve(e.in_list.size());
  for (const Literal& item : e.in_list) {
    if (item.is_null()) {
      items.push_back({true, false, false});
      continue;
    }
    // The leaf's answers mean something only for a column that may hold a value.
    const bool values = d.may_be_non_null;
    items.push_back({false, values && MayBeEqual(d, item), values && AllEqual(d, item)});
  }
  return FromKernel(kernel::InList(LiteralOrder{}, items, d.may_be_null, d.may_be_non_null));
}

Possible DomainEval::Condition(const Expr& e) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::kColumn:
    case K::kLiteral:
    case K::kModulo:
      return Compare(Operand(e), CompareOp::kEq, LiteralDomain(Literal::Bool(true)));
    case K::kCompare: {
      const Expr& left = e.children.at(0);
      const Expr& right = e.children.at(1);
      if (left.kind == K::kColumn && right.kind == K::kLiteral)
        return CompareToLiteral(Column(left.column), e.op, right.literal);
      return Compare(Operand(left), e.op, Operand(right));
    }
    case K::kIn:
      return In(e);
    case K::kIsNull:
    case K::kIsNotNull: {
      const ColumnDomain d = Operand(e.children.at(0));
      return FromKernel(
          kernel::NullTest(LiteralOrder{}, d.may_be_null, d.may_be_non_null, e.kind == K::kIsNull));
    }
    case K::kNot:
      return FromKernel(kernel::Negation(LiteralOrder{}, ToKernel(Condition(e.children.at(0)))));
    case K::kAnd:
    case K::kOr: {
      std::vector<MayTake> children;
      children.reserve(e.children.size());
      for (const Expr& child : e.children) children.push_back(ToKernel(Condition(child)));
      return FromKernel(kernel::Connective(LiteralOrder{}, children, e.kind == K::kAnd));
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
