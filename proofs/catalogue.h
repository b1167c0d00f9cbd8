// The obligations as a catalogue a command can run without seeing Z3: names, results, bounds,
// times and decoded counterexamples as plain strings (cli/ must not include Z3).
//
// Concern: running every registered obligation (obligations.h) and classifying each result:
//   proved          a claim over every integer (no row bound) holds
//   bounded-proved  a claim over a bounded universe of rows holds; `bound` says which
//   refuted         a claim that must hold has a counterexample (a bug: `counterexample` shows it)
//   expected-refutation  a companion that must fail does (a guard-less variant, or a premise
//                   shown satisfiable so that its proof is not vacuous)
//   vacuous         a companion that must fail holds: the premise it checks is unsatisfiable
//   unknown         the solver gave up (timeout)
// `ok` is true for proved, bounded-proved and expected-refutation.
//
// Thread-safety: each obligation runs in its own z3::context, on the caller's thread or the
// workers ProveObligations starts; one call at a time.
#ifndef RLC_PROOFS_CATALOGUE_H_
#define RLC_PROOFS_CATALOGUE_H_

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace rlc::proofs {

struct ObligationOutcome {
  std::string name;       // "case2.merged_is_serial"
  std::string statement;  // the claim in words, with its bound
  std::string result;     // proved, bounded-proved, refuted, expected-refutation, vacuous, unknown
  std::string bound;      // "unbounded", "rows 0..63", "source rows 0..63, every output row", ...
  std::string counterexample;
  // The counterexample decoded (counterexample.h), as (name, printed value): the inputs, then
  // what the kernel computed from them. Empty unless refuted.
  std::vector<std::pair<std::string, std::string>> inputs, kernel_values;
  double solver_ms = 0;
  bool ok = false;
  // False when the deadline came first: the obligation never started, or the solver was stopped
  // by it (result "not-run"; neither a proof nor a finding).
  bool ran = true;
};

// Every obligation whose name starts with `name_prefix` (empty: all), in registry order, checked
// by `jobs` threads (REQUIRES: jobs >= 1). None starts after `deadline`, and the solver of one in
// progress is given no time beyond it: those are not run (ran = false).
std::vector<ObligationOutcome> ProveObligations(
    const std::string& name_prefix, int jobs = 1,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

// Every registered obligation's name, in registry order, without solving any.
std::vector<std::string> ObligationNames();

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_CATALOGUE_H_
