#include "impl/parquet/parquet_rows.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "impl/parquet/parquet_writer.h"

namespace rlc::parquet {
namespace {

using predicate::Literal;

// Seven rows in row groups of three: an id (NULL at position 4) and a name (NULL at 1).
std::string SevenRows() {
  std::vector<std::vector<Literal>> rows;
  for (int64_t i = 0; i < 7; ++i) {
    rows.push_back({i == 4 ? Literal::Null() : Literal::Long(i * 10),
                    i == 1 ? Literal::Null() : Literal::String("n" + std::to_string(i))});
  }
  Result<std::string> bytes =
      WriteParquetRows({{"id", WrittenColumn::Type::kLong}, {"name", WrittenColumn::Type::kString}},
                       rows, {.row_group_rows = 3});
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : "";
}

TEST(ScanParquetBatches, EachRowGroupIsARunAtItsPositionWithItsValues) {
  const std::string bytes = SevenRows();
  std::vector<uint64_t> firsts;
  std::vector<int64_t> lengths;
  std::vector<std::string> seen;
  const Status s = ScanParquetBatches(
      "f.parquet", bytes, {{{"name"}, {}}, {{"id"}, {}}, {{"absent"}, {}}},
      [&](const RowBatch& batch) {
        firsts.push_back(batch.first_position);
        lengths.push_back(batch.length);
        EXPECT_EQ(batch.columns.size(), 3u);
        for (int64_t r = 0; r < batch.length; ++r) {
          const ColumnValues& name = batch.columns[0];
          const ColumnValues& id = batch.columns[1];
          EXPECT_TRUE(batch.columns[2].IsNull(r));  // a column the file lacks reads as NULL
          seen.push_back((name.IsNull(r) ? "null" : std::string(name.String(r))) + "/" +
                         (id.IsNull(r) ? "null" : std::to_string(id.longs[id.offset + r])));
        }
        return true;
      });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(firsts, (std::vector<uint64_t>{0, 3, 6}));
  EXPECT_EQ(lengths, (std::vector<int64_t>{3, 3, 1}));
  EXPECT_EQ(seen, (std::vector<std::string>{"n0/0", "null/10", "n2/20", "n3/30", "n4/null", "n5/50",
                                            "n6/60"}));
}

TEST(ScanParquetBatches, AVisitThatSaysStopEndsTheScan) {
  const std::string bytes = SevenRows();
  int visits = 0;
  const Status s = ScanParquetBatches("f.parquet", bytes, {{{"id"}, {}}}, [&](const RowBatch&) {
    ++visits;
    return false;
  });
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(visits, 1);
}

TEST(ScanParquetRows, GivesTheBatchesRowsOneByOne) {
  const std::string bytes = SevenRows();
  std::vector<uint64_t> positions;
  std::vector<Literal> ids;
  const Status s = ScanParquetRows("f.parquet", bytes, {{{"id"}, {}}},
                                   [&](uint64_t position, const std::vector<Literal>& values) {
                                     positions.push_back(position);
                                     ids.push_back(values[0]);
                                     return position < 5;
                                   });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(positions, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(ids[3], Literal::Long(30));
  EXPECT_EQ(ids[4], Literal::Null());
}

TEST(ScanParquetBatches, BytesThatAreNotParquetAreCorruptNamingTheFile) {
  const Status s = ScanParquetBatches("bad.parquet", "not parquet", {{{"id"}, {}}},
                                      [](const RowBatch&) { return true; });
  EXPECT_EQ(s.code(), StatusCode::kCorrupt);
  EXPECT_NE(s.message().find("bad.parquet"), std::string::npos);
}

}  // namespace
}  // namespace rlc::parquet
