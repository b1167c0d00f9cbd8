// The registry of obligations: every claim proofs/ checks, with the universe it is checked over,
// in one table per file of obligations, next to the claims it lists.
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
#include <string_view>
#include <vector>

#include "proofs/obligation.h"
#include "proofs/prover.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {

inline constexpr int kCase2Universe = 64;
// The variants that must fail run over fewer rows: a counterexample within 16 rows is one within
// 64, and shrinking it (prover.h) takes about 0.1 s here against 1.3 s over 64 rows.
inline constexpr int kCase2RefutationUniverse = 16;
// The remap's claims run over 64 source rows and every output row: the output DVs are unbounded
// sets (z3_domain.h) and the kernel gets the production row_index_max. Three sources on one output
// are checked over 3 x 64 rows by composing the single remap's proved claim with the tiling
// kernel, and over 3 x 8 by running the kernel on all three (README.md lists the times: 2 to 11 s
// each for the 64-row claims).
inline constexpr int kRemapUniverse = 64;
inline constexpr int kRemapRefutationUniverse = 16;
inline constexpr int kTwoWinnersUniverse = 64;
inline constexpr int kRemapProbeUniverse = 64;
inline constexpr int kRemapOrderUniverse = 64;
inline constexpr int kSharedOutputUniverse = 64;  // rows per source
// The composition assumes, per source, what remap.carries_exactly_new_deletions proves: over the
// same source rows, or it would assume more than is proved.
static_assert(kSharedOutputUniverse == kRemapUniverse);
inline constexpr int kSharedOutputDirectUniverse =
    8;                                       // rows per source (2.7 s; 16 rows take over 30 s)
inline constexpr int kSourcesUniverse = 16;  // compacted sources of one OPTIMIZE
inline constexpr int kRowsUniverse = 64;
inline constexpr int kNullsUniverse =
    64;                            // physical rows of one file; nullCount is a count over them
inline constexpr int kNoRows = 1;  // integer-only claims: the universe is unused

// The time limit of the 64-row remap claims, which take 2 to 11 s alone on this machine; the
// default limit (prover.h) would leave little margin on a loaded CI runner.
inline constexpr unsigned kLargeUniverseTimeoutMs = 180000;

// How an obligation's rows are laid out, for the bound it reports.
enum class Layout {
  kRows,                        // "rows 0..n-1" (or "unbounded" with kNoRows)
  kSourceRowsEveryOutputRow,    // one source's DVs over the universe; its output DV unbounded
  kThreeSourcesEveryOutputRow,  // three sources' DVs, each over the universe; one unbounded output
  kChildren,                    // no rows: a combination run directly on three children or items
};

// The bound as printed next to a result, e.g. "source rows 0..63, every output row".
std::string BoundText(int universe, Layout layout);

struct RegisteredObligation {
  Obligation (*build)(const Z3Domain&);
  int universe;
  unsigned timeout_ms = kSolverTimeoutMs;
  Layout layout = Layout::kRows;
};

// One file's obligations, registered by constructing it at namespace scope in that file:
//   const ObligationTable kObligations("case", {{&Case3PremiseSatisfiable, kNoRows}, ...});
// so a new file of obligations (a new case's) registers itself. Every file of proofs/ is linked
// whole (proofs/CMakeLists.txt), or a table no caller references would be dropped by the linker.
struct ObligationTable {
  ObligationTable(std::string_view name, std::vector<RegisteredObligation> entries);
};

// Every obligation: the tables in the order of their names, each in its own order (proofs
// first, each followed by the variants that must fail).
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
