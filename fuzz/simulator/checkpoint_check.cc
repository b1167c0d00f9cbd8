#include "fuzz/simulator/checkpoint_check.h"

#include <vector>

#include "impl/delta/checkpoint.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_actions.h"

namespace rlc::simulator {

namespace {

bool SameState(const delta::Snapshot& a, const delta::Snapshot& b) {
  return a.protocol == b.protocol && a.metadata == b.metadata && a.files == b.files &&
         a.app_transactions == b.app_transactions && a.domains == b.domains;
}

Status ReadsOtherwise(const std::string& root, int64_t version, const char* how) {
  return Status::Corrupt(root + ": version " + std::to_string(version) + " reads otherwise " + how +
                         " than through the JSON log");
}

}  // namespace

Result<int64_t> CheckCheckpointReplay(const storage::Storage& storage, const std::string& root) {
  RLC_ASSIGN_OR_RETURN(const std::vector<delta::Checkpoint> checkpoints,
                       delta::ListCheckpoints(storage, root));
  if (checkpoints.empty()) return 0;
  RLC_ASSIGN_OR_RETURN(const delta::LogListing listing, delta::ListLog(storage, root));
  const parquet::ArrowActionReader reader;
  // The JSON replay once, extended commit by commit: linear in the log's length.
  RLC_ASSIGN_OR_RETURN(delta::Snapshot json,
                       delta::ReplayLog(storage, root, checkpoints.front().version));
  size_t next = 0;  // the first checkpoint not yet compared
  for (int64_t v = json.version;; ++v) {
    if (v > json.version) {
      RLC_ASSIGN_OR_RETURN(const delta::Commit commit, delta::ReadCommit(storage, root, v));
      RLC_RETURN_IF_ERROR(delta::ApplyCommit(commit, &json));
    }
    for (; next < checkpoints.size() && checkpoints[next].version == v; ++next) {
      RLC_ASSIGN_OR_RETURN(const delta::Snapshot read,
                           delta::ReadCheckpoint(storage, root, checkpoints[next], reader));
      if (!SameState(read, json)) return ReadsOtherwise(root, v, "through its checkpoint");
    }
    if (v >= listing.latest_version()) break;
  }
  // The latest version as a reader starting afresh reads it: a checkpoint, then the JSON after.
  RLC_ASSIGN_OR_RETURN(const delta::Snapshot latest,
                       delta::ReplayLogWithCheckpoints(storage, root, std::nullopt, reader));
  if (!SameState(latest, json)) {
    return ReadsOtherwise(root, json.version,
                          "through the newest checkpoint and the commits after it");
  }
  return static_cast<int64_t>(checkpoints.size());
}

}  // namespace rlc::simulator
