// The simulator's data files: real Parquet (directory tables: scenario runs, replays, exports,
// races) or the row file, a small text format the in-memory explorer keeps for its throughput
// (docs/decisions.md#data-files). Either way a simulated table is a real directory two
// processes can share.
//
// Format (text, UTF-8, '\n'-terminated lines):
//   line 1   rlc-rows 1
//   line 2   {"columns":[{"name":"id","type":"long"},{"name":"part","type":"string"}]}
//   then     one JSON array per physical row, values in column order: an integer (byte,
//            short, integer, long; a timestamp's or timestamp_ntz's microseconds since the
//            epoch; a date's days since 1970-01-01; a decimal(10,2)'s unscaled value), a number
//            (float, double; "NaN", "Infinity" and "-Infinity" as strings), true or false, a
//            string (string; a binary's bytes in hexadecimal), or null. The row on
//            line 3 is physical position 0, and so on; a DV names these positions.
// Unlike the Parquet files Delta writes, a row file holds every column, partition columns
// included, so a file alone says what its rows are. Extensions end in ".rows".
//
// A Parquet data file holds the same columns as a row file but the partition columns, as Delta's
// do: their values come from the add's partitionValues (docs/formats.md#partition-values). It is
// written and read through impl/parquet, so real engines read it and the checker reads it as it
// reads any real table's file.
//
// RowFileTableFiles serves row files to the conflict checker (impl/conflict/table_files.h),
// so the exact tier and 1b read real rows in simulated tables. The oracle parses the format on
// its own (fuzz/oracle), sharing no code with this one.
//
// Thread-safety: stateless functions; RowFileTableFiles reads through its Storage.
#ifndef RLC_FUZZ_SIMULATOR_ROW_FILE_H_
#define RLC_FUZZ_SIMULATOR_ROW_FILE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "impl/conflict/table_files.h"
#include "impl/delta/actions.h"

namespace rlc::simulator {

struct RowFileColumn {
  enum class Type {
    kLong,
    kString,
    kTimestamp,
    kDate,
    kDouble,
    kBoolean,
    kByte,
    kShort,
    kInteger,
    kFloat,
    kDecimal,  // decimal(10,2)
    kBinary,
    kTimestampNtz,
  };
  std::string name;
  Type type = Type::kLong;
  friend bool operator==(const RowFileColumn&, const RowFileColumn&) = default;
};

// An integral type, a timestamp, a date, a boolean (0 or 1) or a decimal (unscaled) is an
// integer; a float or double a double; a string or binary (its bytes) a string. nullopt: NULL.
using RowFileValue = std::optional<std::variant<int64_t, std::string, double>>;

// The value of `column` an add's partitionValues give: NULL for an absent, null or "" value
// (Delta's protocol), else what impl/predicate/partition_value.h reads when that is one value;
// kUnsupported, naming `file`, otherwise. With `session_offset_minutes`, a timestamp written
// without a zone is read in that zone, as an engine in that session reads it; without, it is no
// one value (what the conflict checker must assume, knowing no writer's zone).
Result<RowFileValue> LoggedPartitionValue(const RowFileColumn& column,
                                          const delta::StringMap& values, const std::string& file,
                                          std::optional<int> session_offset_minutes = {});

// A double as Java's and Spark's cast to string write it: the shortest digits that read back,
// with a point or an exponent ("1.5", "-0.0", "1e+300"; JSON's reader would take "-0" for the
// integer 0), or "NaN", "Infinity", "-Infinity".
std::string DoubleText(double v);
// The same as a JSON value, as the row file and Delta's statistics hold it: a number, or a
// string for the three that are none.
void AppendJsonDouble(double v, std::string* out);
// A float column's value (a float widened to double) as Java and Spark write the float: the
// shortest digits that read back as that float ("1.1", not the double's 1.100000023841858).
std::string FloatText(double v);
void AppendJsonFloat(double v, std::string* out);

// The predicate language's literal of a non-null value of `type`; for a decimal its unscaled
// value (kLong) and for a binary its bytes (kString), as the Parquet writer takes them: the
// predicate language has no literal of either, and the checker reads neither
// (RowFileTableFiles, as impl's Parquet reader).
predicate::Literal ToLiteral(RowFileColumn::Type type,
                             const std::variant<int64_t, std::string, double>& v);

struct RowFile {
  std::vector<RowFileColumn> columns;
  std::vector<std::vector<RowFileValue>> rows;
  friend bool operator==(const RowFile&, const RowFile&) = default;
};

std::string EncodeRowFile(const RowFile& file);
// Errors (kCorrupt) name the line: a bad header, a value of the wrong type, a row of the wrong
// width.
Result<RowFile> DecodeRowFile(std::string_view bytes);

enum class DataFileFormat { kRowFile, kParquet };
// ".rows" or ".parquet".
const char* DataFileExtension(DataFileFormat format);

// `file` as a data file. A Parquet file leaves out the columns in `partition_columns`.
Result<std::string> EncodeDataFile(const RowFile& file, DataFileFormat format,
                                   const std::vector<std::string>& partition_columns);
// A data file's rows over `columns` (the columns it was written with): a row file by its
// extension ".rows", a Parquet file by ".parquet", whose partition columns (those absent from the
// file) take their value from `partition_values`, typed by their column, as an engine in the
// session zone `session_offset_minutes` reads them. Errors name `path`:
// kCorrupt for bytes that do not decode or a partition value that is not its column's type,
// kUnsupported for another extension.
Result<RowFile> DecodeDataFile(const std::string& path, std::string_view bytes,
                               const std::vector<RowFileColumn>& columns,
                               const std::vector<std::string>& partition_columns,
                               const delta::StringMap& partition_values,
                               int session_offset_minutes = 0);

class RowFileTableFiles : public conflict::StorageTableFiles {
 public:
  using StorageTableFiles::StorageTableFiles;
  // The partition values of the add that names a (URL-decoded) path, nullptr for none, and
  // kMovedFile for a path the log names under different partition values (its rows are in one
  // partition in one version and another in the next: a path alone cannot say which, and its
  // rows are then unread, as rlc's Parquet reader leaves them).
  using PartitionValuesOf = std::function<const delta::StringMap*(const std::string& decoded)>;
  static const delta::StringMap kMovedFile;
  // Partition columns take their values from the log, as every Delta reader (and rlc's Parquet
  // reader) takes them, not from the row file's own copy: a commit that re-adds a file under
  // other partition values moves its rows. Without it, the file's copy is read.
  void UsePartitionValues(std::vector<std::string> partition_columns, PartitionValuesOf lookup) {
    partition_columns_ = std::move(partition_columns);
    partition_values_of_ = std::move(lookup);
  }
  // Under column mapping, each logical column's physical name, which names it in the files (a
  // predicate names logical columns). Without it, the names are the same.
  void UseColumnMapping(std::map<std::string, std::string> physical_names) {
    physical_names_ = std::move(physical_names);
  }
  // Every row file's rows refused (kUnsupported, naming `why`): a table with a column rlc's
  // Parquet reader refuses to read whole.
  void RefuseRows(std::string why) { refused_because_ = std::move(why); }
  // Rows of `<table_root>/<path>` (URL-decoded) when it is a row file; kUnsupported otherwise,
  // for a partition value that is not its column's type, and for a file with a decimal or binary
  // column (as rlc's Parquet reader reads no rows of a table with a column it cannot read).
  Status ScanRows(const std::string& path, const conflict::RowVisitor& visit) const override;

 private:
  // The partition columns' values of every row of `file` from the log.
  Status OverlayPartitionValues(const std::string& decoded, RowFile& file) const;

  std::vector<std::string> partition_columns_;
  PartitionValuesOf partition_values_of_;
  std::string refused_because_;  // RefuseRows; empty: rows are read
  std::map<std::string, std::string> physical_names_;
};

}  // namespace rlc::simulator

#endif  // RLC_FUZZ_SIMULATOR_ROW_FILE_H_
