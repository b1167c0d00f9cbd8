// The oracle's own reading of a Parquet data file, for the simulator's Parquet tables.
//
// Concern: a second opinion on a Parquet file's physical rows. impl/ reads Parquet through
// Arrow's table conversion (impl/parquet/parquet_rows.h); this reads the same bytes through
// Parquet C++'s low-level column readers (values and definition levels, row group by row group),
// sharing no code with impl/, so a bug in rlc's row-index assembly or value conversion cannot
// hide from the oracle. Parquet C++ itself is a trusted dependency, as for impl/
// (docs/decisions.md#arrow).
//
// It reads what the simulator writes: flat columns of INT64 or INT32 values (read as numbers:
// plain integers, instants in microseconds, dates in days), DOUBLE values (numbers; NaN and the
// infinities as the strings "NaN", "Infinity", "-Infinity") and UTF-8 BYTE_ARRAY values (read as
// strings), required or optional. A file with any other
// column is read as unsupported_column (true returned, no rows); bytes that are not Parquet are an
// error string naming the file.
//
// Thread-safety: stateless function.
#ifndef RLC_FUZZ_ORACLE_REFERENCE_PARQUET_H_
#define RLC_FUZZ_ORACLE_REFERENCE_PARQUET_H_

#include <string>
#include <vector>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {

struct ParquetColumnsAndRows {
  // Set (with nothing read) when a column is of a type the oracle does not read: a real table's
  // file, not one the simulator wrote. Not an error: the file's rows are then unknown here.
  bool unsupported_column = false;
  std::vector<std::string> columns;  // the file's columns, in file order
  std::vector<json::Value> rows;     // each an array of values in `columns` order
};

// false (and why) when the file cannot be read as described above. `path` names it in errors.
bool ReadParquetRows(const std::string& path, const std::string& bytes, ParquetColumnsAndRows* out,
                     std::string* why);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_REFERENCE_PARQUET_H_
