// The simulator's Parquet data files, read two ways: the simulator's codec (through impl/parquet)
// round-trips its rows, partition columns left out of the file and restored from the add; the
// oracle's own reader (fuzz/oracle/reference_parquet.h, Parquet C++'s column readers) reads the
// same physical rows from the same bytes, across row groups; both name the file when the bytes
// are not Parquet.
#include <gtest/gtest.h>

#include "fuzz/oracle/reference_parquet.h"
#include "fuzz/simulator/row_file.h"

namespace {

using rlc::simulator::DataFileFormat;
using rlc::simulator::RowFile;
using rlc::simulator::RowFileColumn;

// _rid, id and part (the partition column), ten rows: more than one row group (four rows each).
RowFile TenRows() {
  RowFile f;
  f.columns = {{"_rid", RowFileColumn::Type::kLong},
               {"id", RowFileColumn::Type::kLong},
               {"part", RowFileColumn::Type::kString},
               {"note", RowFileColumn::Type::kString}};
  for (int64_t i = 0; i < 10; ++i) {
    rlc::simulator::RowFileValue note = std::string("n'") + std::to_string(i) + "\"";
    if (i == 5) note = std::nullopt;
    f.rows.push_back(
        {100 + i, i == 9 ? int64_t{-9223372036854775807 - 1} : i, std::string("a"), note});
  }
  return f;
}

TEST(ParquetDataFile, RoundTripsWithThePartitionColumnFromTheAdd) {
  const RowFile f = TenRows();
  rlc::Result<std::string> bytes =
      rlc::simulator::EncodeDataFile(f, DataFileFormat::kParquet, {"part"});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(bytes->substr(0, 4), "PAR1");
  rlc::Result<RowFile> back =
      rlc::simulator::DecodeDataFile("p.parquet", *bytes, f.columns, {"part"}, {{"part", "a"}});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, f);
  // The partition value comes from the add, not the file.
  rlc::Result<RowFile> other =
      rlc::simulator::DecodeDataFile("p.parquet", *bytes, f.columns, {"part"}, {{"part", "b"}});
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(std::get<std::string>(*other->rows[0][2]), "b");
}

TEST(ParquetDataFile, TheOracleReadsTheSameRowsOnItsOwnPath) {
  const RowFile f = TenRows();
  rlc::Result<std::string> bytes =
      rlc::simulator::EncodeDataFile(f, DataFileFormat::kParquet, {"part"});
  ASSERT_TRUE(bytes.ok());
  rlc::oracle::ParquetColumnsAndRows read;
  std::string why;
  ASSERT_TRUE(rlc::oracle::ReadParquetRows("p.parquet", *bytes, &read, &why)) << why;
  EXPECT_EQ(read.columns, (std::vector<std::string>{"_rid", "id", "note"}));
  ASSERT_EQ(read.rows.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    const auto& items = read.rows[i].items;
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].Int(), 100 + static_cast<int64_t>(i));
    EXPECT_EQ(items[1].Int(), std::get<int64_t>(*f.rows[i][1]));
    if (i == 5) {
      EXPECT_TRUE(items[2].is_null());
    } else {
      EXPECT_EQ(items[2].text, std::get<std::string>(*f.rows[i][3]));
    }
  }
}

TEST(ParquetDataFile, BytesThatAreNotParquetNameTheFile) {
  rlc::Result<std::string> bytes =
      rlc::simulator::EncodeDataFile(TenRows(), DataFileFormat::kParquet, {"part"});
  ASSERT_TRUE(bytes.ok());
  const std::string cut = bytes->substr(0, bytes->size() / 2);
  rlc::Result<RowFile> ours = rlc::simulator::DecodeDataFile(
      "t/cut.parquet", cut, TenRows().columns, {"part"}, {{"part", "a"}});
  ASSERT_FALSE(ours.ok());
  EXPECT_EQ(ours.status().code(), rlc::StatusCode::kCorrupt);
  EXPECT_NE(ours.status().message().find("t/cut.parquet"), std::string::npos);
  rlc::oracle::ParquetColumnsAndRows read;
  std::string why;
  EXPECT_FALSE(rlc::oracle::ReadParquetRows("t/cut.parquet", cut, &read, &why));
  EXPECT_NE(why.find("t/cut.parquet"), std::string::npos) << why;
}

TEST(ParquetDataFile, APartitionValueOfTheWrongTypeIsCorrupt) {
  RowFile f;
  f.columns = {{"_rid", RowFileColumn::Type::kLong}, {"day", RowFileColumn::Type::kLong}};
  f.rows.push_back({int64_t{1}, int64_t{7}});
  rlc::Result<std::string> bytes =
      rlc::simulator::EncodeDataFile(f, DataFileFormat::kParquet, {"day"});
  ASSERT_TRUE(bytes.ok());
  rlc::Result<RowFile> bad =
      rlc::simulator::DecodeDataFile("d.parquet", *bytes, f.columns, {"day"}, {{"day", "seven"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("day"), std::string::npos);
  rlc::Result<RowFile> missing =
      rlc::simulator::DecodeDataFile("d.parquet", *bytes, f.columns, {"day"}, {});
  EXPECT_FALSE(missing.ok());
  rlc::Result<RowFile> good =
      rlc::simulator::DecodeDataFile("d.parquet", *bytes, f.columns, {"day"}, {{"day", "7"}});
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, f);
}

}  // namespace
