// The checkpoints of a table the simulator wrote, held to the JSON log they stand for.
//
// Concern: a checkpoint is a second copy of the table's state; a reader that starts from it must
// see what a reader of the JSON commits alone sees. CheckCheckpointReplay compares each
// checkpoint with the JSON replay at its version (impl/delta/checkpoint.h against
// impl/delta/snapshot.h), and the latest version as a reader starting afresh reads it (the newest
// checkpoint, then the commits after it) with the JSON replay: protocol, metaData, the live files
// with their DVs, app transactions and domains. A live file's dataChange is no part of the state:
// Delta Spark and delta-rs write every checkpoint's adds with dataChange false; nor is the
// difference between no tags and an empty tags map. A log whose JSON replay refuses a commit (a
// foreign writer's, one the protocol forbids) is compared up to it; a checkpoint at or after it
// is an error. Linear in the log's length.
//
// Errors: kCorrupt naming the table, the first version that reads otherwise and what differs
// (the protocol, the metaData, a file live on one side only, a file whose add differs); read
// errors as
// the readers give them.
//
// Thread-safety: stateless; reads through the Storage.
#ifndef RLC_FUZZ_SIMULATOR_CHECKPOINT_CHECK_H_
#define RLC_FUZZ_SIMULATOR_CHECKPOINT_CHECK_H_

#include <cstdint>
#include <string>

#include "impl/base/status.h"
#include "impl/storage/storage.h"

namespace rlc::simulator {

// The number of checkpoints the log holds (0: nothing was compared).
Result<int64_t> CheckCheckpointReplay(const storage::Storage& storage, const std::string& root);

}  // namespace rlc::simulator

#endif  // RLC_FUZZ_SIMULATOR_CHECKPOINT_CHECK_H_
