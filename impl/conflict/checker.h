// The conflict checker: may the loser commit on top of the winners that landed after its read
// version, and with which actions? The library's public entry point.
//
// Concern: the driver of delta-rlc.md B0. Winners are checked one at a time in version order;
// each check may update the loser (its actions and read files), and the next winner is checked
// against the updated loser. Inside one winner (reference/decisions.md, "Phase order"):
// protocol, metadata, domain metadata, app ids, then the reconcile cases (a per-winner
// skip-list of resolved paths; none run with every flag off), then the file checks: added
// files, removed-vs-read (and whole-table read), removed-vs-removed. The first failed check
// ends the run with an abort verdict. With every flag off this is Delta's baseline exactly.
//
// Errors (a Status, not a verdict) are reserved for input that cannot be checked: winner bytes
// that do not parse, a read version that does not exist, an invalid table property.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_CONFLICT_CHECKER_H_
#define RLC_IMPL_CONFLICT_CHECKER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/verdict.h"
#include "impl/delta/actions.h"
#include "impl/storage/storage.h"

namespace rlc::conflict {

// The table as the loser read it.
struct ReadTable {
  delta::Metadata metadata;
  delta::Protocol protocol;
};

// One winning commit, as bytes read from the log.
struct WinningCommit {
  int64_t version = 0;
  std::string bytes;
  std::string source;  // the commit file's path, for messages
};

// REQUIRES: winners are consecutive versions starting at loser.read_version + 1.
Result<Verdict> CheckConflicts(const PendingTransaction& loser, const ReadTable& read_table,
                               const std::vector<WinningCommit>& winners);

// Reads the table at the loser's read version and every later commit from the log, then checks.
Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage, std::string_view table_root,
                                         const PendingTransaction& loser);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_CHECKER_H_
