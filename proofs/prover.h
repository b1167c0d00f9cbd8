// The prover: checks one Obligation with Z3 and returns the outcome as data.
//
// Concern: solving, within a time limit, and turning a model into a counterexample. Outcomes are
// a closed set (Alive2's solver results, Elle's tri-state validity):
//   kProved   the negated claim is unsat: the claim holds for every input within the bound.
//   kRefuted  the negated claim is sat: `counterexample` shows inputs for which it fails, shrunk
//             first (fewest set members, then lowest rows, integers nearer 0) so the text is short
//             to read.
//   kUnknown  Z3 gave up (timeout, resource limit) or reported an error: never counted as
//             proved, nor as refuted.
// `solver_ms` is the wall time of the main query only (not of shrinking).
//
// Thread-safety: Check uses the obligation's z3::context; call it from that context's thread.
#ifndef RLC_PROOFS_PROVER_H_
#define RLC_PROOFS_PROVER_H_

#include <string>

#include "proofs/obligation.h"

namespace rlc::proofs {

// Per query, so that CI cannot hang on a solver; the 64-row remap claims set their own
// (obligations.h).
inline constexpr unsigned kSolverTimeoutMs = 30000;
// Shrinking a counterexample is cosmetic (prover.cc): first the smallest row limit K in
// kShrinkRowLimits under which a counterexample exists (set members below K, integers within
// 2K), then a binary search on its size, bounded in rounds and in time per round; 32 rounds
// reach the minimum of any size below 2^32.
inline constexpr int kShrinkRoundsMax = 32;
inline constexpr unsigned kShrinkRoundTimeoutMs = 2000;
inline constexpr int kShrinkRowLimits[] = {2, 4, 8, 16};

enum class Verdict { kProved, kRefuted, kUnknown };

struct ProofResult {
  std::string name;
  Verdict verdict = Verdict::kUnknown;
  bool proved = false;            // verdict == kProved
  std::string counterexample;     // kRefuted: the printed model (counterexample.h); else empty
  DecodedCounterexample decoded;  // kRefuted: the same model as data
  double solver_ms = 0;           // the main query's wall time
  std::string reason;             // kUnknown: Z3's reason_unknown() or the error's message
};

ProofResult Check(const Obligation& obligation, unsigned timeout_ms = kSolverTimeoutMs);

// Whether the outcome is the one the obligation expects: kValid wants kProved; kRefutable wants
// kRefuted with a non-empty counterexample.
bool MetExpectation(const Obligation& obligation, const ProofResult& result);

// "case2.merged_is_serial: proved in 2.4 ms", then the counterexample or reason, if any.
std::string Describe(const ProofResult& result);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_PROVER_H_
