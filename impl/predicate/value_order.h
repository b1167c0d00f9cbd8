// The order of non-null values within one category, shared by the row and stats evaluators.
//
// Concern: one comparison so both evaluators agree. Numeric values compare by exact value (a
// long against a double is exact even past 2^53); NaN equals NaN and is above every other number,
// and -0.0 equals 0.0 (Spark's ordering). Strings compare as unsigned bytes (UTF-8 code point
// order, as Spark). FALSE < TRUE. Dates and timestamps compare by their integers.
//
// Thread-safety: stateless functions.
//
// Invariants:
//   1. CompareValues is a total order on the non-null values of one category: antisymmetric,
//      transitive, and it returns nullopt exactly when either side is NULL or the categories
//      differ.
#ifndef RLC_IMPL_PREDICATE_VALUE_ORDER_H_
#define RLC_IMPL_PREDICATE_VALUE_ORDER_H_

#include <optional>

#include "impl/predicate/ast.h"

namespace rlc::predicate {

// -1, 0 or 1; nullopt when either side is NULL or the two are of different categories.
std::optional<int> CompareValues(const Literal& a, const Literal& b);

// Whether `cmp` (a CompareValues result) satisfies op.
bool Satisfies(int cmp, CompareOp op);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_VALUE_ORDER_H_
