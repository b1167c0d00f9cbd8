#include "fuzz/simulator/checkpoint_check.h"

#include <vector>

#include "impl/delta/checkpoint.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_actions.h"

namespace rlc::simulator {

namespace {

// A file's add as state: its dataChange is not (Delta Spark and delta-rs write every add of a
// checkpoint with dataChange false; the commit that added it said true), and no tags is no tags
// whether written null or as an empty map (delta-rs writes null in JSON, an empty map in Parquet).
bool SameFile(delta::AddFile a, delta::AddFile b) {
  a.data_change = b.data_change = false;
  for (delta::AddFile* f : {&a, &b}) {
    if (f->tags.has_value() && f->tags->empty()) f->tags.reset();
  }
  return a == b;
}

// The first way `a` (read through a checkpoint) differs from `b` (the JSON replay), or "".
std::string Difference(const delta::Snapshot& a, const delta::Snapshot& b) {
  if (a.protocol != b.protocol) return "the protocol differs";
  if (a.metadata != b.metadata) return "the metaData differs";
  if (a.app_transactions != b.app_transactions) return "the app transactions differ";
  if (a.domains != b.domains) return "the domain metadata differs";
  for (const auto& [path, add] : a.files) {
    const auto other = b.files.find(path);
    if (other == b.files.end()) return "file " + path + " is live only through the checkpoint";
    if (!SameFile(add, other->second)) return "file " + path + "'s add differs";
  }
  for (const auto& [path, add] : b.files) {
    if (!a.files.count(path)) return "file " + path + " is live only through the JSON log";
  }
  return "";
}

Status ReadsOtherwise(const std::string& root, int64_t version, const char* how,
                      const std::string& difference) {
  return Status::Corrupt(root + ": version " + std::to_string(version) + " reads otherwise " + how +
                         " than through the JSON log: " + difference);
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
      const Status applied = delta::ApplyCommit(commit, &json);
      if (applied.code() == StatusCode::kCorrupt) {
        // A commit replay refuses (a foreign writer's): nothing from it on can be read, and no
        // engine writes a checkpoint of it.
        if (next < checkpoints.size()) {
          return Status::Corrupt(root + ": a checkpoint at version " +
                                 std::to_string(checkpoints[next].version) +
                                 " of a log replay refuses from version " + std::to_string(v));
        }
        return static_cast<int64_t>(checkpoints.size());
      }
      RLC_RETURN_IF_ERROR(applied);
    }
    for (; next < checkpoints.size() && checkpoints[next].version == v; ++next) {
      RLC_ASSIGN_OR_RETURN(const delta::Snapshot read,
                           delta::ReadCheckpoint(storage, root, checkpoints[next], reader));
      const std::string difference = Difference(read, json);
      if (!difference.empty()) return ReadsOtherwise(root, v, "through its checkpoint", difference);
    }
    if (v >= listing.latest_version()) break;
  }
  // The latest version as a reader starting afresh reads it: a checkpoint, then the JSON after.
  RLC_ASSIGN_OR_RETURN(const delta::Snapshot latest,
                       delta::ReplayLogWithCheckpoints(storage, root, std::nullopt, reader));
  const std::string difference = Difference(latest, json);
  if (!difference.empty()) {
    return ReadsOtherwise(root, json.version,
                          "through the newest checkpoint and the commits after it", difference);
  }
  return static_cast<int64_t>(checkpoints.size());
}

}  // namespace rlc::simulator
