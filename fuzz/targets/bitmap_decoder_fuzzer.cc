// libFuzzer target: rlc::dv::DecodeBitmap on hostile bytes.
//
// Input: byte 0 selects how the rest (R) is framed, so that the fuzzer reaches the inner 32-bit
// Roaring layer without first having to find the magic and a consistent bucket count:
//   mode & 3 == 0: R as is (the whole outer layer is the fuzzer's);
//   mode & 3 == 1: magic, 1 bucket, high key 0, then R (R is one 32-bit portable Roaring bitmap);
//   mode & 3 == 2: magic, bucket count mode >> 2 (0..63), then R (keys and bitmaps);
//   mode & 3 == 3: magic, then R (the bucket count too).
// Checks: DecodeBitmap and ValidateBitmapBytes accept and refuse the same bytes, with the same
// message. On success: Validate() is ok; EncodeBitmap -> DecodeBitmap gives an equal bitmap (also
// after RunOptimize); ValidateBitmapBytes agrees on the cardinality (for the input and the
// re-encoding); Cardinality equals ToVector().size(), the rows ascend strictly and rebuild an
// equal bitmap (ToVector only up to kToVectorMax rows, so a few KB of run containers cannot
// ask for GBs).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_check.h"
#include "impl/base/bytes.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/row_bitmap.h"

namespace {

constexpr uint64_t kToVectorMax = uint64_t{1} << 22;

std::string Frame(const uint8_t* data, size_t size) {
  const uint8_t mode = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string out;
  switch (mode & 3) {
    case 0:
      break;
    case 1:
      rlc::AppendLe32(&out, rlc::dv::kPortableBitmapMagic);
      rlc::AppendLe64(&out, 1);
      rlc::AppendLe32(&out, 0);
      break;
    case 2:
      rlc::AppendLe32(&out, rlc::dv::kPortableBitmapMagic);
      rlc::AppendLe64(&out, mode >> 2);
      break;
    default:
      rlc::AppendLe32(&out, rlc::dv::kPortableBitmapMagic);
      break;
  }
  out.append(rest);
  return out;
}

void CheckRoundTrip(const rlc::dv::RowBitmap& bitmap, uint64_t cardinality) {
  const std::string encoded = rlc::dv::EncodeBitmap(bitmap);
  rlc::Result<rlc::dv::RowBitmap> again = rlc::dv::DecodeBitmap(encoded);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->Validate().ok());
  FUZZ_CHECK(*again == bitmap);
  rlc::Result<uint64_t> count = rlc::dv::ValidateBitmapBytes(encoded);
  FUZZ_CHECK(count.ok());
  FUZZ_CHECK(*count == cardinality);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string bytes = Frame(data, size);

  rlc::Result<rlc::dv::RowBitmap> decoded = rlc::dv::DecodeBitmap(bytes);
  // ValidateBitmapBytes "validates the bytes exactly as DecodeBitmap does" (bitmap_codec.h).
  rlc::Result<uint64_t> validated = rlc::dv::ValidateBitmapBytes(bytes);
  if (decoded.ok() != validated.ok()) {
    std::fprintf(stderr, "DecodeBitmap: %s\nValidateBitmapBytes: %s\n",
                 decoded.status().ToString().c_str(), validated.status().ToString().c_str());
  }
  FUZZ_CHECK(decoded.ok() == validated.ok());
  if (!decoded.ok()) {
    FUZZ_CHECK(decoded.status().code() == validated.status().code());
    FUZZ_CHECK(decoded.status().message() == validated.status().message());
    return 0;
  }
  const rlc::dv::RowBitmap& bitmap = *decoded;
  FUZZ_CHECK(bitmap.Validate().ok());

  const uint64_t cardinality = bitmap.Cardinality();
  FUZZ_CHECK(*validated == cardinality);
  FUZZ_CHECK(bitmap.IsEmpty() == (cardinality == 0));

  CheckRoundTrip(bitmap, cardinality);
  rlc::dv::RowBitmap optimized = bitmap;
  optimized.RunOptimize();
  FUZZ_CHECK(optimized == bitmap);
  CheckRoundTrip(optimized, cardinality);

  if (cardinality <= kToVectorMax) {
    const std::vector<uint64_t> rows = bitmap.ToVector();
    FUZZ_CHECK(rows.size() == cardinality);
    for (size_t i = 1; i < rows.size(); ++i) FUZZ_CHECK(rows[i - 1] < rows[i]);
    if (!rows.empty()) {
      FUZZ_CHECK(rows.back() == bitmap.Maximum());
      FUZZ_CHECK(bitmap.Contains(rows.front()));
      FUZZ_CHECK(bitmap.Contains(rows.back()));
    }
    FUZZ_CHECK(rlc::dv::RowBitmap::FromSorted(rows) == bitmap);
  }
  return 0;
}
