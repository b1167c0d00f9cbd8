// The oracle's check (d): did a loser abort where Delta's documented conflict matrix says it
// cannot conflict? That is a missed reconcile, a lost opportunity rather than wrong data, and is
// reported apart from checks (a)-(c).
//
// Concern: one racing pair, the committed winner and the aborted loser, judged against the cell
// of model/isolation/conflict_matrix.h for their operation classes and the table's level. The
// documented matrix with row-level concurrency applies only where its preconditions hold: an
// unpartitioned table with DVs written merge-on-read, and every reconcile flag on for both
// transactions; elsewhere the pair is not judged. Within a cell:
//   cannot conflict  the loser must commit;
//   same row only    the loser must commit unless the two touch a common row: one writes (deletes,
//                    updates) a row the other writes or read, or one's new rows (inserts, new
//                    images) satisfy a predicate the other read;
//   can conflict     an abort is allowed;
//   deferred         out of scope (docs/decisions.md#scope): counted, never a finding.
// Two compactions of a common source file touch the same rows (their outputs would duplicate
// them), so they may conflict whatever the cell says.
// Under WriteSerializable a loser may pass a blind append only because the append can be ordered
// after it; a transaction that committed after the append and before the loser's check ended, and
// read a row the append wrote, is ordered before the loser and after the append, so the append
// cannot move: the loser's abort then holds whatever the cell says (the cell judges a pair, this
// is a third transaction).
//
// Thread-safety: stateless function.
#ifndef RLC_FUZZ_ORACLE_CONTRACT_H_
#define RLC_FUZZ_ORACLE_CONTRACT_H_

#include <set>
#include <string>
#include <vector>

#include "model/isolation/conflict_matrix.h"
#include "model/semantics/operation.h"
#include "model/semantics/serial.h"
#include "model/semantics/table.h"

namespace rlc::oracle {

struct ContractParty {
  const model::Operation* operation = nullptr;
  const model::OperationEffect* effect = nullptr;  // on the party's own snapshot
  // Reads beyond the operation's own (a scenario's "reads" lines; TRUE: the whole table). They
  // make a blind INSERT an UPDATE/DELETE/MERGE-class operation, as the documentation says of an
  // INSERT with a subquery on the same table.
  std::vector<model::Predicate> extra_reads;
  std::set<std::string> compacted_sources;  // an OPTIMIZE's source paths
  bool every_flag_on = false;
  int64_t read_version = -1;
  int64_t commit_version = -1;  // -1: not committed
};

enum class ContractVerdict {
  kHolds,            // the loser committed, or the cell allows its abort
  kMissedReconcile,  // the cell says it could not conflict, yet the loser aborted
  kDeferred,         // an out-of-scope cell
  kNotJudged,        // the matrix's preconditions do not hold
};

struct ContractCheck {
  ContractVerdict verdict = ContractVerdict::kNotJudged;
  model::Contract contract = model::Contract::kCanConflict;
  std::string
      cell;  // "UPDATE/DELETE/MERGE vs INSERT, WriteSerializable, with RLC: cannot conflict"
  std::string explanation;  // one sentence: why this verdict
  std::string loser_abort;  // the exception the loser aborted with (set by the caller)
};

// `table` gives the schema the predicates are evaluated with; `rlc_preconditions`: the table is
// unpartitioned, writes DVs merge-on-read, and both writers are honest (no quirk but adds-first).
// `between`: the transactions that committed after the winner and before the loser's check ended,
// with their names.
ContractCheck CheckContract(const ContractParty& winner, const ContractParty& loser,
                            bool loser_committed, model::IsolationLevel level,
                            bool rlc_preconditions, const model::LogicalTable& table,
                            const std::vector<std::pair<std::string, ContractParty>>& between = {});

std::string ContractVerdictName(ContractVerdict verdict);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_CONTRACT_H_
