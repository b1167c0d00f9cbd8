// Snapshot: the table state at one version, built by replaying JSON commits from version 0.
//
// Concern: log replay as the protocol defines it. A file's logical key is (path, DV uniqueId):
// a remove cancels only the add with the same key, so an engine may write the new add(P, DV2)
// before the remove(P, DV1) in one commit (OSS Delta 2.4-3.1 does). Paths are compared after
// URL-decoding.
//
// Replay rejects (kCorrupt, naming the version and the path) what the protocol forbids: two adds
// or two removes of one path in one commit, an add and a remove of the same key in one commit,
// and two active keys for one path after a commit. ReplayLog reads JSON only: a log whose JSON
// history does not reach back to version 0 is kUnsupported with the checkpoint named (checkpoint.h
// replays through checkpoints, given a Parquet reader); a gap in the versions is kCorrupt.
//
// Invariants of a Snapshot:
//   1. files holds at most one AddFile per decoded path (it is keyed by that path).
//   2. Every AddFile in files has been parsed and its descriptor validated.
// A snapshot read from a checkpoint keeps the checkpoint's adds as columns (file_table.h), so
// copying a snapshot shares them.
//
// Thread-safety: a const Snapshot may be shared; replay builds a new one.
#ifndef RLC_IMPL_DELTA_SNAPSHOT_H_
#define RLC_IMPL_DELTA_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/delta/file_table.h"
#include "impl/storage/storage.h"

namespace rlc::delta {

struct Snapshot {
  int64_t version = -1;
  std::optional<Protocol> protocol;
  std::optional<Metadata> metadata;
  FileTable files;  // decoded path -> its one active add
  std::map<std::string, Txn> app_transactions;
  std::map<std::string, DomainMetadata> domains;  // live domains only

  // The (path, DV uniqueId) key of an add or remove: "<decoded path>\n<uniqueId or empty>".
  static std::string LogicalKey(std::string_view decoded_path,
                                const std::optional<dv::DvDescriptor>& dv);
};

// Applies one commit on top of `snapshot` (whose version must be commit.version - 1).
Status ApplyCommit(const Commit& commit, Snapshot* snapshot);

// Replays the JSON log up to `version` (latest when nullopt).
Result<Snapshot> ReplayLog(const storage::Storage& storage, std::string_view table_root,
                           std::optional<int64_t> version = std::nullopt);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_SNAPSHOT_H_
