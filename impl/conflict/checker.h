// The conflict checker: may the loser commit on top of the winners that landed after its read
// version, and with which actions? The library's public entry point.
//
// Concern: the driver of docs/baseline.md#b0. Winners are checked one at a time in version
// order; each check may update the loser (its actions and read files), and the next winner is
// checked against the updated loser. Inside one winner (docs/decisions.md#phase-order):
// protocol, metadata, domain metadata, app ids, then the rewriting cases (a per-winner
// skip-list of resolved paths), then the file checks: added files (less Case 3's relocations,
// 1b's DV-update re-adds, then Case 1's data skipping), removed-vs-read (less Case 3's
// relocations for append-only losers; 1b judges the overlap row by row), whole-table read,
// removed-vs-removed. The first failed check ends the run with an abort verdict. With every flag
// off this is Delta's baseline exactly; every flag only ever removes files from the checks
// (monotonicity: a flag never turns a commit into an abort, and does not change its actions).
//
// Errors (a Status, not a verdict) are reserved for input that cannot be checked: winner bytes
// that do not parse, a read version that does not exist, an invalid table property.
//
// Thread-safety: stateless functions; a ConflictCheck is used by one thread at a time.
#ifndef RLC_IMPL_CONFLICT_CHECKER_H_
#define RLC_IMPL_CONFLICT_CHECKER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/conflict/dv_writer.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/table_files.h"
#include "impl/conflict/verdict.h"
#include "impl/delta/actions.h"
#include "impl/delta/snapshot.h"
#include "impl/storage/storage.h"

namespace rlc::conflict {

// The table as the loser read it.
struct ReadTable {
  delta::Metadata metadata;
  delta::Protocol protocol;
  // The read snapshot's active files (decoded path -> add, as delta::Snapshot::files). Case 3
  // and 1b look files up here; an empty map only costs reconciles.
  delta::FileTable files = {};
};

// One winning commit, as bytes read from the log.
struct WinningCommit {
  int64_t version = 0;
  std::string bytes;
  std::string source;  // the commit file's path, for messages
};

// What the cases may use beyond the commits. Anything absent only costs reconciles.
struct CheckEnvironment {
  const TableFiles* files = nullptr;  // DVs and rows (table_files.h); nullptr: neither
  DvWriter* dv_writer = nullptr;      // where rebuilt DVs go; nullptr: Cases 2, 4a, 4b cannot run
  int64_t now_ms = 0;                 // deletionTimestamp of the removes the cases rebuild
  // Whether the verdict says why the cases declined (Verdict::declines); off, nothing is kept
  // (the explorer checks millions of transactions and reads none of it).
  bool explain_declines = false;
};

// A conflict check that can go on. An engine whose rebased commit loses another race checks the
// new winners against what the first check left: the same read snapshot, the loser as the cases
// rebased it, the blind appends it passed under WriteSerializable, 4a's composition, the DVs
// written so far. So k rounds over winners split anywhere decide exactly what one check over all
// of them decides (a property test holds it to that). A round that starts over from the
// checked-through version as a new read version would forget all of it: the appends it passed
// could no longer be re-checked, 1b and Case 3 would take files the loser never saw for files it
// read, and 4a would lose the runs of the tombstones it rebuilt.
//
// Each round's verdict covers the whole check so far: its actions and read files after every
// winner, every event. Once a round aborts, later rounds return the same abort.
class ConflictCheck {
 public:
  // kCorrupt: the read table's isolation level property is invalid.
  static Result<ConflictCheck> Begin(const PendingTransaction& loser, ReadTable read_table);

  ConflictCheck(ConflictCheck&&) noexcept;
  ConflictCheck& operator=(ConflictCheck&&) noexcept;
  ~ConflictCheck();

  // REQUIRES: winners are consecutive versions starting at checked_through_version() + 1.
  Result<Verdict> Continue(const std::vector<WinningCommit>& winners,
                           const CheckEnvironment& env = {});
  // The last round: as Continue, but the check is spent, so its loser's actions and read files
  // move into the verdict rather than being copied (a loser may hold 10,000s of them).
  Result<Verdict> Finish(const std::vector<WinningCommit>& winners,
                         const CheckEnvironment& env = {}) &&;
  // Every commit of the log after checked_through_version(). env.files nullptr: DVs through
  // `storage`, no row reader.
  Result<Verdict> ContinueAgainstLog(const storage::Storage& storage, std::string_view table_root,
                                     const CheckEnvironment& env = {});

  int64_t read_version() const;
  int64_t checked_through_version() const;

 private:
  struct State;
  explicit ConflictCheck(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// One round: ConflictCheck::Begin, then Continue.
// REQUIRES: winners are consecutive versions starting at loser.read_version + 1.
Result<Verdict> CheckConflicts(const PendingTransaction& loser, const ReadTable& read_table,
                               const std::vector<WinningCommit>& winners,
                               const CheckEnvironment& env = {});

// Reads the table at the loser's read version and every later commit from the log, then checks.
// env.files nullptr: DVs through `storage`, no row reader.
Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const PendingTransaction& loser,
                                         const CheckEnvironment& env = {});
// The same with the table at the read version already in hand, as an engine keeps the snapshot
// its transaction read: only the later commits are read. kInvalidArgument when
// `read_snapshot.version` is not loser.read_version.
Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const PendingTransaction& loser,
                                         const delta::Snapshot& read_snapshot,
                                         const CheckEnvironment& env = {});
// The check to continue, begun on the table at the read version already in hand.
// kInvalidArgument when `read_snapshot.version` is not loser.read_version; kCorrupt without
// metaData or protocol.
Result<ConflictCheck> BeginCheck(const PendingTransaction& loser,
                                 const delta::Snapshot& read_snapshot, std::string_view table_root);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_CHECKER_H_
