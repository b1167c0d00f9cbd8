// The DV file: one version byte, then records of (big-endian u32 size, bitmap bytes, big-endian
// CRC-32 of the bitmap bytes). A descriptor's offset points at a record's size field; the first
// record sits at offset 1. FORMAT.md beside this file has a worked example.
//
// Concern: record framing and its checks, on bytes already in memory. Reading the bytes from
// storage is impl/delta/deletion_vector_loader.h's job, so this file stays free of I/O.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DV_DV_FILE_H_
#define RLC_IMPL_DV_DV_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"

namespace rlc::dv {

inline constexpr uint8_t kDvFileVersion = 1;
// Bytes a record adds around its payload: the size field and the CRC.
inline constexpr uint64_t kDvRecordOverheadBytes = 8;

// Checks the version byte. REQUIRES: nothing; an empty view is an error.
Status CheckDvFileVersion(std::string_view first_bytes);

// Given the record bytes starting at its size field (exactly size_bytes + 8 bytes), checks the
// size field against size_bytes and the CRC, and returns the payload (a view into `record`).
// Errors name `offset`, the record's position in the file.
Result<std::string_view> ParseDvRecord(std::string_view record, uint64_t offset,
                                       uint64_t size_bytes);

// The whole-file form: checks the version byte, bounds and the record at `offset`.
Result<std::string_view> ReadDvRecordFromFileBytes(std::string_view file, uint64_t offset,
                                                   uint64_t size_bytes);

// A new DV file holding the payloads in order; `offsets` receives each record's offset.
std::string EncodeDvFile(const std::vector<std::string>& payloads, std::vector<uint32_t>* offsets);

// zlib's CRC-32 of `bytes`.
uint32_t Crc32(std::string_view bytes);

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_DV_FILE_H_
