// Tests for impl/dv/dv_file.h: a hand-written two-record DV file and one test per framing check.
//
// Layout (docs/formats.md#a6; all numbers big-endian): byte 0 = version 1, then per record a u32
// dataSize, the payload, and the u32 CRC-32 (zlib) of the payload. A descriptor offset points at
// the record's dataSize; the first record is at offset 1.
//
// The CRCs below were computed outside this code (Python's zlib.crc32) and are written literally:
//   crc32(kPayloadA, 34 bytes) = 0xEEBD85F4 = 4005398004
//   crc32(kPayloadB, 58 bytes) = 0xCC962B22 = 3432393506
#include "impl/dv/dv_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "impl/dv/bitmap_codec.h"

namespace rlc::dv {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(char(uint8_t(v)));
  return out;
}

// The bitmap {1} (the Databricks single-row payload, docs/toolchain.md#databricks-single-row).
const std::string kPayloadA = Bytes({
    0xD1, 0xD3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // magic, 1 bucket
    0x00, 0x00, 0x00, 0x00,                                                  // high key 0
    0x3A, 0x30, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,                          // cookie, 1 container
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,                          // key 0 card 1, off 16
    0x01, 0x00,                                                              // value 1
});                                                                          // 34 bytes

// The bitmap {0, 5, 2^32+7} (the 58-byte example of docs/toolchain.md#delta-dv-layout).
const std::string kPayloadB = Bytes({
    0xD1, 0xD3, 0x39, 0x64, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // magic, 2 buckets
    0x00, 0x00, 0x00, 0x00,                                                  // high key 0
    0x3A, 0x30, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,                          // cookie, 1 container
    0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00,                          // key 0 card 2, off 16
    0x00, 0x00, 0x05, 0x00,                                                  // values 0, 5
    0x01, 0x00, 0x00, 0x00,                                                  // high key 1
    0x3A, 0x30, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,                          // cookie, 1 container
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,                          // key 0 card 1, off 16
    0x07, 0x00,                                                              // value 7
});                                                                          // 58 bytes

constexpr uint64_t kOffsetA = 1;
constexpr uint64_t kOffsetB = 1 + 4 + 34 + 4;  // 43

// version | size A | A | crc A | size B | B | crc B  = 1 + 42 + 66 = 109 bytes.
const std::string kFile = Bytes({0x01})                       // byte 0: version 1
                          + Bytes({0x00, 0x00, 0x00, 0x22})   // byte 1: dataSize 34
                          + kPayloadA                         // bytes 5..38
                          + Bytes({0xEE, 0xBD, 0x85, 0xF4})   // bytes 39..42: CRC of A
                          + Bytes({0x00, 0x00, 0x00, 0x3A})   // byte 43: dataSize 58
                          + kPayloadB                         // bytes 47..104
                          + Bytes({0xCC, 0x96, 0x2B, 0x22});  // bytes 105..108: CRC of B

void ExpectError(const Result<std::string_view>& r, StatusCode code, const std::string& reason) {
  ASSERT_FALSE(r.ok()) << "expected failure containing '" << reason << "'";
  EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  EXPECT_NE(r.status().message().find(reason), std::string::npos)
      << "message '" << r.status().message() << "' lacks '" << reason << "'";
}

// ---------------------------------------------------------------------------------------------
// CRC-32

TEST(DvFileTest, Crc32StandardCheckValue) {
  // The CRC-32 (ISO-HDLC / zlib) check value.
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
}

TEST(DvFileTest, Crc32KnownValues) {
  EXPECT_EQ(Crc32(""), 0u);
  EXPECT_EQ(Crc32("a"), 0xE8B7BE43u);
  EXPECT_EQ(Crc32(kPayloadA), 0xEEBD85F4u);
  EXPECT_EQ(Crc32(kPayloadB), 0xCC962B22u);
}

// ---------------------------------------------------------------------------------------------
// Writing

TEST(DvFileTest, EncodesTwoRecordsExactly) {
  ASSERT_EQ(kFile.size(), 109u);
  std::vector<uint32_t> offsets;
  EXPECT_EQ(EncodeDvFile({kPayloadA, kPayloadB}, &offsets), kFile);
  EXPECT_EQ(offsets, (std::vector<uint32_t>{1, 43}));
}

TEST(DvFileTest, EncodesWithoutOffsets) {
  EXPECT_EQ(EncodeDvFile({kPayloadA, kPayloadB}, nullptr), kFile);
}

TEST(DvFileTest, EncodesEmptyFileAndEmptyRecord) {
  EXPECT_EQ(EncodeDvFile({}, nullptr), Bytes({0x01}));
  std::vector<uint32_t> offsets;
  // One empty payload: size 0 and CRC 0.
  EXPECT_EQ(EncodeDvFile({""}, &offsets), Bytes({0x01, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(offsets, (std::vector<uint32_t>{1}));
}

TEST(DvFileTest, OffsetsAreAppendedToExistingEntries) {
  std::vector<uint32_t> offsets = {99};
  (void)EncodeDvFile({kPayloadA}, &offsets);
  EXPECT_EQ(offsets, (std::vector<uint32_t>{99, 1}));
}

// ---------------------------------------------------------------------------------------------
// Reading

TEST(DvFileTest, ReadsBothRecords) {
  Result<std::string_view> a = ReadDvRecordFromFileBytes(kFile, kOffsetA, 34);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(*a, kPayloadA);
  Result<std::string_view> b = ReadDvRecordFromFileBytes(kFile, kOffsetB, 58);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(*b, kPayloadB);
  // The payload is a view into the file, not a copy.
  EXPECT_EQ(b->data(), kFile.data() + 47);
  // And each decodes to its bitmap.
  Result<RowBitmap> rows = DecodeBitmap(*b);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->ToVector(), (std::vector<uint64_t>{0, 5, (uint64_t{1} << 32) + 7}));
}

TEST(DvFileTest, ReadsEmptyRecord) {
  const std::string file = Bytes({0x01, 0, 0, 0, 0, 0, 0, 0, 0});
  Result<std::string_view> r = ReadDvRecordFromFileBytes(file, 1, 0);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->empty());
}

TEST(DvFileTest, ParsesRecordDirectly) {
  const std::string_view record = std::string_view(kFile).substr(kOffsetB, 4 + 58 + 4);
  Result<std::string_view> r = ParseDvRecord(record, kOffsetB, 58);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, kPayloadB);
  EXPECT_EQ(r->data(), record.data() + 4);
}

// ---------------------------------------------------------------------------------------------
// Version byte

TEST(DvFileTest, VersionByteNotOneIsRejected) {
  std::string file = kFile;
  file[0] = char(2);
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetA, 34), StatusCode::kCorrupt,
              "DV file byte 0: version 2 (expected 1)");
  file[0] = char(0);
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetA, 34), StatusCode::kCorrupt,
              "DV file byte 0: version 0 (expected 1)");
  file[0] = char(0xFF);
  EXPECT_EQ(CheckDvFileVersion(file).message(), "DV file byte 0: version 255 (expected 1)");
}

TEST(DvFileTest, EmptyFileIsRejected) {
  ExpectError(ReadDvRecordFromFileBytes("", 1, 0), StatusCode::kCorrupt,
              "DV file byte 0: the file is empty");
  EXPECT_EQ(CheckDvFileVersion("").code(), StatusCode::kCorrupt);
}

TEST(DvFileTest, CheckVersionAcceptsOne) {
  EXPECT_TRUE(CheckDvFileVersion(Bytes({0x01})).ok());
  EXPECT_TRUE(CheckDvFileVersion(kFile).ok());
}

// ---------------------------------------------------------------------------------------------
// Offsets

TEST(DvFileTest, OffsetPastEndIsRejected) {
  ExpectError(ReadDvRecordFromFileBytes(kFile, 110, 34), StatusCode::kCorrupt,
              "DV file offset 110 is outside the 109-byte file");
  ExpectError(ReadDvRecordFromFileBytes(kFile, uint64_t{1} << 40, 34), StatusCode::kCorrupt,
              "DV file offset 1099511627776 is outside the 109-byte file");
}

TEST(DvFileTest, OffsetZeroIsRejected) {
  // Byte 0 is the version, never a record.
  ExpectError(ReadDvRecordFromFileBytes(kFile, 0, 34), StatusCode::kCorrupt,
              "DV file offset 0 is outside the 109-byte file");
}

TEST(DvFileTest, OffsetAtEndOfFileIsTruncated) {
  ExpectError(ReadDvRecordFromFileBytes(kFile, 109, 34), StatusCode::kCorrupt,
              "DV file record at offset 109: truncated before its size field");
  ExpectError(ReadDvRecordFromFileBytes(kFile, 106, 34), StatusCode::kCorrupt,
              "DV file record at offset 106: truncated before its size field");
}

TEST(DvFileTest, OffsetIntoTheMiddleOfARecordIsASizeMismatch) {
  // At offset 2 the size field reads 00 00 22 D1 = 8913.
  ExpectError(ReadDvRecordFromFileBytes(kFile, 2, 34), StatusCode::kCorrupt,
              "DV file record at offset 2: size mismatch: the record says 8913 bytes, the "
              "descriptor says 34");
}

// ---------------------------------------------------------------------------------------------
// Size, truncation, checksum

TEST(DvFileTest, SizeMismatchIsRejected) {
  ExpectError(ReadDvRecordFromFileBytes(kFile, kOffsetA, 33), StatusCode::kCorrupt,
              "DV file record at offset 1: size mismatch: the record says 34 bytes, the "
              "descriptor says 33");
  ExpectError(ReadDvRecordFromFileBytes(kFile, kOffsetB, 34), StatusCode::kCorrupt,
              "DV file record at offset 43: size mismatch: the record says 58 bytes, the "
              "descriptor says 34");
}

TEST(DvFileTest, SizeFieldReadLittleEndianWouldMismatch) {
  // A writer that used little-endian sizes: 22 00 00 00 = 570425344.
  std::string file = kFile;
  file.replace(1, 4, Bytes({0x22, 0x00, 0x00, 0x00}));
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetA, 34), StatusCode::kCorrupt,
              "the record says 570425344 bytes, the descriptor says 34");
}

TEST(DvFileTest, TruncatedRecordIsRejected) {
  // One byte short of record B's CRC: 65 of 66 bytes.
  ExpectError(ReadDvRecordFromFileBytes(kFile.substr(0, 108), kOffsetB, 58), StatusCode::kCorrupt,
              "DV file record at offset 43: truncated: needs 66 bytes, the file has 65");
  // Cut inside the payload.
  ExpectError(ReadDvRecordFromFileBytes(kFile.substr(0, 60), kOffsetB, 58), StatusCode::kCorrupt,
              "DV file record at offset 43: truncated: needs 66 bytes, the file has 17");
  // Every cut of the file from offset 47 on fails for record B; record A still reads.
  for (size_t n = kOffsetB + 4; n < kFile.size(); ++n) {
    const std::string cut = kFile.substr(0, n);
    ASSERT_FALSE(ReadDvRecordFromFileBytes(cut, kOffsetB, 58).ok()) << n;
    EXPECT_TRUE(ReadDvRecordFromFileBytes(cut, kOffsetA, 34).ok()) << n;
  }
}

TEST(DvFileTest, ParseRecordOfWrongLengthIsRejected) {
  // ParseDvRecord wants exactly size + 8 bytes.
  const std::string_view file = kFile;
  ExpectError(ParseDvRecord(file.substr(kOffsetA, 41), kOffsetA, 34), StatusCode::kCorrupt,
              "DV file record at offset 1: truncated: needs 42 bytes, the file has 41");
  ExpectError(ParseDvRecord(file.substr(kOffsetA, 3), kOffsetA, 34), StatusCode::kCorrupt,
              "DV file record at offset 1: truncated before its size field");
  EXPECT_FALSE(ParseDvRecord(file.substr(kOffsetA, 43), kOffsetA, 34).ok());
}

TEST(DvFileTest, CrcMismatchInStoredCrcIsRejected) {
  // Record B's stored CRC 0xCC962B22 -> 0xCC962B23.
  std::string file = kFile;
  file[108] = char(0x23);
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetB, 58), StatusCode::kCorrupt,
              "DV file record at offset 43: checksum mismatch: stored 3432393507, computed "
              "3432393506");
  // Record A's stored CRC 0xEEBD85F4 -> 0xEEBD85F5.
  file = kFile;
  file[42] = char(0xF5);
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetA, 34), StatusCode::kCorrupt,
              "DV file record at offset 1: checksum mismatch: stored 4005398005, computed "
              "4005398004");
}

TEST(DvFileTest, CrcMismatchInPayloadIsRejected) {
  // Record B's value 7 (file byte 103) -> 8.
  std::string file = kFile;
  ASSERT_EQ(file[103], char(0x07));
  file[103] = char(0x08);
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetB, 58), StatusCode::kCorrupt,
              "DV file record at offset 43: checksum mismatch: stored 3432393506");
  // Record A is untouched.
  EXPECT_TRUE(ReadDvRecordFromFileBytes(file, kOffsetA, 34).ok());
}

TEST(DvFileTest, CrcStoredLittleEndianIsRejected) {
  std::string file = kFile;
  file.replace(105, 4, Bytes({0x22, 0x2B, 0x96, 0xCC}));
  // 22 2B 96 CC read big-endian = 0x222B96CC
  //   = 34*2^24 + 43*2^16 + 150*2^8 + 204 = 570425344 + 2818048 + 38400 + 204 = 573281996.
  ExpectError(ReadDvRecordFromFileBytes(file, kOffsetB, 58), StatusCode::kCorrupt,
              "checksum mismatch: stored 573281996, computed 3432393506");
}

TEST(DvFileTest, SizeAboveLimitIsOverLimit) {
  ExpectError(ReadDvRecordFromFileBytes(kFile, kOffsetA, (uint64_t{1} << 30) + 1),
              StatusCode::kOverLimit, "DV file record at offset 1: sizeInBytes 1073741825 exceeds");
  ExpectError(ParseDvRecord(std::string_view(kFile).substr(1), 1, ~uint64_t{0}),
              StatusCode::kOverLimit, "exceeds the limit");
}

}  // namespace
}  // namespace rlc::dv
