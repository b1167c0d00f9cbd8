#include "impl/predicate/domain_evaluator.h"

#include <algorithm>
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
bool May(const ValueRef& a, const ValueRef& b, Test test) {
  std::optional<int> cmp = CompareValues(a, b);
  return !cmp.has_value() || test(*cmp);
}

kernel::ValueBounds<LiteralOrder> BoundsOf(const ColumnDomain& d) {
  // An absent bound's value is never read (the kernel tests has_lower / has_upper first).
  return {d.lower.has_value(), d.lower.value_or(ValueRef()), d.upper.has_value(),
          d.upper.value_or(ValueRef()), d.upper_is_prefix};
}

bool StartsWithUpper(const ColumnDomain& d, const ValueRef& x) {
  return d.upper.has_value() && x.kind == ValueRef::Kind::kString &&
         d.upper->kind == ValueRef::Kind::kString &&
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
[[gnu::always_inline]] inline std::pair<bool, bool> CompareNonNull(const ColumnDomain& d,
                                                                   CompareOp op,
                                                                   const ValueRef& x) {
  const kernel::LeafPossible<LiteralOrder> p = kernel::CompareWithLiteral(
      LiteralOrder{}, BoundsOf(d), LeafOpOf(op), x, StartsWithUpper(d, x));
  return {p.can_be_true, p.can_be_false};
}

bool MayBeEqual(const ColumnDomain& d, const ValueRef& x) {
  return CompareNonNull(d, CompareOp::kEq, x).first;
}
bool AllEqual(const ColumnDomain& d, const ValueRef& x) {
  return !CompareNonNull(d, CompareOp::kEq, x).second;
}

ColumnDomain LiteralDomain(const ValueRef& literal) {
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
  if (c.IsSingleValue() && c.lower->kind == ValueRef::Kind::kLong) {
    const int64_t v = k == -1 ? 0 : c.lower->int_value % k;
    d.lower = ValueRef::Long(v);
    d.upper = ValueRef::Long(v);
    return d;
  }
  const int64_t m = k == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max()
                                                             : (k < 0 ? -k : k) - 1;
  const ValueRef zero = ValueRef::Long(0);
  const bool non_negative = c.lower && !May(*c.lower, zero, [](int cmp) { return cmp < 0; });
  const bool non_positive = c.upper && !May(*c.upper, zero, [](int cmp) { return cmp > 0; });
  d.lower = ValueRef::Long(non_negative ? 0 : -m);
  d.upper = ValueRef::Long(non_positive ? 0 : m);
  return d;
}

using MayTake = kernel::MayTake<LiteralOrder>;

Possible FromKernel(const MayTake& m) { return {m.can_be_true, m.can_be_false, m.can_be_unknown}; }

// `l op r` over two domains. The leaf runs on single values only; between two ranges any answer
// is possible.
MayTake Compare(const ColumnDomain& l, CompareOp op, const ColumnDomain& r) {
  std::pair<bool, bool> tf{true, true};
  if (l.may_be_non_null && r.may_be_non_null) {
    if (r.IsSingleValue())
      tf = CompareNonNull(l, op, *r.lower);
    else if (l.IsSingleValue())
      tf = CompareNonNull(r, FlipCompareOp(op), *l.lower);
  }
  return kernel::Comparison(LiteralOrder{}, l.may_be_null, l.may_be_non_null, r.may_be_null,
                            r.may_be_non_null, tf.first, tf.second);
}

// Compare(l, op, LiteralDomain(x)) without building the literal's domain: the common shape
// (`column op literal`), judged for every file a read predicate meets.
[[gnu::always_inline]] inline MayTake CompareToLiteral(const ColumnDomain& l, CompareOp op,
                                                       const ValueRef& x) {
  // LiteralDomain(x) admits NULL alone or x alone, and is a single value when x is not NULL.
  const bool x_is_null = x.is_null();
  std::pair<bool, bool> tf{true, true};
  if (l.may_be_non_null && !x_is_null) tf = CompareNonNull(l, op, x);
  return kernel::Comparison(LiteralOrder{}, l.may_be_null, l.may_be_non_null, x_is_null, !x_is_null,
                            tf.first, tf.second);
}

MayTake In(const ColumnDomain& d, const std::vector<Literal>& list) {
  const LiteralOrder order;
  kernel::InListFold<LiteralOrder> fold = kernel::BeginInList(order);
  for (const Literal& item : list) {
    if (item.is_null()) {
      fold = kernel::StepInList(order, fold, {true, false, false});
      continue;
    }
    // The leaf's answers mean something only for a column that may hold a value.
    const bool values = d.may_be_non_null;
    fold = kernel::StepInList(order, fold,
                              {false, values && MayBeEqual(d, item), values && AllEqual(d, item)});
  }
  return kernel::FinishInList(order, fold, d.may_be_null, d.may_be_non_null);
}

// What a value standing as a condition is compared with (`flag` is `flag = TRUE`).
const Literal& True() {
  static const Literal kTrue = Literal::Bool(true);
  return kTrue;
}

// The index of the column at `path` in the table, added when absent.
uint32_t ColumnIndex(const BoundExpr& bound, const ColumnPath& path, ColumnTable* columns) {
  const ResolvedColumn& column = bound.column(path);
  for (size_t i = 0; i < columns->size(); ++i) {
    if ((*columns)[i]->logical_path == column.logical_path) return static_cast<uint32_t>(i);
  }
  columns->push_back(&column);
  return static_cast<uint32_t>(columns->size() - 1);
}

}  // namespace

DomainProgram::DomainProgram(const BoundExpr& bound, ColumnTable* columns) {
  Compile(bound, bound.expr(), columns);
  RLC_ASSERT(depth_ == 1);
}

void DomainProgram::Push(Step step, size_t pops) {
  RLC_ASSERT(depth_ >= pops);
  depth_ = depth_ - pops + 1;
  max_depth_ = std::max(max_depth_, depth_);
  steps_.push_back(step);
}

DomainProgram::Operand DomainProgram::OperandOf(const BoundExpr& bound, const Expr& e,
                                                ColumnTable* columns) {
  Operand o;
  if (e.kind == Expr::Kind::kLiteral) {
    o.literal = &e.literal;
    return o;
  }
  RLC_ASSERT(e.kind == Expr::Kind::kColumn || e.kind == Expr::Kind::kModulo);
  o.kind = e.kind == Expr::Kind::kColumn ? Operand::Kind::kColumn : Operand::Kind::kModulo;
  o.column = ColumnIndex(bound, e.column, columns);
  o.modulus = e.modulus;
  return o;
}

void DomainProgram::Compile(const BoundExpr& bound, const Expr& e, ColumnTable* columns) {
  using K = Expr::Kind;
  Step step;
  switch (e.kind) {
    case K::kColumn:
    case K::kLiteral:
    case K::kModulo:  // a value standing as a condition: `v = TRUE`
      step.left = OperandOf(bound, e, columns);
      step.right.literal = &True();
      return Push(step, 0);
    case K::kCompare:
      step.op = e.op;
      step.left = OperandOf(bound, e.children.at(0), columns);
      step.right = OperandOf(bound, e.children.at(1), columns);
      return Push(step, 0);
    case K::kIn:
      step.kind = Step::Kind::kIn;
      step.left = OperandOf(bound, e.children.at(0), columns);
      step.in = &e.in_list;
      return Push(step, 0);
    case K::kIsNull:
    case K::kIsNotNull:
      step.kind = Step::Kind::kNullTest;
      step.flag = e.kind == K::kIsNull;
      step.left = OperandOf(bound, e.children.at(0), columns);
      return Push(step, 0);
    case K::kNot:
      Compile(bound, e.children.at(0), columns);
      step.kind = Step::Kind::kNot;
      return Push(step, 1);
    case K::kAnd:
    case K::kOr:
      for (const Expr& child : e.children) Compile(bound, child, columns);
      step.kind = Step::Kind::kConnective;
      step.flag = e.kind == K::kAnd;
      step.children = static_cast<uint32_t>(e.children.size());
      return Push(step, e.children.size());
  }
  RLC_ASSERT(false);  // every kind is compiled above
}

namespace {

// An operand's domain, built: a literal's or a modulo's (a column's is read in place by the
// callers, which is the common case and builds nothing).
template <typename Operand>
ColumnDomain BuiltDomain(const Operand& o, std::span<const ColumnDomain> domains) {
  using K = typename Operand::Kind;
  if (o.kind == K::kLiteral) return LiteralDomain(*o.literal);
  RLC_ASSERT(o.kind == K::kModulo && o.column < domains.size());
  return ModuloDomain(domains[o.column], o.modulus);
}

// f(the operand's domain), without a copy of a column's.
template <typename Operand, typename F>
MayTake WithDomain(const Operand& o, std::span<const ColumnDomain> domains, const F& f) {
  if (o.kind == Operand::Kind::kColumn) {
    RLC_ASSERT(o.column < domains.size());
    return f(domains[o.column]);
  }
  return f(BuiltDomain(o, domains));
}

}  // namespace

MayTake DomainProgram::Leaf(const Step& step, std::span<const ColumnDomain> domains) const {
  switch (step.kind) {
    case Step::Kind::kCompare:
      if (step.right.kind == Operand::Kind::kLiteral) {
        return WithDomain(step.left, domains, [&](const ColumnDomain& l) {
          return CompareToLiteral(l, step.op, *step.right.literal);
        });
      }
      return WithDomain(step.left, domains, [&](const ColumnDomain& l) {
        return WithDomain(step.right, domains,
                          [&](const ColumnDomain& r) { return Compare(l, step.op, r); });
      });
    case Step::Kind::kIn:
      return WithDomain(step.left, domains, [&](const ColumnDomain& d) { return In(d, *step.in); });
    case Step::Kind::kNullTest:
      return WithDomain(step.left, domains, [&](const ColumnDomain& d) {
        return kernel::NullTest(LiteralOrder{}, d.may_be_null, d.may_be_non_null, step.flag);
      });
    default:
      RLC_ASSERT(false);  // not a leaf
      return MayTake{true, true, true};
  }
}

namespace {
// Whether `v op x` may be True for a live value v of the domain: CompareToLiteral with the whole
// leaf kernel inlined (flatten), so that the facts only its can_be_false needs are not computed.
[[gnu::flatten]] bool LiteralLeafMayBeTrue(const ColumnDomain& l, CompareOp op, const ValueRef& x) {
  return CompareToLiteral(l, op, x).can_be_true;
}
}  // namespace

bool DomainProgram::MayBeTrue(std::span<const ColumnDomain> domains) const {
  // `column op literal`, the common read predicate, judged in place: no stack of results, whose
  // entries are written byte by byte and read back whole (a stall on every file).
  if (steps_.size() == 1) {
    const Step& step = steps_.front();
    if (step.kind == Step::Kind::kCompare && step.left.kind == Operand::Kind::kColumn &&
        step.right.kind == Operand::Kind::kLiteral) {
      RLC_ASSERT(step.left.column < domains.size());
      return LiteralLeafMayBeTrue(domains[step.left.column], step.op, *step.right.literal);
    }
  }
  return Run(domains).can_be_true;
}

Possible DomainProgram::Run(std::span<const ColumnDomain> domains) const {
  // The stack of results: on the caller's stack unless the predicate is unusually wide.
  std::array<MayTake, 16> local;
  std::vector<MayTake> wide;
  MayTake* stack = local.data();
  if (max_depth_ > local.size()) {
    wide.resize(max_depth_);
    stack = wide.data();
  }
  size_t top = 0;
  for (const Step& step : steps_) {
    switch (step.kind) {
      case Step::Kind::kNot:
        stack[top - 1] = kernel::Negation(LiteralOrder{}, stack[top - 1]);
        break;
      case Step::Kind::kConnective:
        top -= step.children;
        stack[top] = kernel::Connective(
            LiteralOrder{}, std::span<const MayTake>(stack + top, step.children), step.flag);
        ++top;
        break;
      default:
        stack[top++] = Leaf(step, domains);
    }
  }
  RLC_ASSERT(top == 1);
  return FromKernel(stack[0]);
}

Possible EvaluateOverDomains(const BoundExpr& bound, const DomainLookup& domains) {
  ColumnTable columns;
  const DomainProgram program(bound, &columns);
  std::vector<ColumnDomain> of;
  of.reserve(columns.size());
  for (const ResolvedColumn* column : columns) of.push_back(domains(*column));
  return program.Run(of);
}

}  // namespace rlc::predicate
