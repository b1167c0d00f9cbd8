// DvStore: the DVs one conflict check reads and writes, for the rewriting cases (2, 4a, 4b).
//
// Concern: a case reads the winner's and the loser's DVs and writes merged or remapped ones; a
// later winner's case may read a DV an earlier one wrote (the loser's rebased DV). DvStore reads
// through TableFiles, writes through a DvWriter, and remembers what it wrote by the descriptor's
// uniqueId, so those DVs read back without touching storage. A check that goes on in another round
// (checker.h) keeps its store and binds it to that round's files and writer. Anything it cannot do
// is nullopt: the case then leaves the file unresolved (the conflict stands).
//
// Thread-safety: one check, one thread.
#ifndef RLC_IMPL_CONFLICT_DV_STORE_H_
#define RLC_IMPL_CONFLICT_DV_STORE_H_

#include <map>
#include <optional>
#include <string>

#include "impl/conflict/dv_writer.h"
#include "impl/conflict/table_files.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"

namespace rlc::conflict {

class DvStore {
 public:
  DvStore() = default;
  DvStore(const TableFiles* files, DvWriter* writer) : files_(files), writer_(writer) {}

  // Where the DVs of the round about to run are read and written (either may be nullptr).
  void Bind(const TableFiles* files, DvWriter* writer) {
    files_ = files;
    writer_ = writer;
  }

  bool can_write() const { return writer_ != nullptr; }
  // The rows the DV deletes; the empty set for no DV; nullopt when it cannot be read.
  std::optional<dv::RowBitmap> Load(const std::optional<dv::DvDescriptor>& descriptor);
  // The same, with why not: the DV (its uniqueId) named with what reading it said.
  Result<dv::RowBitmap> Read(const std::optional<dv::DvDescriptor>& descriptor);
  // A new DV holding `rows` (non-empty); nullopt when it cannot be written.
  std::optional<dv::DvDescriptor> Write(const dv::RowBitmap& rows);

 private:
  const TableFiles* files_ = nullptr;
  DvWriter* writer_ = nullptr;
  std::map<std::string, dv::RowBitmap> written_;  // by uniqueId
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_DV_STORE_H_
