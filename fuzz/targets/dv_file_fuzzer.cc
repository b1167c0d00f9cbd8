// libFuzzer target: rlc::dv::ReadDvRecordFromFileBytes, then DecodeBitmap of the payload.
//
// Input: bytes 0..3 a big-endian u32 offset, bytes 4..7 a big-endian u32 sizeInBytes (the
// descriptor's two numbers), the rest is the DV file. When the offset's top bit is set, it is
// cleared and the harness first writes the right CRC-32 into the record (when the record fits
// in the file), so mutated payloads get past the checksum and reach DecodeBitmap; with the bit
// clear the file is used as given and the CRC check itself is fuzzed.
// On success it checks: the payload has sizeInBytes bytes and is the file's bytes at offset + 4;
// EncodeDvFile of the payload reads back to the same payload. DecodeBitmap and
// ValidateBitmapBytes agree on whether the payload is a valid bitmap; when it is, Validate() is
// ok, the cardinalities match, and EncodeBitmap -> DecodeBitmap gives an equal bitmap.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_check.h"
#include "impl/base/bytes.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/dv_file.h"
#include "impl/dv/row_bitmap.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 8) return 0;
  const uint32_t offset_field = rlc::LoadBe32(data);
  const bool fix_crc = (offset_field >> 31) != 0;
  const uint64_t offset = offset_field & 0x7FFFFFFFu;
  const uint64_t size_bytes = rlc::LoadBe32(data + 4);
  std::string file_bytes(reinterpret_cast<const char*>(data + 8), size - 8);
  if (fix_crc && offset + 4 + size_bytes + 4 <= file_bytes.size()) {
    std::string crc;
    rlc::AppendBe32(&crc,
                    rlc::dv::Crc32(std::string_view(file_bytes).substr(offset + 4, size_bytes)));
    file_bytes.replace(offset + 4 + size_bytes, 4, crc);
  }
  const std::string_view file(file_bytes);

  rlc::Result<std::string_view> payload =
      rlc::dv::ReadDvRecordFromFileBytes(file, offset, size_bytes);
  if (!payload.ok()) return 0;
  FUZZ_CHECK(payload->size() == size_bytes);
  FUZZ_CHECK(offset >= 1);
  FUZZ_CHECK(offset + 4 + size_bytes + 4 <= file.size());
  FUZZ_CHECK(*payload == file.substr(offset + 4, size_bytes));

  std::vector<uint32_t> offsets;
  const std::string rewritten = rlc::dv::EncodeDvFile({std::string(*payload)}, &offsets);
  FUZZ_CHECK(offsets.size() == 1);
  rlc::Result<std::string_view> again =
      rlc::dv::ReadDvRecordFromFileBytes(rewritten, offsets[0], size_bytes);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *payload);

  rlc::Result<rlc::dv::RowBitmap> bitmap = rlc::dv::DecodeBitmap(*payload);
  rlc::Result<uint64_t> cardinality = rlc::dv::ValidateBitmapBytes(*payload);
  FUZZ_CHECK(bitmap.ok() == cardinality.ok());
  if (!bitmap.ok()) return 0;
  FUZZ_CHECK(bitmap->Validate().ok());
  FUZZ_CHECK(*cardinality == bitmap->Cardinality());
  rlc::Result<rlc::dv::RowBitmap> decoded_again =
      rlc::dv::DecodeBitmap(rlc::dv::EncodeBitmap(*bitmap));
  FUZZ_CHECK(decoded_again.ok());
  FUZZ_CHECK(*decoded_again == *bitmap);
  return 0;
}
