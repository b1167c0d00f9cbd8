// Loads the RowBitmap a descriptor points at: inline bytes, a UUID-named file or an absolute
// path, through a Storage.
//
// Concern: the read path of a DV: descriptor check, file resolution, version byte, record size
// and CRC, bitmap validation, and the descriptor's cardinality against the decoded bitmap (a
// mismatch is kCorrupt: rlc never trusts `cardinality` alone).
//
// A missing DV file is kNotFound with the resolved path and the descriptor's uniqueId.
//
// Thread-safety: stateless functions over a Storage.
#ifndef RLC_IMPL_DELTA_DELETION_VECTOR_LOADER_H_
#define RLC_IMPL_DELTA_DELETION_VECTOR_LOADER_H_

#include <string>

#include "impl/base/status.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"
#include "impl/storage/storage.h"

namespace rlc::delta {

struct DvLoadOptions {
  // Put before "deletion_vector_<uuid>.bin" when resolving 'u' DVs; empty follows the protocol.
  std::string file_name_prefix;
};

Result<dv::RowBitmap> LoadDeletionVector(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const dv::DvDescriptor& descriptor,
                                         const DvLoadOptions& options = {});

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_DELETION_VECTOR_LOADER_H_
