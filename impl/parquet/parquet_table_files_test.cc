// The row reader's partition values: one reading with the statistics tier (partition_value.h).
// A real Parquet data file of one column, under a table whose partition column is of each type:
// an exact value is every row's, a value that is not one (a zone-less timestamp, an unknown
// spelling) leaves the file's rows unread with an error naming the file, the column and why.
#include "impl/parquet/parquet_table_files.h"

#include <gtest/gtest.h>

#include "impl/parquet/parquet_writer.h"
#include "impl/predicate/datetime.h"
#include "impl/storage/storage.h"

namespace rlc::parquet {
namespace {

using predicate::Literal;

constexpr char kRoot[] = "/t";

// A table of `id long` and a partition column `p` of `type`; one data file of ids 1 and 2.
class PartitionedTable {
 public:
  explicit PartitionedTable(const std::string& type) {
    metadata_.id = "m";
    metadata_.schema_string =
        R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
        R"({"name":"p","type":")" +
        type + R"(","nullable":true,"metadata":{}}]})";
    metadata_.partition_columns = {"p"};
    Result<std::string> bytes = WriteParquetRows({{"id", WrittenColumn::Type::kLong}},
                                                 {{Literal::Long(1)}, {Literal::Long(2)}});
    EXPECT_TRUE(bytes.ok());
    EXPECT_TRUE(storage_.PutIfAbsent(std::string(kRoot) + "/f.parquet", *bytes).ok());
  }

  // Every row's value of `p` when the file's add says `value` (and, with `again`, a later add of
  // the same path says that), or the scan's error.
  Result<std::vector<Literal>> PartitionOfRows(std::optional<std::string> value,
                                               std::optional<std::string> again = std::nullopt) {
    ParquetTableFiles files(storage_, kRoot, metadata_);
    delta::AddFile add;
    add.path = "f.parquet";
    add.partition_values = {{"p", std::move(value)}};
    files.AddDataFile(add);
    if (again.has_value()) {
      add.partition_values = {{"p", std::move(again)}};
      files.AddDataFile(add);
    }
    std::vector<Literal> seen;
    const Status scanned =
        files.ScanValues("f.parquet", [&](uint64_t, const std::vector<Literal>& row) {
          seen.push_back(row[1]);
          return true;
        });
    if (!scanned.ok()) return scanned;
    return seen;
  }

 private:
  storage::InMemoryStorage storage_;
  delta::Metadata metadata_;
};

TEST(ParquetTableFiles, AZonedTimestampPartitionValueIsEveryRowsValue) {
  PartitionedTable table("timestamp");
  Result<std::vector<Literal>> rows = table.PartitionOfRows("2024-01-31T12:00:00+02:00");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  const int64_t utc = predicate::ParseTimestamp("2024-01-31 10:00:00Z")->micros;
  EXPECT_EQ(*rows, (std::vector<Literal>{Literal::Timestamp(utc), Literal::Timestamp(utc)}));
}

// The statistics tier widens a zone-less value by every zone; the rows once read it as UTC, and
// a DELETE loser committed past a winner's row its predicate selects in zones west of UTC-4.
TEST(ParquetTableFiles, AZoneLessTimestampPartitionValueLeavesTheRowsUnread) {
  PartitionedTable table("timestamp");
  Result<std::vector<Literal>> rows = table.PartitionOfRows("2024-01-31 10:00:00");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(rows.status().message().find("f.parquet"), std::string::npos);
  EXPECT_NE(rows.status().message().find("of p is not one value"), std::string::npos);
  EXPECT_NE(rows.status().message().find("without a zone"), std::string::npos);
}

TEST(ParquetTableFiles, ATimestampNtzPartitionValueWithoutAZoneIsExact) {
  PartitionedTable table("timestamp_ntz");
  Result<std::vector<Literal>> rows = table.PartitionOfRows("2024-01-31 10:00:00");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ((*rows)[0],
            Literal::Timestamp(predicate::ParseTimestamp("2024-01-31 10:00:00Z")->micros));
}

TEST(ParquetTableFiles, AFloatPartitionValueIsTheNearestFloat) {
  PartitionedTable table("float");
  Result<std::vector<Literal>> rows = table.PartitionOfRows("0.1");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ((*rows)[0], Literal::Double(static_cast<double>(0.1f)));
}

// A path the log names under two partition values (a re-add that moves its rows): which version
// the checker asks about, a path alone cannot say, so its rows stay unread. The same values twice
// are one reading.
TEST(ParquetTableFiles, APathNamedUnderTwoPartitionValuesLeavesTheRowsUnread) {
  PartitionedTable table("long");
  const Result<std::vector<Literal>> moved = table.PartitionOfRows("0", "1");
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(moved.status().message().find("different partition values"), std::string::npos);
  const Result<std::vector<Literal>> same = table.PartitionOfRows("1", "1");
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(*same, (std::vector<Literal>{Literal::Long(1), Literal::Long(1)}));
}

TEST(ParquetTableFiles, NullAndUnknownSpellings) {
  PartitionedTable booleans("boolean");
  Result<std::vector<Literal>> rows = booleans.PartitionOfRows(std::nullopt);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0], Literal::Null());
  rows = booleans.PartitionOfRows("TRUE");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0], Literal::Bool(true));
  EXPECT_EQ(booleans.PartitionOfRows("yes").status().code(), StatusCode::kUnsupported);
  PartitionedTable bytes("byte");
  EXPECT_EQ(bytes.PartitionOfRows("300").status().code(), StatusCode::kUnsupported);
}

}  // namespace
}  // namespace rlc::parquet
