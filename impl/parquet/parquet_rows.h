// Parquet data files, row by row: the one place rlc reads Parquet (through Apache Arrow C++).
//
// Concern: turning a data file's bytes into its physical rows, in position order across row
// groups and pages, as the values of the columns a caller asks for. A DV names rows by this
// position (docs/formats.md#parquet-rows), so the position is the row's index in the file, never
// a count of the rows read. Which columns to read, and how a logical column maps to the file
// (column mapping's physical names or field ids), is the caller's (parquet_table_files.h); the
// partition columns are not in the file and never asked for here.
//
// Values: Parquet's integer types read as kLong, float and double as kDouble, UTF-8 strings as
// kString, booleans as kBool, dates as kDate (days) and timestamps of any unit as kTimestamp
// (microseconds, UTC; nanoseconds round toward minus infinity). A NULL, a NULL parent struct, or
// a column the file lacks (a column added to the table after the file was written) reads as
// Null. Any other type (decimal, binary, a list or map) is kUnsupported naming the column: the
// caller cannot judge such rows, and a conflict check keeps its conflict. A column asked for
// `as_stored` is the exception, for a reader that knows the column's Delta type (a simulator
// reading back the files it wrote; the conflict checker never asks): a decimal reads as kLong,
// its unscaled value (kUnsupported past 64 bits), a binary as kString holding its bytes.
//
// Errors name the file: kCorrupt for bytes Arrow cannot read as Parquet (a truncated file, a bad
// footer, a page that does not decode), kUnsupported as above. Arrow itself is a trusted
// dependency (docs/decisions.md#arrow); rlc's own layer around it is fuzzed.
//
// Thread-safety: stateless; concurrent calls on distinct inputs are safe.
#ifndef RLC_IMPL_PARQUET_PARQUET_ROWS_H_
#define RLC_IMPL_PARQUET_PARQUET_ROWS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/predicate/ast.h"

namespace rlc::parquet {

// A column of the file: the field names from the top of the file's schema to the leaf (Delta's
// physical names under column mapping), and, where the table maps columns by id, the field id of
// each of those fields (then ids decide, names only report).
struct FileColumn {
  std::vector<std::string> path;
  std::vector<int32_t> field_ids;  // empty, or one per element of `path`
  bool as_stored = false;          // decimals and binaries read as stored (above)
};

// values[i] answers columns[i].
using ParquetRowVisitor =
    std::function<bool(uint64_t position, const std::vector<predicate::Literal>& values)>;

// One requested column over a run of rows, as plain views of the decoded values (Arrow's memory,
// or a conversion of it to rlc's units): every non-NULL value is of `kind`. Row i of the run is
// NULL when `kind` is kNull (the file lacks the column) or bit `validity_offset + i` of
// `validity` (least significant bit first) is 0; no bitmap means no NULL. Values are at index
// `offset + i`: kLong, kBool (0 or 1), kDate (days) and kTimestamp (microseconds) in `longs`,
// kDouble in `doubles`, kString as [offsets[j], offsets[j + 1]) of `chars` (or large_offsets).
struct ColumnValues {
  predicate::Literal::Kind kind = predicate::Literal::Kind::kNull;
  const uint8_t* validity = nullptr;
  int64_t validity_offset = 0;
  int64_t offset = 0;
  const int64_t* longs = nullptr;
  const double* doubles = nullptr;
  const int32_t* offsets = nullptr;
  const int64_t* large_offsets = nullptr;
  const char* chars = nullptr;

  bool IsNull(int64_t row) const {
    if (kind == predicate::Literal::Kind::kNull) return true;
    if (validity == nullptr) return false;
    const int64_t i = row + validity_offset;
    return ((validity[i >> 3] >> (i & 7)) & 1) == 0;
  }
  std::string_view String(int64_t row) const {
    const int64_t j = row + offset;
    const int64_t begin = offsets ? offsets[j] : large_offsets[j];
    const int64_t end = offsets ? offsets[j + 1] : large_offsets[j + 1];
    return {chars + begin, static_cast<size_t>(end - begin)};
  }
  // Row `row`'s value, set in place (no new Literal: this runs once per row and column).
  void Read(int64_t row, predicate::Literal& out) const;
};

// Rows [first_position, first_position + length) of the file; columns[i] answers the i-th column
// asked for. The views are valid during the visit only.
struct RowBatch {
  uint64_t first_position = 0;
  int64_t length = 0;
  std::vector<ColumnValues> columns;
};
using RowBatchVisitor = std::function<bool(const RowBatch& batch)>;

struct ParquetFileFacts {
  int64_t num_rows = 0;
  int num_row_groups = 0;
  std::string created_by;
  std::vector<std::vector<std::string>> leaf_paths;  // every leaf column, as field-name paths
};

// The file's footer facts. `file_name` names the file in errors.
Result<ParquetFileFacts> ReadParquetFacts(std::string_view file_name, std::string_view bytes);

// Calls `visit` once per run of physical rows (a row group, or part of one), in position order
// from 0 without a gap, until it returns false. What the file's readers build on: a caller that
// reads a column whole reads it here at Arrow's pace.
Status ScanParquetBatches(std::string_view file_name, std::string_view bytes,
                          const std::vector<FileColumn>& columns, const RowBatchVisitor& visit);

// Calls `visit` once per physical row, in position order from 0, until it returns false.
Status ScanParquetRows(std::string_view file_name, std::string_view bytes,
                       const std::vector<FileColumn>& columns, const ParquetRowVisitor& visit);

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_PARQUET_ROWS_H_
