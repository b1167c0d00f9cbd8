#include "impl/delta/deletion_vector_loader.h"

#include <gtest/gtest.h>

#include "impl/dv/dv_file.h"
#include "impl/dv/z85.h"

namespace rlc::delta {
namespace {

// {0, 5, 2^32 + 7} in the portable layout, written out by hand
// (docs/toolchain.md#delta-dv-layout).
const std::string kPayload = std::string(
    "\xd1\xd3\x39\x64"                  // magic 1681511377
    "\x02\x00\x00\x00\x00\x00\x00\x00"  // 2 buckets
    "\x00\x00\x00\x00"                  // high key 0
    "\x3a\x30\x00\x00\x01\x00\x00\x00"  // cookie 12346, 1 container
    "\x00\x00\x01\x00"                  // key 0, cardinality - 1 = 1
    "\x10\x00\x00\x00"                  // offset 16
    "\x00\x00\x05\x00"                  // values 0, 5
    "\x01\x00\x00\x00"                  // high key 1
    "\x3a\x30\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x07\x00",  // value 7
    58);

// A DV file: version 1, then the record: big-endian size 58, payload, big-endian CRC-32.
std::string DvFile(uint32_t crc) {
  std::string f("\x01\x00\x00\x00\x3a", 5);
  f += kPayload;
  for (int i = 3; i >= 0; --i) f.push_back(char((crc >> (8 * i)) & 0xFF));
  return f;
}

constexpr uint32_t kPayloadCrc =
    0xCC962B22;  // CRC-32 of kPayload, computed with Python's zlib.crc32

dv::DvDescriptor FileDescriptor(int64_t cardinality = 3) {
  dv::DvDescriptor d;
  d.storage_type = 'u';
  d.path_or_inline_dv = *dv::UuidPathOrInlineDv("", "00000000-0000-0000-0000-000000000001");
  d.offset = 1;
  d.size_bytes = 58;
  d.cardinality = cardinality;
  return d;
}

TEST(DeletionVectorLoader, CrcOfThePayload) {
  // Pins kPayloadCrc with zlib directly, independent of the loader.
  EXPECT_EQ(dv::Crc32(kPayload), kPayloadCrc);
}

TEST(DeletionVectorLoader, ReadsAUuidFile) {
  storage::InMemoryStorage s;
  ASSERT_TRUE(s.PutIfAbsent("/t/deletion_vector_00000000-0000-0000-0000-000000000001.bin",
                            DvFile(kPayloadCrc))
                  .ok());
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", FileDescriptor());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->ToVector(), (std::vector<uint64_t>{0, 5, (uint64_t{1} << 32) + 7}));
}

TEST(DeletionVectorLoader, ReadsAnInlineDv) {
  dv::DvDescriptor d;
  d.storage_type = 'i';
  d.path_or_inline_dv = dv::Z85Encode(kPayload);
  d.size_bytes = 58;
  d.cardinality = 3;
  storage::InMemoryStorage s;
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->Cardinality(), 3u);
}

TEST(DeletionVectorLoader, CardinalityMismatchIsCorrupt) {
  storage::InMemoryStorage s;
  ASSERT_TRUE(s.PutIfAbsent("/t/deletion_vector_00000000-0000-0000-0000-000000000001.bin",
                            DvFile(kPayloadCrc))
                  .ok());
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", FileDescriptor(4));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(b.status().message().find("cardinality is 4 but the bitmap holds 3 rows"),
            std::string::npos);
}

TEST(DeletionVectorLoader, ChecksumMismatchNamesFileAndOffset) {
  storage::InMemoryStorage s;
  ASSERT_TRUE(s.PutIfAbsent("/t/deletion_vector_00000000-0000-0000-0000-000000000001.bin",
                            DvFile(kPayloadCrc ^ 1))
                  .ok());
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", FileDescriptor());
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("deletion_vector_00000000-0000-0000-0000-000000000001.bin"),
            std::string::npos);
  EXPECT_NE(b.status().message().find("record at offset 1: checksum mismatch"), std::string::npos);
}

TEST(DeletionVectorLoader, MissingFileIsNotFoundWithThePath) {
  storage::InMemoryStorage s;
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", FileDescriptor());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kNotFound);
  EXPECT_NE(b.status().message().find(
                "DV file not found: /t/deletion_vector_00000000-0000-0000-0000-000000000001.bin"),
            std::string::npos);
}

TEST(DeletionVectorLoader, FileNamePrefixIsHonoured) {
  storage::InMemoryStorage s;
  ASSERT_TRUE(
      s.PutIfAbsent("/t/test%dv%prefix-deletion_vector_00000000-0000-0000-0000-000000000001.bin",
                    DvFile(kPayloadCrc))
          .ok());
  DvLoadOptions options;
  options.file_name_prefix = "test%dv%prefix-";
  EXPECT_TRUE(LoadDeletionVector(s, "/t", FileDescriptor(), options).ok());
  EXPECT_FALSE(LoadDeletionVector(s, "/t", FileDescriptor()).ok());
}

TEST(DeletionVectorLoader, SizeMismatchIsCorrupt) {
  storage::InMemoryStorage s;
  ASSERT_TRUE(s.PutIfAbsent("/t/deletion_vector_00000000-0000-0000-0000-000000000001.bin",
                            DvFile(kPayloadCrc))
                  .ok());
  dv::DvDescriptor d = FileDescriptor();
  d.size_bytes = 57;
  Result<dv::RowBitmap> b = LoadDeletionVector(s, "/t", d);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("size mismatch"), std::string::npos);
}

}  // namespace
}  // namespace rlc::delta
