// ConcreteScalars: the Bool and Int operations of a concrete value domain (value_domain.h), on
// plain C++ values, shared by the checker's ConcreteDomain and the statistics evaluator's
// LiteralOrder so that both evaluate kernels with the same arithmetic.
//
// Concern: IntT must hold every integer a kernel forms from its inputs (the kernels assume
// mathematical integers): the checker uses 128 bits for sums of row counts, the evaluator 64 bits
// for counts it only compares.
//
// Thread-safety: stateless.
#ifndef RLC_IMPL_KERNEL_CONCRETE_SCALARS_H_
#define RLC_IMPL_KERNEL_CONCRETE_SCALARS_H_

#include <cstdint>

namespace rlc::kernel {

template <typename IntT>
struct ConcreteScalars {
  using Bool = bool;
  using Int = IntT;

  Bool True() const { return true; }
  Bool False() const { return false; }
  Bool And(Bool a, Bool b) const { return a && b; }
  Bool Or(Bool a, Bool b) const { return a || b; }
  Bool Not(Bool a) const { return !a; }
  Bool Implies(Bool a, Bool b) const { return !a || b; }

  Int Const(int64_t v) const { return v; }
  Int Add(Int a, Int b) const { return a + b; }
  Int Sub(Int a, Int b) const { return a - b; }
  Bool Eq(Int a, Int b) const { return a == b; }
  Bool Lt(Int a, Int b) const { return a < b; }
  Bool Le(Int a, Int b) const { return a <= b; }
  Int Ite(Bool c, Int a, Int b) const { return c ? a : b; }
};

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_CONCRETE_SCALARS_H_
