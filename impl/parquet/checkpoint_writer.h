// Checkpoints, written: a snapshot as a Parquet checkpoint of the layout asked for
// (docs/formats.md#checkpoints): classic (one file, the kind every Delta reader opens),
// multi-part (parts 1..N, the table's actions in part 1 and the adds dealt out in runs, or the
// same with its last part never written, as a writer that stopped midway leaves it: readers skip
// it), or a UUID-named V2 checkpoint whose JSON top level names sidecar files holding the adds.
// The protocol decides what a table may take: a table with the v2Checkpoint feature takes V2
// checkpoints only (a multi-part or classic layout becomes a classic-named V2 checkpoint), and
// one without it no UUID-named V2 checkpoint (sidecars become classic).
//
// Concern: the checkpoint's schema and rows. One row per action, each in its own top-level struct
// column (Delta's checkpoint schema): protocol, metaData, txn (one per application), add (one per
// live file, with partitionValues and tags as maps, the DV as a struct), domainMetadata (live
// domains), and for a table with the v2Checkpoint feature a checkpointMetadata action naming the
// version (a classic-named V2 checkpoint without sidecars, which such tables require). The other
// columns of a row are null. A snapshot keeps no tombstones, so the `remove`
// column is present and always null: the checkpoint says what is live, which is all a reader
// needs; a VACUUM that trusted it alone could delete a file an older version still names, so rlc
// writes checkpoints only where it also keeps every JSON commit (its simulated tables).
//
// WriteCheckpoint puts each file under _delta_log (sidecars under _delta_log/_sidecars, before
// the top level that names them) with put-if-absent (another writer's checkpoint of the same
// version holds the same state: kAlreadyExists counts as written), then points _last_checkpoint
// at it unless it already names a later version (never at an incomplete one). Readers do not
// need _last_checkpoint (impl/delta/checkpoint.h lists the log); Delta engines use it.
//
// Errors: kCorrupt for a snapshot without protocol or metaData (no reader could use it); storage
// errors as Storage; kIoError when Arrow fails to write.
//
// Thread-safety: stateless; the storage decides what concurrent writers see.
#ifndef RLC_IMPL_PARQUET_CHECKPOINT_WRITER_H_
#define RLC_IMPL_PARQUET_CHECKPOINT_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/base/status.h"
#include "impl/delta/snapshot.h"
#include "impl/storage/storage.h"

namespace rlc::parquet {

// The checkpoint's bytes and how many actions (rows) it holds.
struct CheckpointFile {
  std::string bytes;
  int64_t actions = 0;
  int64_t adds = 0;
};

Result<CheckpointFile> EncodeCheckpoint(const delta::Snapshot& snapshot);

struct CheckpointLayout {
  enum class Kind { kClassic, kMultiPart, kMultiPartIncomplete, kSidecars };
  Kind kind = Kind::kClassic;
  int parts = 2;   // a multi-part checkpoint's parts; a V2 checkpoint's sidecar files
  std::string id;  // kSidecars: the UUID its names carry (the caller's, so runs repeat)
};

// "classic", "multi-part", "multi-part-incomplete", "sidecars"; nullopt for another name.
const char* LayoutName(CheckpointLayout::Kind kind);
std::optional<CheckpointLayout::Kind> ParseLayoutName(std::string_view name);

// The checkpoint's name under _delta_log (a multi-part one's first part).
Result<std::string> WriteCheckpoint(storage::Storage& storage, std::string_view table_root,
                                    const delta::Snapshot& snapshot,
                                    const CheckpointLayout& layout = {});

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_CHECKPOINT_WRITER_H_
