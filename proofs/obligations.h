// The registry of obligations: every claim proofs/ checks, with the universe it is checked over,
// in one table (as TigerBeetle lists its fuzzers in one file).
//
// Concern: which obligations exist and their bounds. A universe is the number of rows a
// symbolic DV ranges over; it is chosen so that each query answers in milliseconds (README.md
// lists the measured times), since a bigger bound costs time and a kernel's decisions here are
// made row by row.
//
// Thread-safety: the table is immutable. RunObligation builds its own z3::context, so distinct
// calls may run on distinct threads.
#ifndef RLC_PROOFS_OBLIGATIONS_H_
#define RLC_PROOFS_OBLIGATIONS_H_

#include <string>
#include <vector>

#include "proofs/obligation.h"
#include "proofs/prover.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

inline constexpr int kCase2Universe = 64;
// The variants that must fail run over fewer rows: a counterexample within 16 rows is one within
// 64, and shrinking it (prover.h) takes about 0.1 s here against 1.3 s over 64 rows.
inline constexpr int kCase2RefutationUniverse = 16;
// The remap's main claim, two successive winners and the map's probes for its run and for
// injectivity run over 64 source and output rows (6, 20, 6 and 18 s here: the rank sums grow with
// the square of the universe); order preservation over 32 (3 s; over 40 it exceeds 30 s); three
// sources on one output over 3 x 8 (README.md lists the times).
inline constexpr int kRemapUniverse = 64;
inline constexpr int kRemapRefutationUniverse = 16;
inline constexpr int kTwoWinnersUniverse = 64;
inline constexpr int kRemapProbeUniverse = 64;
inline constexpr int kRemapOrderUniverse = 32;
inline constexpr int kSharedOutputUniverse = 24;  // three sources of 8 rows (0.6 s; 16 rows take 9.4 s)
inline constexpr int kSourcesUniverse = 16;  // compacted sources of one OPTIMIZE
inline constexpr int kRowsUniverse = 64;
inline constexpr int kNullsUniverse = 64;  // physical rows of one file; nullCount is a count over them
inline constexpr int kNoRows = 1;            // integer-only claims: the universe is unused

// The time limit of the 64-row remap claims, which take 6 to 20 s alone on this machine; the
// default limit (prover.h) would leave little margin on a loaded CI runner.
inline constexpr unsigned kLargeUniverseTimeoutMs = 180000;

struct RegisteredObligation {
  Obligation (*build)(const Z3Domain&);
  int universe;
  unsigned timeout_ms = kSolverTimeoutMs;
};

// Every obligation, proofs first, each followed by the variants that must fail.
const std::vector<RegisteredObligation>& AllObligations();

struct ObligationRun {
  Expectation expectation;
  std::string statement;
  ProofResult result;
  bool met;  // MetExpectation(obligation, result)
};

// Builds the obligation over its universe in a fresh context and checks it.
ObligationRun RunObligation(const RegisteredObligation& entry);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_OBLIGATIONS_H_
