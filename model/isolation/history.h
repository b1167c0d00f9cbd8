// A committed history: the transactions that committed, in commit order, each with the version
// its snapshot had; and what each one observed and did when its row-level changes, computed on
// its own snapshot, were committed on top of the winners (which is what a reconciled commit
// does).
//
// Concern: the input of the isolation rules (isolation.h) and of the dependency graph
// (model/graph). Transaction i of `commits` lands at version initial.version + i + 1.
//
// Invariants (Validate() names the first one broken):
//   1. Every read_version lies in [initial.version, own commit version - 1].
//   2. Transaction names are distinct.
//
// Thread-safety: plain values and stateless functions.
#ifndef RLC_MODEL_ISOLATION_HISTORY_H_
#define RLC_MODEL_ISOLATION_HISTORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/semantics/operation.h"
#include "model/semantics/serial.h"
#include "model/semantics/table.h"

namespace rlc::model {

struct Transaction {
  std::string name;  // "T1", ...
  int64_t read_version = 0;
  Operation op;
  // Reads beyond the operation's own (an engine that also read these predicates on its snapshot;
  // TRUE is the whole table). They join the effect's reads, and the transaction is then no blind
  // append: what it read is what the isolation rules and the dependency graph judge.
  std::vector<Predicate> extra_reads = {};
};

struct CommittedHistory {
  LogicalTable initial;
  std::vector<Transaction> commits;  // commit order

  int64_t CommitVersion(size_t i) const { return initial.version + int64_t(i) + 1; }
  // The first broken invariant, or nullopt.
  std::optional<std::string> Validate() const;
};

// What one committed transaction read (on its snapshot) and wrote.
struct TxnObservation {
  std::string name;
  int64_t read_version = 0;
  int64_t commit_version = 0;
  OperationEffect effect;  // computed on the snapshot at read_version
  int lost_writes = 0;     // writes to rows a winner had already deleted
};

struct ObservedHistory {
  std::vector<LogicalTable> versions;  // versions[k] = the table at initial.version + k
  std::vector<TxnObservation> txns;    // commit order
};

// Runs each transaction's operation on its snapshot and commits its row-level writes on the
// latest version. Inserted rows get identities unique across the whole history.
// REQUIRES: history.Validate() is nullopt.
ObservedHistory Observe(const CommittedHistory& history);

}  // namespace rlc::model

#endif  // RLC_MODEL_ISOLATION_HISTORY_H_
