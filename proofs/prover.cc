#include "proofs/prover.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace rlc::proofs {

namespace {

void SetTimeout(z3::solver& solver, unsigned timeout_ms) {
  z3::params params(solver.ctx());
  params.set("timeout", timeout_ms);
  // Z3's older simplex-based arithmetic solver: the remap claims' rank sums over 64 rows take
  // 6 s with it against 21 s with the default (4.8.12), two successive winners 20 s against
  // 103 s; the other claims answer in milliseconds either way.
  params.set("arith.solver", 2u);
  solver.set(params);
}

// The size of a counterexample, which shrinking minimises so the printed model keeps only what
// the failure needs: element j of an input set of universe n costs n + j (fewer members first,
// since two members cost more than any one, then smaller row numbers), an input integer x costs
// |x| (nearer 0).
z3::expr CounterexampleSize(z3::context& context, const std::vector<ShownValue>& inputs) {
  z3::expr size = context.int_val(0);
  const z3::expr zero = context.int_val(0);
  for (const ShownValue& input : inputs) {
    const int64_t n = static_cast<int64_t>(input.terms.size());
    for (int64_t j = 0; j < n; ++j) {
      const z3::expr& term = input.terms[j];
      if (input.kind == ShownKind::kSet) size = size + z3::ite(term, context.int_val(n + j), zero);
      if (input.kind == ShownKind::kInt) size = size + z3::ite(term < 0, -term, term);
    }
  }
  return size;
}

// Every input set's members lie below `limit`, every input integer within [-2 limit, 2 limit].
// A counterexample under it is one without it, so it only narrows where the search looks.
z3::expr WithinRowLimit(z3::context& context, const std::vector<ShownValue>& inputs, int limit) {
  z3::expr within = context.bool_val(true);
  for (const ShownValue& input : inputs) {
    for (size_t j = 0; j < input.terms.size(); ++j) {
      const z3::expr& term = input.terms[j];
      if (input.kind == ShownKind::kSet && static_cast<int>(j) >= limit) within = within && !term;
      if (input.kind == ShownKind::kInt) within = within && -2 * limit <= term && term <= 2 * limit;
    }
  }
  return within;
}

// REQUIRES: the solver's last check() answered sat. Returns the smallest model found: first under
// the smallest row limit that admits one (the limit stays asserted), then by binary search on the
// size, each round asking for a model no bigger than the midpoint.
z3::model Shrink(z3::solver& solver, const std::vector<ShownValue>& inputs) {
  z3::model model = solver.get_model();
  const z3::expr size = CounterexampleSize(solver.ctx(), inputs);
  SetTimeout(solver, kShrinkRoundTimeoutMs);
  for (int limit : kShrinkRowLimits) {
    solver.push();
    solver.add(WithinRowLimit(solver.ctx(), inputs, limit));
    if (solver.check() == z3::sat) {
      model = solver.get_model();
      break;  // keep the limit for the search below
    }
    solver.pop();
  }
  int64_t low = 0;  // no model smaller than this exists (sizes are >= 0)
  int64_t high = model.eval(size, true).get_numeral_int64();  // a model of this size exists
  for (int round = 0; round < kShrinkRoundsMax && low < high; ++round) {
    const int64_t middle = low + (high - low) / 2;
    solver.push();
    solver.add(size <= solver.ctx().int_val(middle));
    const z3::check_result answer = solver.check();
    if (answer == z3::sat) {
      model = solver.get_model();
      high = model.eval(size, true).get_numeral_int64();
    }
    solver.pop();
    if (answer == z3::unknown) break;  // keep the best model so far
    if (answer == z3::unsat) low = middle + 1;
  }
  return model;
}

}  // namespace

ProofResult Check(const Obligation& obligation, unsigned timeout_ms) {
  ProofResult result;
  result.name = obligation.name;
  try {
    z3::solver solver(obligation.claim.ctx());
    SetTimeout(solver, timeout_ms);
    solver.add(!obligation.claim);
    const auto start = std::chrono::steady_clock::now();
    const z3::check_result answer = solver.check();
    result.solver_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (answer == z3::unsat) {
      result.verdict = Verdict::kProved;
    } else if (answer == z3::sat) {
      result.verdict = Verdict::kRefuted;
      result.decoded = DecodeCounterexample(Shrink(solver, obligation.inputs), obligation.inputs,
                                            obligation.kernel_values);
      result.counterexample = PrintCounterexample(result.decoded);
    } else {
      result.verdict = Verdict::kUnknown;
      result.reason = solver.reason_unknown();
    }
  } catch (const z3::exception& error) {
    // Z3 reports misuse (a sort mismatch, a term from another context) by exception; it is an
    // outcome to report, not a proof.
    result.verdict = Verdict::kUnknown;
    result.counterexample.clear();
    result.reason = std::string("z3 error: ") + error.msg();
  }
  result.proved = result.verdict == Verdict::kProved;
  return result;
}

bool MetExpectation(const Obligation& obligation, const ProofResult& result) {
  switch (obligation.expectation) {
    case Expectation::kValid:
      return result.verdict == Verdict::kProved;
    case Expectation::kRefutable:
      return result.verdict == Verdict::kRefuted && !result.counterexample.empty();
  }
  return false;
}

std::string Describe(const ProofResult& result) {
  char time[32];
  std::snprintf(time, sizeof time, "%.1f ms", result.solver_ms);
  switch (result.verdict) {
    case Verdict::kProved:
      return result.name + ": proved in " + time + "\n";
    case Verdict::kRefuted:
      return result.name + ": refuted in " + time + "\n" + result.counterexample;
    case Verdict::kUnknown:
      return result.name + ": unknown after " + time + " (" + result.reason + ")\n";
  }
  return result.name + ": ?\n";
}

}  // namespace rlc::proofs
