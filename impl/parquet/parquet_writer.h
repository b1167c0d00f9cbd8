// Parquet data files, written: the one place rlc writes Parquet (through Apache Arrow C++).
//
// Concern: turning rows into the bytes of a Parquet file a Delta reader opens, with the physical
// positions a DV names: row i of `rows` is physical position i, across row groups. Columns are
// flat and of two types, the ones the simulator's tables hold: long (INT64) and string (UTF-8
// BYTE_ARRAY), each optional (a NULL is a Parquet null), and, for the tests that hold every tier
// to one reading of each Delta type, the other primitive types as Spark writes them: boolean,
// INT32 as byte, short and integer, float, double, DATE, TIMESTAMP in microseconds (adjusted to
// UTC for `timestamp`, not for `timestamp_ntz`), decimal and binary. The file carries Arrow's
// default column statistics and no field ids (tables without column mapping). Partition columns
// are the caller's to leave out, as Delta writers do (docs/formats.md#partition-values).
//
// A value per type: kBool for boolean; kLong for the integral types (within the type's range)
// and decimal (the unscaled value); kDate (days) for date; kTimestamp (microseconds) for both
// timestamps; kDouble for float (rounded to the float) and double; kString for string and
// binary (the bytes).
//
// Errors: kInvalidArgument when a row's width is not the columns' count, a value's kind is not
// its column's type, or a column name repeats; kIoError when Arrow fails to write (never seen in
// memory, reported rather than assumed).
//
// Thread-safety: stateless; concurrent calls are safe.
#ifndef RLC_IMPL_PARQUET_PARQUET_WRITER_H_
#define RLC_IMPL_PARQUET_PARQUET_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "impl/predicate/ast.h"

namespace rlc::parquet {

struct WrittenColumn {
  enum class Type {
    kLong,
    kString,
    kBoolean,
    kByte,
    kShort,
    kInteger,
    kFloat,
    kDouble,
    kDate,
    kTimestamp,
    kTimestampNtz,
    kDecimal,
    kBinary,
  };
  std::string name;
  Type type = Type::kLong;
  int precision = 10;  // kDecimal only: decimal(precision, scale), precision at most 38
  int scale = 0;
};

struct ParquetWriteOptions {
  // Rows per row group: small groups put DV positions across group boundaries on purpose.
  int64_t row_group_rows = 64 * 1024;
};

// values of each row: one Literal per column, of its type's kind (above) or kNull.
Result<std::string> WriteParquetRows(const std::vector<WrittenColumn>& columns,
                                     const std::vector<std::vector<predicate::Literal>>& rows,
                                     const ParquetWriteOptions& options = {});

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_PARQUET_WRITER_H_
