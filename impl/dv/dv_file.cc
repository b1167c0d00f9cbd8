#include "impl/dv/dv_file.h"

#include <zlib.h>

#include "impl/base/bytes.h"
#include "impl/base/limits.h"

namespace rlc::dv {

uint32_t Crc32(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths; feed large inputs in pieces.
  while (!bytes.empty()) {
    uInt chunk = uInt(std::min<size_t>(bytes.size(), 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), chunk);
    bytes.remove_prefix(chunk);
  }
  return uint32_t(crc);
}

Status CheckDvFileVersion(std::string_view first_bytes) {
  if (first_bytes.empty()) return Status::Corrupt("DV file byte 0: the file is empty");
  if (uint8_t(first_bytes[0]) != kDvFileVersion) {
    return Status::Corrupt("DV file byte 0: version " + std::to_string(uint8_t(first_bytes[0])) +
                           " (expected 1)");
  }
  return Status::Ok();
}

Result<std::string_view> ParseDvRecord(std::string_view record, uint64_t offset,
                                       uint64_t size_bytes) {
  const std::string where = "DV file record at offset " + std::to_string(offset);
  if (size_bytes > kDvSizeBytesMax) {
    return Status::OverLimit(where + ": sizeInBytes " + std::to_string(size_bytes) +
                             " exceeds the limit");
  }
  if (record.size() < 4) {
    return Status::Corrupt(where + ": truncated before its size field");
  }
  const uint8_t* p = AsBytes(record.data());
  const uint32_t stored_size = LoadBe32(p);
  if (stored_size != size_bytes) {
    return Status::Corrupt(where + ": size mismatch: the record says " +
                           std::to_string(stored_size) + " bytes, the descriptor says " +
                           std::to_string(size_bytes));
  }
  if (record.size() != size_bytes + kDvRecordOverheadBytes) {
    return Status::Corrupt(where + ": truncated: needs " +
                           std::to_string(size_bytes + kDvRecordOverheadBytes) +
                           " bytes, the file has " + std::to_string(record.size()));
  }
  std::string_view payload = record.substr(4, size_bytes);
  const uint32_t stored_crc = LoadBe32(p + 4 + size_bytes);
  const uint32_t crc = Crc32(payload);
  if (stored_crc != crc) {
    return Status::Corrupt(where + ": checksum mismatch: stored " + std::to_string(stored_crc) +
                           ", computed " + std::to_string(crc));
  }
  return payload;
}

Result<std::string_view> ReadDvRecordFromFileBytes(std::string_view file, uint64_t offset,
                                                   uint64_t size_bytes) {
  RLC_RETURN_IF_ERROR(CheckDvFileVersion(file));
  if (offset < 1 || offset > file.size()) {
    return Status::Corrupt("DV file offset " + std::to_string(offset) + " is outside the " +
                           std::to_string(file.size()) + "-byte file");
  }
  const uint64_t available = file.size() - offset;
  const uint64_t wanted = std::min<uint64_t>(available, size_bytes + kDvRecordOverheadBytes);
  return ParseDvRecord(file.substr(offset, wanted), offset, size_bytes);
}

std::string EncodeDvFile(const std::vector<std::string>& payloads, std::vector<uint32_t>* offsets) {
  std::string file(1, char(kDvFileVersion));
  for (const std::string& payload : payloads) {
    RLC_ASSERT(payload.size() <= kDvSizeBytesMax);
    if (offsets != nullptr) offsets->push_back(uint32_t(file.size()));
    AppendBe32(&file, uint32_t(payload.size()));
    file += payload;
    AppendBe32(&file, Crc32(payload));
  }
  return file;
}

}  // namespace rlc::dv
