// Tests for impl/dv/bitmap_codec.h: hand-written golden encodings (no-run cookie 12346, run
// cookie 12347 with and without an offset header, a bitset container, empty buckets) and one
// corruption test per check in bitmap_codec.cc.
//
// Every golden byte array below is written out literally with the meaning of each field; none is
// produced by the code under test. Layout (docs/formats.md#a5, docs/toolchain.md#delta-dv-layout):
//   u32 LE magic 1681511377 = 0x6439D3D1 -> D1 D3 39 64
//   u64 LE bucket count
//   per bucket: u32 LE high key, then a 32-bit portable Roaring bitmap:
//     no runs:  u32 cookie 12346 (0x303A -> 3A 30 00 00), u32 container count,
//               per container (u16 key, u16 cardinality-1), per container u32 offset (from the
//               start of this 32-bit bitmap), then the containers' data;
//     runs:     u16 cookie 12347 (0x303B -> 3B 30) + u16 (containers-1), run flags
//               ((containers+7)/8 bytes, bit c = container c is a run), per container
//               (u16 key, u16 cardinality-1), the offset header only if containers >= 4,
//               then the data.
//   Container data: array = u16 values ascending (cardinality <= 4096); bitset = 8192 bytes
//   (cardinality > 4096); run = u16 run count, then per run (u16 start, u16 length-1).
#include "impl/dv/bitmap_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "impl/base/limits.h"

namespace rlc::dv {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(char(uint8_t(v)));
  return out;
}

// `s` with the bytes at `pos` replaced.
std::string Patched(std::string s, size_t pos, std::initializer_list<int> values) {
  for (int v : values) s.at(pos++) = char(uint8_t(v));
  return s;
}

// ---------------------------------------------------------------------------------------------
// Golden encodings

// {0, 5, 2^32 + 7}: the 58-byte example of docs/toolchain.md#delta-dv-layout (CRoaring's
// Roaring64Map writes exactly this).
const std::string kThreeRows = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic 1681511377
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 2 buckets
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
    0x01, 0x00, 0x00, 0x00,                          // 20: 1 container
    0x00, 0x00, 0x01, 0x00,                          // 24: key 0, cardinality-1 = 1
    0x10, 0x00, 0x00, 0x00,                          // 28: offset 16
    0x00, 0x00, 0x05, 0x00,                          // 32: values 0, 5
    0x01, 0x00, 0x00, 0x00,                          // 36: high key 1
    0x3A, 0x30, 0x00, 0x00,                          // 40: cookie 12346
    0x01, 0x00, 0x00, 0x00,                          // 44: 1 container
    0x00, 0x00, 0x00, 0x00,                          // 48: key 0, cardinality-1 = 0
    0x10, 0x00, 0x00, 0x00,                          // 52: offset 16
    0x07, 0x00,                                      // 56: value 7
});                                                  // 58 bytes

// {1}: the Databricks single-row payload (docs/toolchain.md#databricks-single-row).
const std::string kDatabricksRowOne = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
    0x01, 0x00, 0x00, 0x00,                          // 20: 1 container
    0x00, 0x00, 0x00, 0x00,                          // 24: key 0, cardinality-1 = 0
    0x10, 0x00, 0x00, 0x00,                          // 28: offset 16
    0x01, 0x00,                                      // 32: value 1
});                                                  // 34 bytes

// {10..19} as one run container: cookie 12347, one container, so no offset header.
const std::string kRunTenToNineteen = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, containers-1 = 0
    0x01,                                            // 20: run flags: container 0 is a run
    0x00, 0x00, 0x09, 0x00,                          // 21: key 0, cardinality-1 = 9
    0x01, 0x00,                                      // 25: 1 run
    0x0A, 0x00, 0x09, 0x00,                          // 27: start 10, length-1 9 -> 10..19
});                                                  // 31 bytes

// Four containers in the run format, so the offset header is present (offsets count from the
// cookie at byte 16): rows 10..19, 65536+5, 2*65536 + 0..99, 3*65536 + 7.
const std::string kRunFourContainers = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3B, 0x30, 0x03, 0x00,                          // 16 (rel 0): cookie 12347, containers-1 = 3
    0x05,                                            // 20 (rel 4): runs: containers 0 and 2
    0x00, 0x00, 0x09, 0x00,                          // 21 (rel 5): key 0, cardinality-1 = 9
    0x01, 0x00, 0x00, 0x00,                          // 25: key 1, cardinality-1 = 0
    0x02, 0x00, 0x63, 0x00,                          // 29: key 2, cardinality-1 = 99
    0x03, 0x00, 0x00, 0x00,                          // 33: key 3, cardinality-1 = 0
    0x25, 0x00, 0x00, 0x00,                          // 37 (rel 21): offset 37
    0x2B, 0x00, 0x00, 0x00,                          // 41: offset 43
    0x2D, 0x00, 0x00, 0x00,                          // 45: offset 45
    0x33, 0x00, 0x00, 0x00,                          // 49: offset 51
    0x01, 0x00, 0x0A, 0x00, 0x09, 0x00,              // 53 (rel 37): 1 run, 10..19
    0x05, 0x00,                                      // 59 (rel 43): array {5}
    0x01, 0x00, 0x00, 0x00, 0x63, 0x00,              // 61 (rel 45): 1 run, 0..99
    0x07, 0x00,                                      // 67 (rel 51): array {7}
});                                                  // 69 bytes

// {0, 65537}: two array containers in the no-run format.
const std::string kTwoContainers = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
    0x02, 0x00, 0x00, 0x00,                          // 20: 2 containers
    0x00, 0x00, 0x00, 0x00,                          // 24: key 0, cardinality-1 = 0
    0x01, 0x00, 0x00, 0x00,                          // 28: key 1, cardinality-1 = 0
    0x18, 0x00, 0x00, 0x00,                          // 32: offset 24
    0x1A, 0x00, 0x00, 0x00,                          // 36: offset 26
    0x00, 0x00,                                      // 40: value 0
    0x01, 0x00,                                      // 42: value 1
});                                                  // 44 bytes

// The empty bitmap: magic and zero buckets.
const std::string kEmpty = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          // magic
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 0 buckets
});

// What Delta's Scala writer emits for {2^32 + 7}: an empty bucket 0 before bucket 1.
const std::string kEmptyBucketFirst = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 2 buckets
    0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
    0x3A, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 16: cookie 12346, 0 containers
    0x01, 0x00, 0x00, 0x00,                          // 24: high key 1
    0x3A, 0x30, 0x00, 0x00,                          // 28: cookie 12346
    0x01, 0x00, 0x00, 0x00,                          // 32: 1 container
    0x00, 0x00, 0x00, 0x00,                          // 36: key 0, cardinality-1 = 0
    0x10, 0x00, 0x00, 0x00,                          // 40: offset 16
    0x07, 0x00,                                      // 44: value 7
});                                                  // 46 bytes

// {2^32 + 7} as rlc writes it: one bucket, key 1.
const std::string kRowTwoPow32Plus7 = Bytes({
    0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
    0x01, 0x00, 0x00, 0x00,                          // 12: high key 1
    0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
    0x01, 0x00, 0x00, 0x00,                          // 20: 1 container
    0x00, 0x00, 0x00, 0x00,                          // 24: key 0, cardinality-1 = 0
    0x10, 0x00, 0x00, 0x00,                          // 28: offset 16
    0x07, 0x00,                                      // 32: value 7
});                                                  // 34 bytes

// The even rows 0, 2, ..., 9998 (5000 > 4096 values): one bitset container.
// Bitset bit v is byte v/8, bit v%8, so every byte of the first 1250 is 0x55.
std::string EvenRowsBitset() {
  std::string out = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
      0x01, 0x00, 0x00, 0x00,                          // 20: 1 container
      0x00, 0x00, 0x87, 0x13,                          // 24: key 0, cardinality-1 = 4999 = 0x1387
      0x10, 0x00, 0x00, 0x00,                          // 28: offset 16
  });                                                  // 32: the 8192-byte bitset
  std::string bits(8192, '\0');
  for (uint32_t v = 0; v < 10000; v += 2) {
    bits[v / 8] = char(uint8_t(bits[v / 8]) | (1u << (v % 8)));
  }
  return out + bits;  // 8224 bytes
}
constexpr size_t kBitsetDataAt = 32;

// One bucket `high_key` holding the single value (container_key << 16 | value).
std::string SingleValue(uint32_t high_key, uint16_t container_key, uint16_t value) {
  return Bytes({
      0xD1,
      0xD3,
      0x39,
      0x64,  // magic
      0x01,
      0x00,
      0x00,
      0x00,
      0x00,
      0x00,
      0x00,
      0x00,  // 1 bucket
      int(high_key & 0xFF),
      int((high_key >> 8) & 0xFF),
      int((high_key >> 16) & 0xFF),
      int(high_key >> 24),  // high key
      0x3A,
      0x30,
      0x00,
      0x00,  // cookie 12346
      0x01,
      0x00,
      0x00,
      0x00,  // 1 container
      container_key & 0xFF,
      container_key >> 8,
      0x00,
      0x00,  // key, cardinality-1 = 0
      0x10,
      0x00,
      0x00,
      0x00,  // offset 16
      value & 0xFF,
      value >> 8,  // the value
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

// Decodes and checks the rows; also checks ValidateBitmapBytes' cardinality.
void ExpectDecodes(const std::string& bytes, const std::vector<uint64_t>& rows) {
  Result<RowBitmap> bitmap = DecodeBitmap(bytes);
  ASSERT_TRUE(bitmap.ok()) << bitmap.status().ToString();
  EXPECT_TRUE(bitmap->Validate().ok());
  EXPECT_EQ(bitmap->ToVector(), rows);
  Result<uint64_t> count = ValidateBitmapBytes(bytes);
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, rows.size());
}

// Both DecodeBitmap and ValidateBitmapBytes must refuse `bytes` the same way.
void ExpectRejected(const std::string& bytes, StatusCode code, const std::string& reason) {
  Result<RowBitmap> bitmap = DecodeBitmap(bytes);
  ASSERT_FALSE(bitmap.ok()) << "DecodeBitmap accepted the bytes; expected '" << reason << "'";
  EXPECT_EQ(bitmap.status().code(), code) << bitmap.status().ToString();
  EXPECT_NE(bitmap.status().message().find(reason), std::string::npos)
      << "message '" << bitmap.status().message() << "' lacks '" << reason << "'";
  Result<uint64_t> count = ValidateBitmapBytes(bytes);
  ASSERT_FALSE(count.ok()) << "ValidateBitmapBytes accepted the bytes; expected '" << reason << "'";
  EXPECT_EQ(count.status().code(), code) << count.status().ToString();
  EXPECT_EQ(count.status().message(), bitmap.status().message());
}

std::vector<uint64_t> Range(uint64_t begin, uint64_t end) {
  std::vector<uint64_t> rows;
  for (uint64_t r = begin; r < end; ++r) rows.push_back(r);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Decoding golden bytes

TEST(BitmapCodecTest, DecodesThreeRowsAcrossTwoBuckets) {
  ExpectDecodes(kThreeRows, {0, 5, (uint64_t{1} << 32) + 7});
}

TEST(BitmapCodecTest, DecodesDatabricksSingleRowPayload) { ExpectDecodes(kDatabricksRowOne, {1}); }

TEST(BitmapCodecTest, DecodesRunContainerWithoutOffsetHeader) {
  ExpectDecodes(kRunTenToNineteen, Range(10, 20));
}

TEST(BitmapCodecTest, DecodesRunFormatWithOffsetHeader) {
  std::vector<uint64_t> rows = Range(10, 20);
  rows.push_back(65536 + 5);
  for (uint64_t r : Range(2 * 65536, 2 * 65536 + 100)) rows.push_back(r);
  rows.push_back(3 * 65536 + 7);
  ExpectDecodes(kRunFourContainers, rows);
}

TEST(BitmapCodecTest, DecodesTwoArrayContainers) { ExpectDecodes(kTwoContainers, {0, 65537}); }

TEST(BitmapCodecTest, DecodesBitsetContainer) {
  std::vector<uint64_t> rows;
  for (uint64_t r = 0; r < 10000; r += 2) rows.push_back(r);
  ExpectDecodes(EvenRowsBitset(), rows);
}

TEST(BitmapCodecTest, DecodesEmptyBitmap) {
  ExpectDecodes(kEmpty, {});
  Result<RowBitmap> bitmap = DecodeBitmap(kEmpty);
  ASSERT_TRUE(bitmap.ok());
  EXPECT_TRUE(bitmap->IsEmpty());
}

TEST(BitmapCodecTest, EmptyBucketsAreAcceptedAndDropped) {
  ExpectDecodes(kEmptyBucketFirst, {(uint64_t{1} << 32) + 7});
  Result<RowBitmap> bitmap = DecodeBitmap(kEmptyBucketFirst);
  ASSERT_TRUE(bitmap.ok());
  ASSERT_EQ(bitmap->buckets().size(), 1u);
  EXPECT_EQ(bitmap->buckets()[0].high_key, 1u);
  // Re-encoding drops the empty bucket.
  EXPECT_EQ(EncodeBitmap(*bitmap), kRowTwoPow32Plus7);
}

TEST(BitmapCodecTest, AllEmptyBucketsDecodeToEmpty) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          // magic
      0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 2 buckets
      0x00, 0x00, 0x00, 0x00,                          // high key 0
      0x3A, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // empty
      0x01, 0x00, 0x00, 0x00,                          // high key 1
      0x3A, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // empty
  });
  ExpectDecodes(bytes, {});
}

TEST(BitmapCodecTest, GapsBetweenBucketKeysAreAccepted) {
  // Keys 0 and 5 (Delta's reader accepts gaps; only the order matters).
  ExpectDecodes(Patched(kThreeRows, 36, {0x05}), {0, 5, (uint64_t{5} << 32) + 7});
}

TEST(BitmapCodecTest, LargestRowIndexIsAccepted) {
  // kRowIndexMax = high key 2^31-2 (0x7FFFFFFE), low 0x80000000 = container 0x8000, value 0.
  ExpectDecodes(SingleValue(0x7FFFFFFE, 0x8000, 0), {kRowIndexMax});
}

TEST(BitmapCodecTest, AdjacentRunsAreAcceptedAndMerged) {
  // Non-canonical but memory-safe: runs 10..19 and 20..20 touch without overlapping.
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x00, 0x0A, 0x00,                          // 21: key 0, cardinality-1 = 10
      0x02, 0x00,                                      // 25: 2 runs
      0x0A, 0x00, 0x09, 0x00,                          // 27: 10..19
      0x14, 0x00, 0x00, 0x00,                          // 31: 20..20
  });
  ExpectDecodes(bytes, Range(10, 21));
}

TEST(BitmapCodecTest, RunEndingExactlyAt65535IsAccepted) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x00, 0x05, 0x00,                          // 21: key 0, cardinality-1 = 5
      0x01, 0x00,                                      // 25: 1 run
      0xFA, 0xFF, 0x05, 0x00,                          // 27: 65530..65535
  });
  ExpectDecodes(bytes, Range(65530, 65536));
}

// ---------------------------------------------------------------------------------------------
// Encoding matches the golden bytes

TEST(BitmapCodecTest, EncodesThreeRowsExactly) {
  EXPECT_EQ(EncodeBitmap(RowBitmap{0, 5, (uint64_t{1} << 32) + 7}), kThreeRows);
}

TEST(BitmapCodecTest, EncodesDatabricksSingleRowExactly) {
  EXPECT_EQ(EncodeBitmap(RowBitmap{1}), kDatabricksRowOne);
}

TEST(BitmapCodecTest, EncodesEmptyBitmapExactly) { EXPECT_EQ(EncodeBitmap(RowBitmap()), kEmpty); }

TEST(BitmapCodecTest, EncodesRunOptimizedContainerWithRunCookie) {
  RowBitmap bitmap;
  for (uint64_t r = 10; r < 20; ++r) bitmap.Add(r);
  bitmap.RunOptimize();
  EXPECT_EQ(EncodeBitmap(bitmap), kRunTenToNineteen);
}

TEST(BitmapCodecTest, EncodesFourContainerRunFormatWithOffsets) {
  RowBitmap bitmap;
  bitmap.AddRange(10, 20);
  bitmap.Add(65536 + 5);
  bitmap.AddRange(2 * 65536, 2 * 65536 + 100);
  bitmap.Add(3 * 65536 + 7);
  bitmap.RunOptimize();
  EXPECT_EQ(EncodeBitmap(bitmap), kRunFourContainers);
}

TEST(BitmapCodecTest, EncodesTwoArrayContainersExactly) {
  EXPECT_EQ(EncodeBitmap(RowBitmap{0, 65537}), kTwoContainers);
}

TEST(BitmapCodecTest, EncodesBitsetExactly) {
  RowBitmap bitmap;
  for (uint64_t r = 0; r < 10000; r += 2) bitmap.Add(r);
  EXPECT_EQ(EncodeBitmap(bitmap), EvenRowsBitset());
}

TEST(BitmapCodecTest, RoundTripsManyShapes) {
  // A deterministic mix: dense ranges (run/bitset), sparse values (array), several buckets,
  // and the largest row.
  std::set<uint64_t> expected;
  RowBitmap bitmap;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    uint64_t row = ((x >> 40) % 4) << 32 | (x & 0x3FFFF);
    bitmap.Add(row);
    expected.insert(row);
  }
  bitmap.AddRange((uint64_t{2} << 32) - 70000, (uint64_t{2} << 32) + 70000);
  for (uint64_t r = (uint64_t{2} << 32) - 70000; r < (uint64_t{2} << 32) + 70000; ++r) {
    expected.insert(r);
  }
  bitmap.Add(kRowIndexMax);
  expected.insert(kRowIndexMax);
  for (bool optimize : {false, true}) {
    if (optimize) bitmap.RunOptimize();
    const std::string bytes = EncodeBitmap(bitmap);
    Result<RowBitmap> decoded = DecodeBitmap(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_TRUE(*decoded == bitmap);
    EXPECT_EQ(decoded->ToVector(), std::vector<uint64_t>(expected.begin(), expected.end()));
    Result<uint64_t> count = ValidateBitmapBytes(bytes);
    ASSERT_TRUE(count.ok()) << count.status().ToString();
    EXPECT_EQ(*count, expected.size());
  }
}

// ---------------------------------------------------------------------------------------------
// Outer layer corruption

TEST(BitmapCodecTest, BadMagicIsRejected) {
  ExpectRejected(Patched(kThreeRows, 0, {0x00, 0x00, 0x00, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 0: bad magic 0 (expected 1681511377)");
  // 1681511378, one past the portable magic.
  ExpectRejected(Patched(kThreeRows, 0, {0xD2}), StatusCode::kCorrupt, "bad magic 1681511378");
  // The magic read big-endian by mistake.
  ExpectRejected(Patched(kThreeRows, 0, {0x64, 0x39, 0xD3, 0xD1}), StatusCode::kCorrupt,
                 "bad magic");
}

TEST(BitmapCodecTest, NativeMagicIsUnsupported) {
  // 1681511376 = 0x6439D3D0.
  ExpectRejected(Patched(kThreeRows, 0, {0xD0}), StatusCode::kUnsupported,
                 "native RoaringBitmapArray magic 1681511376");
}

TEST(BitmapCodecTest, InputShorterThanHeaderIsRejected) {
  ExpectRejected(kEmpty.substr(0, 11), StatusCode::kCorrupt, "needs at least 12 bytes");
  ExpectRejected("", StatusCode::kCorrupt, "got 0");
}

TEST(BitmapCodecTest, InputAboveSizeLimitIsOverLimit) {
  std::string huge(kDvSizeBytesMax + 1, '\0');
  huge.replace(0, kThreeRows.size(), kThreeRows);
  ExpectRejected(huge, StatusCode::kOverLimit, "exceeds the limit");
}

TEST(BitmapCodecTest, BucketCountTooLargeIsRejected) {
  // 58 bytes hold at most (58-12)/12 = 3 minimal buckets.
  ExpectRejected(Patched(kThreeRows, 4, {0x04}), StatusCode::kCorrupt,
                 "DV bitmap byte 4: bucket count 4 cannot fit in 58 bytes");
  ExpectRejected(Patched(kThreeRows, 4, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}),
                 StatusCode::kCorrupt, "bucket count 18446744073709551615 cannot fit");
  ExpectRejected(Patched(kEmpty, 4, {0x01}), StatusCode::kCorrupt,
                 "bucket count 1 cannot fit in 12 bytes");
}

TEST(BitmapCodecTest, BucketCountAboveActualBucketsIsTruncation) {
  // 3 passes the size bound, but there is no third bucket key.
  ExpectRejected(Patched(kThreeRows, 4, {0x03}), StatusCode::kCorrupt,
                 "DV bitmap byte 58: truncated bucket key");
}

TEST(BitmapCodecTest, BucketCountBelowActualBucketsLeavesTrailingBytes) {
  ExpectRejected(Patched(kThreeRows, 4, {0x01}), StatusCode::kCorrupt,
                 "DV bitmap byte 36: 22 trailing bytes after the last bucket");
}

TEST(BitmapCodecTest, DuplicateBucketKeysAreRejected) {
  ExpectRejected(Patched(kThreeRows, 36, {0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 36: bucket keys not strictly ascending (0 after 0)");
}

TEST(BitmapCodecTest, DescendingBucketKeysAreRejected) {
  ExpectRejected(Patched(Patched(kThreeRows, 12, {0x02}), 36, {0x01}), StatusCode::kCorrupt,
                 "DV bitmap byte 36: bucket keys not strictly ascending (1 after 2)");
}

TEST(BitmapCodecTest, BucketKeyWithTopBitSetIsRejected) {
  // 0x80000000 = 2147483648.
  ExpectRejected(Patched(kThreeRows, 36, {0x00, 0x00, 0x00, 0x80}), StatusCode::kCorrupt,
                 "DV bitmap byte 36: bucket key 2147483648 has its top bit set");
  ExpectRejected(Patched(kThreeRows, 12, {0xFF, 0xFF, 0xFF, 0xFF}), StatusCode::kCorrupt,
                 "DV bitmap byte 12: bucket key 4294967295 has its top bit set");
}

TEST(BitmapCodecTest, RowIndexPastMaximumIsRejected) {
  // High key 0x7FFFFFFF has its top bit clear but every row in it exceeds kRowIndexMax.
  ExpectRejected(
      SingleValue(0x7FFFFFFF, 0, 0), StatusCode::kCorrupt,
      "DV bitmap byte 12: row index 9223372032559808512 exceeds the largest Delta row index");
  // High key 0x7FFFFFFE, low 0x80000001: one past kRowIndexMax.
  ExpectRejected(SingleValue(0x7FFFFFFE, 0x8000, 1), StatusCode::kCorrupt,
                 "DV bitmap byte 12: row index 9223372030412324865 exceeds the largest Delta row "
                 "index");
  // Low 0x80010000, a later container.
  ExpectRejected(SingleValue(0x7FFFFFFE, 0x8001, 0), StatusCode::kCorrupt,
                 "exceeds the largest Delta row index");
}

TEST(BitmapCodecTest, RowIndexPastMaximumInRunContainerIsRejected) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0xFE, 0xFF, 0xFF, 0x7F,                          // 12: high key 0x7FFFFFFE
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x80, 0x01, 0x00,                          // 21: key 0x8000, cardinality-1 = 1
      0x01, 0x00,                                      // 25: 1 run
      0x00, 0x00, 0x01, 0x00,                          // 27: 0..1 -> low 0x80000000..0x80000001
  });
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 12: row index 9223372030412324865 exceeds the largest Delta row "
                 "index");
}

TEST(BitmapCodecTest, RowIndexPastMaximumInBitsetContainerIsRejected) {
  // The even-rows bitset moved to high key 0x7FFFFFFE, container 0x8000: max low 0x8000270E.
  std::string bytes = Patched(EvenRowsBitset(), 12, {0xFE, 0xFF, 0xFF, 0x7F});
  bytes = Patched(bytes, 24, {0x00, 0x80});
  // 0x7FFFFFFE << 32 | 0x8000270E = 9223372030412324864 + 9998.
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 12: row index 9223372030412334862 exceeds the largest Delta row "
                 "index");
}

TEST(BitmapCodecTest, RowIndexPastMaximumInLastOfSeveralContainersIsRejected) {
  // High key 0x7FFFFFFE: container 1 (value 0x00010002, fine) then container 0x8001 (too big).
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0xFE, 0xFF, 0xFF, 0x7F,                          // 12: high key 0x7FFFFFFE
      0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
      0x02, 0x00, 0x00, 0x00,                          // 20: 2 containers
      0x01, 0x00, 0x00, 0x00,                          // 24: key 1, cardinality-1 = 0
      0x01, 0x80, 0x00, 0x00,                          // 28: key 0x8001, cardinality-1 = 0
      0x18, 0x00, 0x00, 0x00,                          // 32: offset 24
      0x1A, 0x00, 0x00, 0x00,                          // 36: offset 26
      0x02, 0x00,                                      // 40: value 2
      0x03, 0x00,                                      // 42: value 3
  });
  // 0x7FFFFFFE << 32 | 0x80010003 = 9223372028264841216 + 2147549187.
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 12: row index 9223372030412390403 exceeds");
  // The same with container 0x8001 -> 0x7FFF (low 0x7FFF0003) is accepted.
  ExpectDecodes(Patched(bytes, 28, {0xFF, 0x7F}), {(uint64_t{0x7FFFFFFE} << 32) | 0x00010002,
                                                   (uint64_t{0x7FFFFFFE} << 32) | 0x7FFF0003});
}

TEST(BitmapCodecTest, BitsetWithTopBitBelowMaximumIsAccepted) {
  // Even rows plus bit 65535 (5001 values, cardinality-1 = 5000 = 0x1388) in high key
  // 0x7FFFFFFE, container 0x7FFF: the largest low is 0x7FFFFFFF < 0x80000000.
  std::string bytes = Patched(EvenRowsBitset(), 12, {0xFE, 0xFF, 0xFF, 0x7F});
  bytes = Patched(bytes, 24, {0xFF, 0x7F, 0x88, 0x13});
  bytes[kBitsetDataAt + 8191] = char(0x80);
  std::vector<uint64_t> rows;
  const uint64_t base = (uint64_t{0x7FFFFFFE} << 32) | 0x7FFF0000;
  for (uint64_t r = 0; r < 10000; r += 2) rows.push_back(base + r);
  rows.push_back(base + 65535);
  ExpectDecodes(bytes, rows);
}

TEST(BitmapCodecTest, EmptyBucketPastMaximumIsAccepted) {
  // An empty bucket with key 0x7FFFFFFF holds no row, so nothing exceeds kRowIndexMax.
  const std::string bytes = SingleValue(0x7FFFFFFE, 0x8000, 0) +
                            Bytes({0xFF, 0xFF, 0xFF, 0x7F,                            // key
                                   0x3A, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});  // empty
  ExpectDecodes(Patched(bytes, 4, {0x02}), {kRowIndexMax});
}

TEST(BitmapCodecTest, TrailingBytesAreRejected) {
  ExpectRejected(kThreeRows + std::string(1, '\0'), StatusCode::kCorrupt,
                 "DV bitmap byte 58: 1 trailing bytes after the last bucket");
  // Twelve more bytes look like an empty bucket, but the count says two.
  ExpectRejected(kThreeRows + Bytes({0x02, 0, 0, 0, 0x3A, 0x30, 0, 0, 0, 0, 0, 0}),
                 StatusCode::kCorrupt, "DV bitmap byte 58: 12 trailing bytes");
  ExpectRejected(kEmpty + "x", StatusCode::kCorrupt, "DV bitmap byte 12: 1 trailing bytes");
}

TEST(BitmapCodecTest, TruncatedAtEveryBytePositionIsRejected) {
  for (const std::string& golden :
       {kThreeRows, kDatabricksRowOne, kRunTenToNineteen, kRunFourContainers, kTwoContainers,
        kEmpty, kEmptyBucketFirst, EvenRowsBitset()}) {
    ASSERT_TRUE(DecodeBitmap(golden).ok());
    for (size_t n = 0; n < golden.size(); ++n) {
      const std::string prefix = golden.substr(0, n);
      Result<RowBitmap> bitmap = DecodeBitmap(prefix);
      ASSERT_FALSE(bitmap.ok()) << "prefix of " << n << " of " << golden.size() << " bytes";
      EXPECT_EQ(bitmap.status().code(), StatusCode::kCorrupt) << n;
      EXPECT_EQ(bitmap.status().message().rfind("DV bitmap byte ", 0), 0u)
          << bitmap.status().message();
      Result<uint64_t> count = ValidateBitmapBytes(prefix);
      ASSERT_FALSE(count.ok()) << n;
      EXPECT_EQ(count.status().message(), bitmap.status().message());
    }
  }
}

TEST(BitmapCodecTest, TruncationMessagesNameWhatIsMissing) {
  // Cuts inside bucket 1's bitmap (it starts at byte 40). With 2 buckets the count bound needs
  // at least 36 bytes, so every prefix below passes it and fails on the named field.
  ExpectRejected(kThreeRows.substr(0, 42), StatusCode::kCorrupt,
                 "DV bitmap byte 40: truncated Roaring cookie: needs 4 bytes, 2 left");
  ExpectRejected(kThreeRows.substr(0, 46), StatusCode::kCorrupt,
                 "DV bitmap byte 40: truncated container count: needs 8 bytes, 6 left");
  ExpectRejected(kThreeRows.substr(0, 50), StatusCode::kCorrupt,
                 "DV bitmap byte 48: truncated container headers: needs 4 bytes, 2 left");
  ExpectRejected(kThreeRows.substr(0, 54), StatusCode::kCorrupt,
                 "DV bitmap byte 52: truncated offset header: needs 4 bytes, 2 left");
  ExpectRejected(kThreeRows.substr(0, 57), StatusCode::kCorrupt,
                 "DV bitmap byte 56: truncated array container: needs 2 bytes, 1 left");
  ExpectRejected(kRunTenToNineteen.substr(0, 30), StatusCode::kCorrupt,
                 "DV bitmap byte 27: truncated runs: needs 4 bytes, 3 left");
  ExpectRejected(kRunTenToNineteen.substr(0, 26), StatusCode::kCorrupt,
                 "DV bitmap byte 25: truncated run count: needs 2 bytes, 1 left");
  ExpectRejected(EvenRowsBitset().substr(0, 8223), StatusCode::kCorrupt,
                 "DV bitmap byte 32: truncated bitset container: needs 8192 bytes, 8191 left");
}

// ---------------------------------------------------------------------------------------------
// 32-bit Roaring header corruption

TEST(BitmapCodecTest, UnknownCookieIsRejected) {
  ExpectRejected(Patched(kThreeRows, 16, {0x39, 0x30}), StatusCode::kCorrupt,
                 "DV bitmap byte 16: unknown Roaring cookie 12345");
  // 12346 with nonzero upper 16 bits is not the no-run cookie: 0x0001303A = 77882.
  ExpectRejected(Patched(kThreeRows, 40, {0x3A, 0x30, 0x01, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 40: unknown Roaring cookie 77882");
  // The cookie read big-endian by mistake: 0x3A300000.
  ExpectRejected(Patched(kThreeRows, 16, {0x00, 0x00, 0x30, 0x3A}), StatusCode::kCorrupt,
                 "unknown Roaring cookie");
}

TEST(BitmapCodecTest, ContainerCountAbove65536IsRejected) {
  const std::string header = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3A, 0x30, 0x00, 0x00,                          // 16: cookie 12346
  });
  // 65537 = 0x00010001.
  ExpectRejected(header + Bytes({0x01, 0x00, 0x01, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 20: container count 65537 exceeds 65536");
  // A "negative" int32 count.
  ExpectRejected(header + Bytes({0xFF, 0xFF, 0xFF, 0xFF}), StatusCode::kCorrupt,
                 "container count 4294967295 exceeds 65536");
  // 65536 itself passes this check and fails on the missing headers.
  ExpectRejected(header + Bytes({0x00, 0x00, 0x01, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 24: truncated container headers: needs 262144 bytes, 0 left");
}

TEST(BitmapCodecTest, DuplicateContainerKeysAreRejected) {
  ExpectRejected(Patched(kTwoContainers, 28, {0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 28: container 1 (key 0): container keys not strictly ascending");
}

TEST(BitmapCodecTest, DescendingContainerKeysAreRejected) {
  ExpectRejected(Patched(Patched(kTwoContainers, 24, {0x05}), 28, {0x04}), StatusCode::kCorrupt,
                 "DV bitmap byte 28: container 1 (key 4): container keys not strictly ascending");
  // In the run format: container 2's key (byte 29) set to 1, equal to container 1's.
  ExpectRejected(Patched(kRunFourContainers, 29, {0x01}), StatusCode::kCorrupt,
                 "DV bitmap byte 29: container 2 (key 1): container keys not strictly ascending");
}

TEST(BitmapCodecTest, WrongOffsetHeaderIsRejected) {
  ExpectRejected(
      Patched(kThreeRows, 28, {0x11}), StatusCode::kCorrupt,
      "DV bitmap byte 28: container 0 (key 0): offset 17 does not point at its data (16)");
  ExpectRejected(
      Patched(kTwoContainers, 36, {0x18}), StatusCode::kCorrupt,
      "DV bitmap byte 36: container 1 (key 1): offset 24 does not point at its data (26)");
  // Run format, container 2's offset (byte 45) 45 -> 46.
  ExpectRejected(
      Patched(kRunFourContainers, 45, {0x2E}), StatusCode::kCorrupt,
      "DV bitmap byte 45: container 2 (key 2): offset 46 does not point at its data (45)");
  // An offset counted from the start of the whole input instead of the 32-bit bitmap.
  ExpectRejected(Patched(kThreeRows, 28, {0x20}), StatusCode::kCorrupt,
                 "offset 32 does not point at its data (16)");
}

// ---------------------------------------------------------------------------------------------
// Container data corruption

TEST(BitmapCodecTest, UnsortedArrayIsRejected) {
  ExpectRejected(Patched(kThreeRows, 32, {0x05, 0x00, 0x00, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 34: container 0 (key 0): array values not strictly ascending");
}

TEST(BitmapCodecTest, DuplicateArrayValuesAreRejected) {
  ExpectRejected(Patched(kThreeRows, 32, {0x05, 0x00}), StatusCode::kCorrupt,
                 "DV bitmap byte 34: container 0 (key 0): array values not strictly ascending");
}

TEST(BitmapCodecTest, BitsetWithMissingBitIsRejected) {
  // Clear row 0's bit: 4999 bits set, header says 5000.
  std::string bytes = EvenRowsBitset();
  bytes[kBitsetDataAt] = char(0x54);
  ExpectRejected(
      bytes, StatusCode::kCorrupt,
      "DV bitmap byte 32: container 0 (key 0): bitset holds 4999 values, header says 5000");
}

TEST(BitmapCodecTest, BitsetWithExtraBitIsRejected) {
  // Set bit 65535, the very last one.
  std::string bytes = EvenRowsBitset();
  bytes[kBitsetDataAt + 8191] = char(0x80);
  ExpectRejected(bytes, StatusCode::kCorrupt, "bitset holds 5001 values, header says 5000");
}

TEST(BitmapCodecTest, OverlappingRunsAreRejected) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x00, 0x0A, 0x00,                          // 21: key 0, cardinality-1 = 10
      0x02, 0x00,                                      // 25: 2 runs
      0x0A, 0x00, 0x09, 0x00,                          // 27: 10..19
      0x0F, 0x00, 0x00, 0x00,                          // 31: 15..15, inside the first run
  });
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 31: container 0 (key 0): runs overlap or are out of order");
}

TEST(BitmapCodecTest, RunsOutOfOrderAreRejected) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x00, 0x01, 0x00,                          // 21: key 0, cardinality-1 = 1
      0x02, 0x00,                                      // 25: 2 runs
      0x14, 0x00, 0x00, 0x00,                          // 27: 20..20
      0x0A, 0x00, 0x00, 0x00,                          // 31: 10..10, before the first run
  });
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 31: container 0 (key 0): runs overlap");
}

TEST(BitmapCodecTest, RunPast65535IsRejected) {
  const std::string bytes = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          //  0: magic
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //  4: 1 bucket
      0x00, 0x00, 0x00, 0x00,                          // 12: high key 0
      0x3B, 0x30, 0x00, 0x00,                          // 16: cookie 12347, 1 container
      0x01,                                            // 20: container 0 is a run
      0x00, 0x00, 0x0A, 0x00,                          // 21: key 0, cardinality-1 = 10
      0x01, 0x00,                                      // 25: 1 run
      0xFA, 0xFF, 0x0A, 0x00,                          // 27: 65530..65540
  });
  ExpectRejected(bytes, StatusCode::kCorrupt,
                 "DV bitmap byte 27: container 0 (key 0): run ends past 65535");
}

TEST(BitmapCodecTest, RunCardinalityMismatchIsRejected) {
  // Header says 11 values (cardinality-1 = 10 at byte 23); the run holds 10.
  ExpectRejected(Patched(kRunTenToNineteen, 23, {0x0A}), StatusCode::kCorrupt,
                 "DV bitmap byte 27: container 0 (key 0): runs hold 10 values, header says 11");
  // And fewer: header says 9.
  ExpectRejected(Patched(kRunTenToNineteen, 23, {0x08}), StatusCode::kCorrupt,
                 "runs hold 10 values, header says 9");
}

TEST(BitmapCodecTest, RunContainerWithNoRunsIsRejected) {
  ExpectRejected(Patched(kRunTenToNineteen, 25, {0x00}).substr(0, 27), StatusCode::kCorrupt,
                 "DV bitmap byte 25: container 0 (key 0): run container with no runs");
}

TEST(BitmapCodecTest, RunFlagOnArrayDataIsRejected) {
  // Flags 0x07 also mark container 1 (the array {5} at byte 59) as a run: its value 5 is read as
  // a run count, and 5 runs need 20 bytes where 8 are left.
  ExpectRejected(Patched(kRunFourContainers, 20, {0x07}), StatusCode::kCorrupt,
                 "DV bitmap byte 61: truncated runs: needs 20 bytes, 8 left");
}

}  // namespace
}  // namespace rlc::dv
