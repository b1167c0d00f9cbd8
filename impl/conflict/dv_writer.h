// DvWriter: where the rewriting cases (2, 4a, 4b) put the DVs they build.
//
// Concern: a DV the checker builds must exist as bytes before the loser commits actions that name
// it. StorageDvWriter writes each one as its own DV file, deletion_vector_<uuid>.bin (Delta's
// format: version byte, then one record of size, portable Roaring bytes and CRC-32; dv/dv_file.h),
// into a directory through a Storage: the table root gives 'u' descriptors (what Delta writes),
// any other directory 'p' descriptors holding the file's absolute path. `rlc check` writes into an
// InMemoryStorage by default (it never writes into the user's table unless asked) and lists the
// files it would write. UUIDs are version-4 and random, or reproducible from a given seed.
//
// Thread-safety: a writer is used from one thread.
#ifndef RLC_IMPL_CONFLICT_DV_WRITER_H_
#define RLC_IMPL_CONFLICT_DV_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"
#include "impl/storage/storage.h"

namespace rlc::conflict {

class DvWriter {
 public:
  virtual ~DvWriter() = default;
  // Writes `rows` (non-empty) as a new DV; the descriptor's cardinality is rows' cardinality.
  virtual Result<dv::DvDescriptor> Write(const dv::RowBitmap& rows) = 0;
};

class StorageDvWriter : public DvWriter {
 public:
  // `storage` must outlive the writer. Paths have no trailing slash. seed nullopt: random UUIDs.
  StorageDvWriter(storage::Storage& storage, std::string dir, std::string table_root,
                  std::optional<uint64_t> seed = std::nullopt);

  Result<dv::DvDescriptor> Write(const dv::RowBitmap& rows) override;
  // Every file written so far, by absolute path.
  const std::vector<std::string>& written_files() const { return written_files_; }

 private:
  std::string NextUuid();

  storage::Storage& storage_;
  std::string dir_;
  std::string table_root_;
  // SplitMix64: a one-word state is seeded at once (a Mersenne Twister's 312 words cost more
  // than the small DVs a writer usually writes); UUIDs need uniqueness, not secrecy.
  uint64_t NextRandom();
  uint64_t random_state_;
  std::vector<std::string> written_files_;
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_DV_WRITER_H_
