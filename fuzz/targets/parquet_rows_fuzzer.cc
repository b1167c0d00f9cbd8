// libFuzzer target: rlc::parquet::ReadParquetFacts, ScanParquetRows and ArrowActionReader (a
// checkpoint's rows as JSON action lines), on the input as a Parquet file's bytes, asking for
// columns by name (top level, inside a struct, absent) and by field id.
//
// Arrow's decoding is trusted (docs/decisions.md#arrow); what is fuzzed is rlc's layer around
// it: locating columns, walking struct parents, numbering rows across row groups, converting
// values, and turning every failure into a Status. On success it checks: positions run 0, 1, ...
// without a gap, their count is the footer's num_rows, every row has one value per column asked
// for, and a second scan gives the same rows; every action line is one JSON object that the
// commit parser either reads or refuses with a message.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/commit_parser.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/parquet_rows.h"

namespace {

using rlc::parquet::FileColumn;

const std::vector<FileColumn>& Columns() {
  static const std::vector<FileColumn> columns = {
      {{"id"}, {}},     {{"value"}, {}},  {{"day"}, {}}, {{"ts"}, {}},
      {{"a", "b"}, {}}, {{"absent"}, {}}, {{"id"}, {1}}, {{"a", "b"}, {2, 3}}};
  return columns;
}

std::vector<std::vector<rlc::predicate::Literal>> Scan(std::string_view bytes, bool* ok) {
  std::vector<std::vector<rlc::predicate::Literal>> rows;
  uint64_t expected = 0;
  const rlc::Status s = rlc::parquet::ScanParquetRows(
      "fuzz.parquet", bytes, Columns(),
      [&](uint64_t position, const std::vector<rlc::predicate::Literal>& values) {
        FUZZ_CHECK(position == expected++);
        FUZZ_CHECK(values.size() == Columns().size());
        rows.push_back(values);
        return rows.size() < 100000;
      });
  *ok = s.ok();
  FUZZ_CHECK(s.ok() || !s.message().empty());
  return rows;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const rlc::Result<rlc::parquet::ParquetFileFacts> facts =
      rlc::parquet::ReadParquetFacts("fuzz.parquet", bytes);
  bool ok = false;
  const auto rows = Scan(bytes, &ok);
  if (!ok) return 0;
  FUZZ_CHECK(facts.ok());
  if (rows.size() < 100000) FUZZ_CHECK(static_cast<int64_t>(rows.size()) == facts->num_rows);
  bool again_ok = false;
  FUZZ_CHECK(Scan(bytes, &again_ok) == rows && again_ok);
  const rlc::Result<std::vector<std::string>> lines =
      rlc::parquet::ArrowActionReader().ActionLines("fuzz.parquet", bytes);
  if (lines.ok()) {
    for (const std::string& line : *lines) {
      FUZZ_CHECK(line.size() >= 2 && line.front() == '{' && line.back() == '}');
      const rlc::Result<rlc::delta::Action> action = rlc::delta::ParseActionLine(line);
      FUZZ_CHECK(action.ok() || !action.status().message().empty());
    }
  }
  return 0;
}
