// ArrowActionReader: a Parquet checkpoint's (or sidecar's) rows as Delta JSON action lines, for
// impl/delta/checkpoint.h, which parses them as it parses commits.
//
// Concern: the shape of a checkpoint file: one top-level struct column per action kind (add,
// remove, metaData, protocol, txn, domainMetadata, sidecar, checkpointMetadata, ...), one action
// per row in the column that is not NULL there. Each such value is written back as the JSON
// object Delta's commits use: struct fields as members (NULL fields left out), maps as objects,
// lists as arrays, strings, integers, booleans and floating-point numbers as themselves. The
// columns a writer adds for its own readers (stats_parsed, partitionValues_parsed) are not part
// of an action and are left out. Any other value type is kUnsupported naming the file and the
// column; bytes that are not Parquet are kCorrupt naming the file.
//
// Thread-safety: stateless.
#ifndef RLC_IMPL_PARQUET_CHECKPOINT_ACTIONS_H_
#define RLC_IMPL_PARQUET_CHECKPOINT_ACTIONS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "impl/delta/checkpoint.h"

namespace rlc::parquet {

class ArrowActionReader : public delta::ParquetActionReader {
 public:
  Result<std::vector<std::string>> ActionLines(std::string_view file_name,
                                               std::string_view bytes) const override;
  // Adds straight from the add column's arrays when it has the fields and types Delta's
  // checkpoint schema gives them (a checkpoint holds millions of adds; their JSON round trip was
  // most of a replay's time); every other action, and any add row with a required field NULL or
  // a DV that does not validate, goes through its JSON line and the commit parser, so that the
  // result is the default's.
  Status ForEachAction(std::string_view file_name, std::string_view bytes,
                       const ActionVisitor& visit) const override;
  // Each chunk of the add column whose fields have those types as one batch (its rows that do
  // not hold a direct add go through their JSON line when the batch's consumer asks); every
  // other action through its JSON line, column by column. Errors name the file and the row.
  Status ForEachActionOrAddBatch(std::string_view file_name,
                                 std::shared_ptr<const std::string> bytes,
                                 const ActionVisitor& visit,
                                 const AddBatchVisitor& batches) const override;
};

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_CHECKPOINT_ACTIONS_H_
