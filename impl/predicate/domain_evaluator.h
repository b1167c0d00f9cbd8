// DomainProgram: which truth values a bound predicate may take on the live rows of a file, given
// a ColumnDomain (column_domain.h) for each column it names; EvaluateOverDomains runs one once.
//
// Concern: the sound core of the stats and partition evaluators. Each node yields three flags:
// may some live row make it True, False, Unknown (NULL)? Leaves read the domains (interval logic,
// with a string upper bound that may be a prefix); NOT swaps True and False and keeps Unknown;
// AND and OR combine their children's flags as if the children were independent, which can only
// add possibilities (Kleene: AND is True only if all are True, False if any is False, Unknown if
// none is False and some is Unknown; OR dually). Handling NOT by swapping is what makes
// `NOT (s = 'abc')` sound where a bare "may be true" flag would not be. Every rule is a kernel's
// (impl/kernel/stats_leaf.h, impl/kernel/truth_values.h); this file only walks the tree.
// The walk is compiled once (the tree in post-order, each column an index), because Case 1's
// statistics tier judges every add of a winner (a hundred thousand) with the same predicates:
// judging a file then allocates nothing and looks no column up by name.
//
// Thread-safety: a built program is immutable; Run may be called from any thread.
//
// Invariants (soundness):
//   1. If some row whose values lie in the domains makes the predicate True (row_evaluator.h),
//      the result has can_be_true; likewise for False and Unknown.
//   2. The program reads the domains of its columns only: those of bound.columns().
#ifndef RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_
#define RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "impl/kernel/truth_values.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/column_domain.h"
#include "impl/predicate/literal_order.h"

namespace rlc::predicate {

struct Possible {
  bool can_be_true = false;
  bool can_be_false = false;
  bool can_be_unknown = false;
  friend bool operator==(const Possible&, const Possible&) = default;
};

// The columns of one or more programs, each once (by logical path): a file's domains are built
// once for all of them, in this order.
using ColumnTable = std::vector<const ResolvedColumn*>;

class DomainProgram {
 public:
  // Compiles `bound`, adding the columns it names that `columns` lacks. The program views the
  // bound predicate (its literals) and the columns it resolves: both must outlive it.
  DomainProgram(const BoundExpr& bound, ColumnTable* columns);

  // REQUIRES: domains[i] is the domain of the table's i-th column, for every column of the
  // table the program was compiled with.
  Possible Run(std::span<const ColumnDomain> domains) const;
  // Run(domains).can_be_true, computed with less work for the common shapes.
  bool MayBeTrue(std::span<const ColumnDomain> domains) const;

 private:
  struct Operand {
    enum class Kind : uint8_t { kColumn, kLiteral, kModulo };
    Kind kind = Kind::kLiteral;
    uint32_t column = 0;               // kColumn, kModulo: an index into the table
    const Literal* literal = nullptr;  // kLiteral
    int64_t modulus = 0;               // kModulo
  };
  struct Step {
    enum class Kind : uint8_t { kCompare, kIn, kNullTest, kNot, kConnective };
    Kind kind = Kind::kCompare;
    CompareOp op = CompareOp::kEq;             // kCompare
    bool flag = false;                         // kNullTest: IS NULL; kConnective: AND
    Operand left, right;                       // right: kCompare only
    const std::vector<Literal>* in = nullptr;  // kIn
    uint32_t children = 0;                     // kConnective
  };

  using MayTake = kernel::MayTake<LiteralOrder>;
  MayTake Leaf(const Step& step, std::span<const ColumnDomain> domains) const;
  void Compile(const BoundExpr& bound, const Expr& e, ColumnTable* columns);
  Operand OperandOf(const BoundExpr& bound, const Expr& e, ColumnTable* columns);
  void Push(Step step, size_t pops);

  std::vector<Step> steps_;  // post-order: each leaf pushes a result, a combining step pops
  size_t depth_ = 0;         // results on the stack while compiling
  size_t max_depth_ = 0;     // the stack Run needs
};

using DomainLookup = std::function<ColumnDomain(const ResolvedColumn&)>;

// Compiles `bound` and runs it once, asking `domains` for each of its columns.
Possible EvaluateOverDomains(const BoundExpr& bound, const DomainLookup& domains);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_DOMAIN_EVALUATOR_H_
