// libFuzzer target: rlc::dv::ReadDvRecordFromFileBytes, then DecodeBitmap of the payload.
//
// Input: bytes 0..3 a big-endian u32 offset, bytes 4..7 a big-endian u32 sizeInBytes (the
// descriptor's two numbers), the rest is the DV file.
// On success it checks: the payload has sizeInBytes bytes and is the file's bytes at offset + 4;
// EncodeDvFile of the payload reads back to the same payload. When the payload decodes as a
// bitmap: Validate() is ok, the cardinality matches ValidateBitmapBytes, and EncodeBitmap ->
// DecodeBitmap gives an equal bitmap.
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
  const uint64_t offset = rlc::LoadBe32(data);
  const uint64_t size_bytes = rlc::LoadBe32(data + 4);
  const std::string_view file(reinterpret_cast<const char*>(data + 8), size - 8);

  rlc::Result<std::string_view> payload = rlc::dv::ReadDvRecordFromFileBytes(file, offset, size_bytes);
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
  if (!bitmap.ok()) return 0;
  FUZZ_CHECK(bitmap->Validate().ok());
  rlc::Result<uint64_t> cardinality = rlc::dv::ValidateBitmapBytes(*payload);
  FUZZ_CHECK(cardinality.ok());
  FUZZ_CHECK(*cardinality == bitmap->Cardinality());
  rlc::Result<rlc::dv::RowBitmap> decoded_again = rlc::dv::DecodeBitmap(rlc::dv::EncodeBitmap(*bitmap));
  FUZZ_CHECK(decoded_again.ok());
  FUZZ_CHECK(*decoded_again == *bitmap);
  return 0;
}
