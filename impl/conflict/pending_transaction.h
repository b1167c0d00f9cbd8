// PendingTransaction: the loser, as the conflict checker sees it.
//
// Concern: what the loser read (version, predicates, files, whole table, app ids), what it wants
// to commit (its actions, commitInfo included) and its flags; plus the JSON form `rlc check
// --txn` reads:
//
//   {"readVersion": 3,
//    "readPredicates": ["id >= 100 AND part = 'a'"],   // SQL-like text (impl/predicate)
//    "readFiles": ["part=a/f1.parquet"],               // paths as in the log
//    "readWholeTable": false,
//    "readAppIds": ["stream-1"],
//    "actions": [{"commitInfo": {...}}, {"add": {...}}, {"remove": {...}}],  // Delta JSON actions
//    "flags": {"rowLevelConcurrency.enabled": true},   // full or short names; true/false or
//    numbers "writerFeatures": ["rowTracking"]}                // what its writer supports beyond
//    its read protocol
//
// Only readVersion and actions are required. Unknown top-level keys are errors (a typo must not
// silently switch a case off).
//
// Thread-safety: plain value.
#ifndef RLC_IMPL_CONFLICT_PENDING_TRANSACTION_H_
#define RLC_IMPL_CONFLICT_PENDING_TRANSACTION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/conflict/flags.h"
#include "impl/delta/actions.h"

namespace rlc::conflict {

struct PendingTransaction {
  int64_t read_version = -1;
  std::vector<std::string> read_predicates;
  std::vector<std::string> read_files;
  bool read_whole_table = false;
  std::vector<std::string> read_app_ids;
  std::vector<delta::Action> actions;
  Flags flags;
  // Table features the loser's writer can write with beyond those of the protocol it read (and
  // those no concurrent data commit has to honour: baseline_rules.h). A winner whose protocol needs
  // any other writer feature aborts the loser, as Delta's client refuses a protocol it cannot
  // write.
  std::vector<std::string> writer_features;

  // Delta's isBlindAppend (docs/baseline.md#b2): every file action is an add, and it read nothing.
  bool IsBlindAppend() const;
  // Whether its commitInfo names the operation MERGE: a MERGE counts its source's matches over
  // every row of the files its scan keeps, more than its predicates select
  // (docs/cases.md#c-1-merge).
  bool IsMerge() const;
  // Whether some file action has dataChange=true.
  bool ChangesData() const;
  bool ChangesMetadata() const;
  bool ChangesProtocol() const;
};

// Errors (kInvalidArgument or kCorrupt) name the field, e.g. "actions[2]: field 'add.size'".
Result<PendingTransaction> ParsePendingTransaction(std::string_view json);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_PENDING_TRANSACTION_H_
