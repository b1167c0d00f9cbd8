// Obligation: one claim about a shipped kernel, as data the prover checks (Alive2 names every
// query; docs/style.md#proof-results).
//
// Concern: what is claimed and what a failure should show, not how it is solved (prover.h).
// `claim` is a closed Z3 formula over fresh inputs; the prover asserts its negation:
//   - Expectation::kValid: the claim must hold for every input (negation unsat). These are the
//     proofs.
//   - Expectation::kRefutable: the claim must have a counterexample (negation sat). These keep
//     the proofs honest: a guard-less variant must fail, and a premise must be satisfiable, so an
//     encoding that makes everything vacuously true cannot pass.
// `inputs` and `kernel_values` are what a counterexample shows; `statement` says the claim in
// words, with its bound (the universe size).
//
// Thread-safety: a plain value; its terms belong to one z3::context.
#ifndef RLC_PROOFS_OBLIGATION_H_
#define RLC_PROOFS_OBLIGATION_H_

#include <z3++.h>

#include <string>
#include <vector>

#include "proofs/counterexample.h"

namespace rlc::proofs {

enum class Expectation { kValid, kRefutable };

struct Obligation {
  std::string name;       // e.g. "case2.merged_is_serial"
  std::string statement;  // the claim in words, with its bound
  Expectation expectation;
  z3::expr claim;
  std::vector<ShownValue> inputs;
  std::vector<ShownValue> kernel_values;
};

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_OBLIGATION_H_
