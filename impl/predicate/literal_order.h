// LiteralOrder: the production instantiation of the kernels' ValueOrder
// (impl/kernel/value_domain.h) for the statistics evaluator: booleans, 64-bit counts and values
// (value_order.h's ValueRef: literals, statistics, partition values), so that its leaf decisions
// run the kernel text proofs/ checks (impl/kernel/stats_leaf.h).
//
// Concern: ValueLe is CompareValues (value_order.h) <= 0, and false for values it cannot compare
// (NULL, different categories), as the kernel expects: value_order.h's ValueAtMost. Counts are
// row counts read from statistics; the kernel only compares them and adds nothing, so 64 bits
// cannot overflow.
//
// Thread-safety: stateless.
#ifndef RLC_IMPL_PREDICATE_LITERAL_ORDER_H_
#define RLC_IMPL_PREDICATE_LITERAL_ORDER_H_

#include <cstdint>
#include <optional>

#include "impl/kernel/concrete_scalars.h"
#include "impl/kernel/value_domain.h"
#include "impl/predicate/ast.h"
#include "impl/predicate/value_order.h"

namespace rlc::predicate {

struct LiteralOrder : kernel::ConcreteScalars<int64_t> {
  using Value = ValueRef;  // a literal, a statistic or a partition value, viewed

  [[gnu::always_inline]] Bool ValueLe(const Value& a, const Value& b) const {
    return ValueAtMost(a, b);
  }
};

static_assert(kernel::ValueOrder<LiteralOrder>);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_LITERAL_ORDER_H_
