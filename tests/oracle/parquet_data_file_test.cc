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

// Every other Delta primitive type the model draws, at its edges, read back by the simulator's
// codec (decimals and binaries asked for as stored) and by the oracle's own reader: the same
// values, so that neither reading can hide the other's error.
TEST(ParquetDataFile, EveryPrimitiveTypeReadsBackTheSameOnBothPaths) {
  using T = RowFileColumn::Type;
  RowFile f;
  f.columns = {{"b", T::kBoolean},   {"i8", T::kByte},         {"i16", T::kShort},
               {"i32", T::kInteger}, {"f", T::kFloat},         {"dec", T::kDecimal},
               {"bin", T::kBinary},  {"ntz", T::kTimestampNtz}};
  const double tiny = static_cast<double>(1.1F);
  f.rows.push_back({int64_t{1}, int64_t{-128}, int64_t{32767}, int64_t{-2147483648}, tiny,
                    int64_t{-9999999999},
                    std::string("\xff\x00"
                                "a",
                                3),
                    int64_t{-1}});
  f.rows.push_back({int64_t{0}, int64_t{127}, std::nullopt, int64_t{2147483647}, -0.0, int64_t{5},
                    std::string(), int64_t{1710028800000999}});
  f.rows.push_back({std::nullopt, std::nullopt, int64_t{-32768}, std::nullopt, std::nullopt,
                    std::nullopt, std::nullopt, std::nullopt});
  rlc::Result<std::string> bytes = rlc::simulator::EncodeDataFile(f, DataFileFormat::kParquet, {});
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  rlc::Result<RowFile> back =
      rlc::simulator::DecodeDataFile("t.parquet", *bytes, f.columns, {}, {});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, f);
  rlc::oracle::ParquetColumnsAndRows read;
  std::string why;
  ASSERT_TRUE(rlc::oracle::ReadParquetRows("t.parquet", *bytes, &read, &why)) << why;
  ASSERT_FALSE(read.unsupported_column) << why;
  ASSERT_EQ(read.rows.size(), 3u);
  const auto& first = read.rows[0].items;
  EXPECT_EQ(first[0].kind, rlc::oracle::json::Value::Kind::kTrue);
  EXPECT_EQ(first[1].Int(), -128);
  EXPECT_EQ(first[3].Int(), -2147483648);
  EXPECT_EQ(first[4].text, "1.100000023841858");  // the float widened, as the row file holds it
  EXPECT_EQ(first[5].Int(), -9999999999);         // decimal(10,2): the unscaled value
  EXPECT_EQ(first[6].text, "ff0061");             // binary: hexadecimal, as the row file
  EXPECT_EQ(first[7].Int(), -1);                  // a wall clock's microseconds
  EXPECT_TRUE(read.rows[2].items[0].is_null());
  EXPECT_EQ(read.rows[1].items[6].text, "");
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
