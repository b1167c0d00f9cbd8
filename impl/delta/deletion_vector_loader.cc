#include "impl/delta/deletion_vector_loader.h"

#include "impl/dv/bitmap_codec.h"
#include "impl/dv/dv_file.h"
#include "impl/dv/z85.h"

namespace rlc::delta {
namespace {

Result<std::string> ReadPayload(const storage::Storage& storage, std::string_view table_root,
                                const dv::DvDescriptor& d, const DvLoadOptions& options) {
  if (d.storage_type == 'i') return dv::Z85Decode(d.path_or_inline_dv, uint64_t(d.size_bytes));
  RLC_ASSIGN_OR_RETURN(std::string path,
                       dv::ResolveDvFilePath(d, table_root, options.file_name_prefix));
  Result<std::string> head = storage.ReadRange(path, 0, 1);
  if (!head.ok()) {
    if (head.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("DV file not found: " + path);
    }
    return head.status();
  }
  RLC_RETURN_IF_ERROR(dv::CheckDvFileVersion(*head).WithContext(path));
  const uint64_t offset = uint64_t(d.offset.value_or(0));
  RLC_ASSIGN_OR_RETURN(
      std::string record,
      storage.ReadRange(path, offset, uint64_t(d.size_bytes) + dv::kDvRecordOverheadBytes));
  Result<std::string_view> payload = dv::ParseDvRecord(record, offset, uint64_t(d.size_bytes));
  if (!payload.ok()) return payload.status().WithContext(path);
  return std::string(*payload);
}

}  // namespace

Result<dv::RowBitmap> LoadDeletionVector(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const dv::DvDescriptor& descriptor,
                                         const DvLoadOptions& options) {
  const std::string where = "deletionVector " + descriptor.UniqueId();
  RLC_RETURN_IF_ERROR(descriptor.Validate().WithContext(where));
  if (descriptor.cardinality == 0 && descriptor.size_bytes == 0) return dv::RowBitmap();
  Result<std::string> payload = ReadPayload(storage, table_root, descriptor, options);
  if (!payload.ok()) return payload.status().WithContext(where);
  Result<dv::RowBitmap> bitmap = dv::DecodeBitmap(*payload);
  if (!bitmap.ok()) return bitmap.status().WithContext(where);
  const uint64_t decoded = bitmap->Cardinality();
  if (decoded != uint64_t(descriptor.cardinality)) {
    return Status::Corrupt(where + ": the descriptor's cardinality is " +
                           std::to_string(descriptor.cardinality) + " but the bitmap holds " +
                           std::to_string(decoded) + " rows");
  }
  return bitmap;
}

}  // namespace rlc::delta
