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
// caller cannot judge such rows, and a conflict check keeps its conflict.
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
};

// values[i] answers columns[i].
using ParquetRowVisitor =
    std::function<bool(uint64_t position, const std::vector<predicate::Literal>& values)>;

struct ParquetFileFacts {
  int64_t num_rows = 0;
  int num_row_groups = 0;
  std::string created_by;
  std::vector<std::vector<std::string>> leaf_paths;  // every leaf column, as field-name paths
};

// The file's footer facts. `file_name` names the file in errors.
Result<ParquetFileFacts> ReadParquetFacts(std::string_view file_name, std::string_view bytes);

// Calls `visit` once per physical row, in position order from 0, until it returns false.
Status ScanParquetRows(std::string_view file_name, std::string_view bytes,
                       const std::vector<FileColumn>& columns, const ParquetRowVisitor& visit);

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_PARQUET_ROWS_H_
