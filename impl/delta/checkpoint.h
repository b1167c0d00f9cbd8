// Checkpoints: the table state at one version, written as Parquet (or, for a V2 checkpoint's top
// level, JSON) so that a reader need not replay every commit (docs/formats.md#checkpoints).
//
// Concern: which checkpoints a log holds and what one says. Kinds, by file name under _delta_log:
//   classic     <v>.checkpoint.parquet
//   multi-part  <v>.checkpoint.<part>.<parts>.parquet, parts 1..parts (10 digits each)
//   V2          <v>.checkpoint.<uuid>.json or .parquet: a top level with checkpointMetadata and
//               `sidecar` actions naming Parquet files under _delta_log/_sidecars/ that hold the
//               file actions. A classic-named file may hold a V2 checkpoint too; sidecar actions
//               are followed in any checkpoint.
// The listing decides which checkpoints exist; `_last_checkpoint` is a hint rlc does not need
// (engines write it with other keys, or name a file that is not there). A multi-part checkpoint
// with a part missing is incomplete and skipped; so is none other.
//
// Reading Parquet is not this layer's: a ParquetActionReader (impl/parquet) turns a Parquet
// checkpoint or sidecar file into action lines in Delta's JSON form, which this layer parses as
// it parses commits, or hands its adds over as columns, which the snapshot keeps as they are
// (file_table.h). A checkpoint's snapshot holds its protocol, metaData, adds, app transactions
// and live domains; its removes are tombstones and leave no trace in the state.
//
// Errors name the file: kNotFound for a sidecar that is not there, kCorrupt for a checkpoint
// without protocol or metaData, two adds of one path, or a line that does not parse.
//
// Thread-safety: stateless functions over a Storage.
#ifndef RLC_IMPL_DELTA_CHECKPOINT_H_
#define RLC_IMPL_DELTA_CHECKPOINT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/add_columns.h"
#include "impl/delta/snapshot.h"
#include "impl/storage/storage.h"

namespace rlc::delta {

struct Checkpoint {
  enum class Kind { kClassic, kMultiPart, kV2 };
  int64_t version = -1;
  Kind kind = Kind::kClassic;
  std::vector<std::string> files;  // names under _delta_log; a multi-part one's parts in order
};

// Every complete checkpoint of the log, by version ascending (for one version, any order).
// `incomplete` (if not null) receives a message per multi-part checkpoint with a part missing.
Result<std::vector<Checkpoint>> ListCheckpoints(const storage::Storage& storage,
                                                std::string_view table_root,
                                                std::vector<std::string>* incomplete = nullptr);

class ParquetActionReader {
 public:
  virtual ~ParquetActionReader() = default;
  // Every action of a checkpoint or sidecar Parquet file, one JSON line each ({"add":{...}}),
  // in file order. `file_name` names the file in errors.
  virtual Result<std::vector<std::string>> ActionLines(std::string_view file_name,
                                                       std::string_view bytes) const = 0;
  // The same actions, parsed, each handed to `visit` in file order as soon as it is made (a
  // checkpoint may hold millions): exactly what ParseActionLine makes of each line (an
  // UnknownAction keeps its line). The first error `visit` returns stops the walk and is
  // returned. This default parses ActionLines; a reader may build actions directly from its
  // columns where that is faster, and must then give the same actions.
  using ActionVisitor = std::function<Status(Action&& action)>;
  virtual Status ForEachAction(std::string_view file_name, std::string_view bytes,
                               const ActionVisitor& visit) const;
  // ForEachAction's actions, collected.
  Result<std::vector<Action>> Actions(std::string_view file_name, std::string_view bytes) const;
  // The same actions, but where the reader can give a file's adds as columns (add_columns.h),
  // it hands them to `batches` instead, a batch at a time; every other action, and every add it
  // gives no batch for, goes to `visit`. The order of actions across the two is the reader's.
  // A batch may view `bytes`, which it then keeps alive. This default gives every action to
  // `visit` (ForEachAction).
  using AddBatchVisitor = std::function<Status(AddColumns&& batch)>;
  virtual Status ForEachActionOrAddBatch(std::string_view file_name,
                                         std::shared_ptr<const std::string> bytes,
                                         const ActionVisitor& visit,
                                         const AddBatchVisitor& batches) const;
};

// The state the checkpoint holds, as a snapshot at its version.
Result<Snapshot> ReadCheckpoint(const storage::Storage& storage, std::string_view table_root,
                                const Checkpoint& checkpoint, const ParquetActionReader& reader);

// The snapshot at `version` (latest when nullopt: the newest commit or checkpoint), read from the
// newest complete checkpoint at or below it and the JSON commits after that (which must all be
// there), or replayed from version 0 when no checkpoint is at or below it (ReplayLog).
Result<Snapshot> ReplayLogWithCheckpoints(const storage::Storage& storage,
                                          std::string_view table_root,
                                          std::optional<int64_t> version,
                                          const ParquetActionReader& reader);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_CHECKPOINT_H_
