// libFuzzer target: rlc::parquet::ReadParquetFacts, ScanParquetRows and ArrowActionReader (a
// checkpoint's rows as JSON action lines), on the input as a Parquet file's bytes, asking for
// columns by name (top level, inside a struct, absent) and by field id.
//
// Arrow's decoding is trusted (docs/decisions.md#arrow); what is fuzzed is rlc's layer around
// it: locating columns, walking struct parents, numbering rows across row groups, converting
// values, and turning every failure into a Status. On success it checks: positions run 0, 1, ...
// without a gap, their count is the footer's num_rows, every row has one value per column asked
// for, and a second scan gives the same rows; every action line is one JSON object that the
// commit parser either reads or refuses with a message. The oracle's own Parquet reader
// (fuzz/oracle/reference_parquet.h, Parquet C++'s column readers) reads the same bytes: it never
// crashes, and where both read the file, its rows number the footer's and every top-level
// column both read holds the same values at the same positions (a differential of the two paths).
// A checkpoint's adds as columns (ForEachActionOrAddBatch, then delta::FileTable, as a replay
// reads them) give the same files as its actions one by one, or both refuse the file.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/oracle/reference_parquet.h"
#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/file_key.h"
#include "impl/delta/file_table.h"
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

// Whether the oracle's value (JSON-like: a number's text, a string, true or false) is impl/'s:
// integers for longs, dates and timestamps, a double's digits or NaN and the infinities as
// strings, booleans, strings.
bool SameValue(const rlc::oracle::json::Value& theirs, const rlc::predicate::Literal& ours) {
  using K = rlc::predicate::Literal::Kind;
  using J = rlc::oracle::json::Value::Kind;
  if (theirs.is_null()) return ours.kind == K::kNull;
  if (theirs.kind == J::kTrue || theirs.kind == J::kFalse)
    return ours.kind == K::kBool && ours.int_value == (theirs.kind == J::kTrue ? 1 : 0);
  if (ours.kind == K::kDouble) {
    double d = 0;
    if (theirs.text == "NaN") return std::isnan(ours.double_value);
    if (theirs.text == "Infinity" || theirs.text == "-Infinity")
      return std::isinf(ours.double_value) && (ours.double_value < 0) == (theirs.text[0] == '-');
    const auto r = std::from_chars(theirs.text.data(), theirs.text.data() + theirs.text.size(), d);
    return r.ec == std::errc() && d == ours.double_value &&
           std::signbit(d) == std::signbit(ours.double_value);
  }
  if (theirs.is_string()) return ours.kind == K::kString && ours.string_value == theirs.text;
  const bool integral =
      ours.kind == K::kLong || ours.kind == K::kDate || ours.kind == K::kTimestamp;
  return integral && theirs.Int() == ours.int_value;
}

// The oracle's reading of `bytes` against impl/'s (`rows` over Columns(), read in full).
void CompareWithTheOracle(std::string_view bytes, int64_t num_rows,
                          const std::vector<std::vector<rlc::predicate::Literal>>& rows) {
  rlc::oracle::ParquetColumnsAndRows read;
  std::string why;
  if (!rlc::oracle::ReadParquetRows("fuzz.parquet", std::string(bytes), &read, &why)) {
    FUZZ_CHECK(!why.empty());
    return;
  }
  if (read.unsupported_column) return;
  FUZZ_CHECK(static_cast<int64_t>(read.rows.size()) == num_rows);
  if (read.rows.size() != rows.size()) return;  // impl/'s scan stopped early
  for (size_t c = 0; c < Columns().size(); ++c) {
    const FileColumn& column = Columns()[c];
    if (column.path.size() != 1 || !column.field_ids.empty()) continue;
    if (std::count(read.columns.begin(), read.columns.end(), column.path[0]) != 1) continue;
    for (size_t k = 0; k < read.columns.size(); ++k) {
      if (read.columns[k] != column.path[0]) continue;
      for (size_t r = 0; r < rows.size(); ++r) {
        const rlc::oracle::json::Value& theirs = read.rows[r].items[k];
        const rlc::predicate::Literal& ours = rows[r][c];
        FUZZ_CHECK(SameValue(theirs, ours));
      }
    }
  }
}

// The file's adds by decoded path, one by one; nullopt when a line fails or a path repeats.
std::optional<std::map<std::string, rlc::delta::AddFile>> AddsOneByOne(std::string_view bytes) {
  std::map<std::string, rlc::delta::AddFile> adds;
  bool twice = false;
  const rlc::Status s = rlc::parquet::ArrowActionReader().ForEachAction(
      "fuzz.parquet", bytes, [&](rlc::delta::Action&& a) {
        if (auto* add = std::get_if<rlc::delta::AddFile>(&a))
          twice |= !adds.emplace(rlc::delta::DecodedPath(add->path), std::move(*add)).second;
        return rlc::Status::Ok();
      });
  if (!s.ok() || twice) return std::nullopt;
  return adds;
}

// The same adds through columns and a file table; nullopt when either fails.
std::optional<std::map<std::string, rlc::delta::AddFile>> AddsAsColumns(std::string_view bytes) {
  std::vector<rlc::delta::AddColumns> batches;
  std::map<std::string, rlc::delta::AddFile> loose;
  bool twice = false;
  const rlc::Status s = rlc::parquet::ArrowActionReader().ForEachActionOrAddBatch(
      "fuzz.parquet", std::make_shared<const std::string>(bytes),
      [&](rlc::delta::Action&& a) {
        if (auto* add = std::get_if<rlc::delta::AddFile>(&a))
          twice |= !loose.emplace(rlc::delta::DecodedPath(add->path), std::move(*add)).second;
        return rlc::Status::Ok();
      },
      [&](rlc::delta::AddColumns&& batch) {
        batches.push_back(std::move(batch));
        return rlc::Status::Ok();
      });
  if (!s.ok() || twice) return std::nullopt;
  rlc::Result<rlc::delta::FileTable> table =
      rlc::delta::FileTable::FromColumns(std::move(batches), std::move(loose));
  if (!table.ok()) {
    FUZZ_CHECK(!table.status().message().empty());
    return std::nullopt;
  }
  std::map<std::string, rlc::delta::AddFile> adds(table->begin(), table->end());
  FUZZ_CHECK(adds.size() == table->size());
  for (const auto& [key, add] : adds) FUZZ_CHECK(table->contains(key) && table->at(key) == add);
  return adds;
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
  CompareWithTheOracle(bytes, facts->num_rows, rows);
  const rlc::Result<std::vector<std::string>> lines =
      rlc::parquet::ArrowActionReader().ActionLines("fuzz.parquet", bytes);
  if (lines.ok()) {
    for (const std::string& line : *lines) {
      FUZZ_CHECK(line.size() >= 2 && line.front() == '{' && line.back() == '}');
      const rlc::Result<rlc::delta::Action> action = rlc::delta::ParseActionLine(line);
      FUZZ_CHECK(action.ok() || !action.status().message().empty());
    }
  }
  FUZZ_CHECK(AddsOneByOne(bytes) == AddsAsColumns(bytes));
  return 0;
}
