#include "impl/conflict/dv_store.h"

namespace rlc::conflict {

Result<dv::RowBitmap> DvStore::Read(const std::optional<dv::DvDescriptor>& descriptor) {
  if (!descriptor.has_value()) return dv::RowBitmap();
  const std::string id = descriptor->UniqueId();
  auto it = written_.find(id);
  if (it != written_.end()) return it->second;
  if (files_ == nullptr)
    return Status::Unsupported("DV " + id + ": no table files to read it from");
  Result<dv::RowBitmap> rows = files_->ReadDeletionVector(*descriptor);
  if (!rows.ok()) return rows.status().WithContext("DV " + id);
  return rows;
}

std::optional<dv::RowBitmap> DvStore::Load(const std::optional<dv::DvDescriptor>& descriptor) {
  Result<dv::RowBitmap> rows = Read(descriptor);
  if (!rows.ok()) return std::nullopt;
  return std::move(rows).value();
}

std::optional<dv::DvDescriptor> DvStore::Write(const dv::RowBitmap& rows) {
  if (writer_ == nullptr || rows.IsEmpty()) return std::nullopt;
  Result<dv::DvDescriptor> descriptor = writer_->Write(rows);
  if (!descriptor.ok()) return std::nullopt;
  written_[descriptor->UniqueId()] = rows;
  return *descriptor;
}

}  // namespace rlc::conflict
