// Reading a data file's rows with their physical positions (rlc::parquet::ScanParquetBatches, on
// which the row-by-row scan of the exact tier, 1b and `inspect --rows` is built) against Arrow's
// own read of the same column (the floor: parquet::arrow::FileReader::ReadTable, then a pass over
// the values), on one Parquet file of 10,000,000 rows in 10 row groups (an int64 `id`, 1% NULL,
// and a string column that neither side reads). Both sides sum what they read so neither can skip
// work. Aim: at most 1.2x.
//
// The file is written once, in memory, with Arrow's writer: the benchmark compares readers.
#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <benchmark/benchmark.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include <memory>
#include <string>
#include <vector>

#include "impl/parquet/parquet_rows.h"

namespace {

constexpr int64_t kRows = 10'000'000;
constexpr int64_t kRowGroupRows = 1'000'000;

const std::string& File() {
  static const std::string bytes = [] {
    arrow::Int64Builder ids;
    arrow::StringBuilder names;
    for (int64_t i = 0; i < kRows; ++i) {
      (void)(i % 100 == 7 ? ids.AppendNull() : ids.Append(i * 3));
      (void)names.Append(i % 2 == 0 ? "even" : "odd");
    }
    std::shared_ptr<arrow::Array> id_array = ids.Finish().ValueOrDie();
    std::shared_ptr<arrow::Array> name_array = names.Finish().ValueOrDie();
    auto table = arrow::Table::Make(
        arrow::schema({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())}),
        {id_array, name_array});
    auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
    PARQUET_THROW_NOT_OK(
        parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, kRowGroupRows));
    std::shared_ptr<arrow::Buffer> buffer = sink->Finish().ValueOrDie();
    return buffer->ToString();
  }();
  return bytes;
}

void BM_ParquetRowsRlc(benchmark::State& state) {
  const std::string& bytes = File();
  const std::vector<rlc::parquet::FileColumn> columns = {{{"id"}, {}}};
  for (auto _ : state) {
    int64_t sum = 0;
    const rlc::Status s = rlc::parquet::ScanParquetBatches(
        "bench.parquet", bytes, columns, [&](const rlc::parquet::RowBatch& batch) {
          const rlc::parquet::ColumnValues& ids = batch.columns[0];
          auto position = static_cast<int64_t>(batch.first_position);
          for (int64_t i = 0; i < batch.length; ++i, ++position)
            sum += position + (ids.IsNull(i) ? 0 : ids.longs[ids.offset + i]);
          return true;
        });
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ParquetRowsRlc)->Unit(benchmark::kMillisecond)->UseRealTime();

// Not an aim: the same rows handed over one at a time as rlc literals (ScanParquetRows, what the
// checker's row lookups and `inspect --rows` read through).
void BM_ParquetRowsOneByOneRlc(benchmark::State& state) {
  const std::string& bytes = File();
  const std::vector<rlc::parquet::FileColumn> columns = {{{"id"}, {}}};
  for (auto _ : state) {
    int64_t sum = 0;
    const rlc::Status s = rlc::parquet::ScanParquetRows(
        "bench.parquet", bytes, columns,
        [&](uint64_t position, const std::vector<rlc::predicate::Literal>& values) {
          sum += static_cast<int64_t>(position) + values[0].int_value;
          return true;
        });
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ParquetRowsOneByOneRlc)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ParquetRowsArrowFloor(benchmark::State& state) {
  const std::string& bytes = File();
  for (auto _ : state) {
    auto buffer = std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int64_t>(bytes.size()));
    auto reader = parquet::arrow::OpenFile(std::make_shared<arrow::io::BufferReader>(buffer),
                                           arrow::default_memory_pool())
                      .ValueOrDie();
    std::shared_ptr<arrow::Table> table = reader->ReadTable(std::vector<int>{0}).ValueOrDie();
    int64_t sum = 0, position = 0;
    for (const auto& chunk : table->column(0)->chunks()) {
      const auto& ids = static_cast<const arrow::Int64Array&>(*chunk);
      for (int64_t i = 0; i < ids.length(); ++i, ++position)
        sum += position + (ids.IsNull(i) ? 0 : ids.Value(i));
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ParquetRowsArrowFloor)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
