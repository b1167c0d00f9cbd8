// The logical table: what a reader sees, with no files, deletion vectors or log.
//
// Concern: rows with a hidden stable identity (RowId) and typed column values; the table's
// properties and protocol features as plain data. Every operation in serial.h maps one
// LogicalTable to the next.
//
// Invariants:
//   1. rows is keyed by RowId; a RowId is never reused (next_row_id only grows).
//   2. Every row has exactly one value per schema column, of the column's type or NULL.
//   3. version counts the commits applied since the table was created.
//
// Thread-safety: plain value.
#ifndef RLC_MODEL_SEMANTICS_TABLE_H_
#define RLC_MODEL_SEMANTICS_TABLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/semantics/value.h"

namespace rlc::model {

using RowId = uint64_t;

// A timestamp column holds instants (Delta's `timestamp`, with a zone), a timestamp_ntz column
// wall clocks; a date column dates. The values of each type are the Value alternatives value.h
// names; a decimal column is decimal(kDecimalPrecision, kDecimalScale).
enum class ColumnType {
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
  kDecimal,
  kBinary,
  kTimestampNtz,
};
inline constexpr int kDecimalPrecision = 10;
inline constexpr int kDecimalScale = 2;

// Every type, in the order above.
inline constexpr ColumnType kColumnTypes[] = {
    ColumnType::kLong,         ColumnType::kString,  ColumnType::kTimestamp, ColumnType::kDate,
    ColumnType::kDouble,       ColumnType::kBoolean, ColumnType::kByte,      ColumnType::kShort,
    ColumnType::kInteger,      ColumnType::kFloat,   ColumnType::kDecimal,   ColumnType::kBinary,
    ColumnType::kTimestampNtz,
};

// Delta's name of the type: "long", "string", "timestamp", "date", "double", "boolean", "byte",
// "short", "integer", "float", "decimal(10,2)", "binary", "timestamp_ntz".
const char* TypeName(ColumnType type);
// The type of that name; nullopt for any other.
std::optional<ColumnType> ColumnTypeNamed(const std::string& name);
// Whether `v` is NULL or a value a column of `type` holds (an integral type within its range, a
// float exactly a float, a decimal of the column's scale and precision).
bool HoldsValueOf(ColumnType type, const Value& v);
// Whether columns of the two types compare with each other here: their values are of one Value
// alternative (the integral types among themselves, float with double, any other type with
// itself), so each pair compares by exact value, as Spark does in the pair's common type.
bool ComparableTypes(ColumnType a, ColumnType b);

// How a string column compares (Spark's collations). UTF8_BINARY: by bytes, the default.
// UTF8_LCASE: as its values lowercased; the model lowercases ASCII letters only, so a UTF8_LCASE
// column holds ASCII text only (Spark lowercases other letters by ICU's rules).
enum class Collation { kUtf8Binary, kUtf8Lcase };
// "UTF8_BINARY", "UTF8_LCASE".
const char* CollationName(Collation collation);
// The collation of that name; nullopt for any other.
std::optional<Collation> CollationNamed(const std::string& name);

struct Column {
  std::string name;
  ColumnType type = ColumnType::kLong;
  bool is_partition = false;  // partition columns come last, in `partitionColumns` order
  // A string data column's collation: a comparison of it with a literal takes it (a column's
  // implicit collation outranks a literal's default); two columns compare only under one.
  Collation collation = Collation::kUtf8Binary;
  friend bool operator==(const Column&, const Column&) = default;
};

struct Row {
  RowId id = 0;
  std::vector<Value> values;  // one per schema column, in schema order
  friend bool operator==(const Row&, const Row&) = default;
};

enum class IsolationLevel { kSerializable, kWriteSerializable, kSnapshotIsolation };

struct TableProperties {
  // `delta.isolationLevel`; absent means Serializable (docs/decisions.md#isolation).
  IsolationLevel isolation_level = IsolationLevel::kSerializable;
  bool deletion_vectors_enabled = true;      // `delta.enableDeletionVectors`
  std::map<std::string, std::string> other;  // any other property, by key
  friend bool operator==(const TableProperties&, const TableProperties&) = default;
};

struct LogicalTable {
  std::vector<Column> schema;
  std::map<RowId, Row> rows;
  TableProperties properties;
  std::set<std::string> protocol_features;      // e.g. "deletionVectors"
  std::map<std::string, int64_t> app_versions;  // txn appId -> last committed version
  int64_t version = 0;
  RowId next_row_id = 1;
  // The session time zone of every engine writing and reading the table (a fixed offset, in
  // minutes east of UTC). Not part of the rows: Spark writes a timestamp partition value as wall
  // clock text in it, and a reader in the same zone reads the same instant back; the log does not
  // say which zone that was (fuzz/ needs it to read such text as the writers meant it).
  int session_offset_minutes = 0;

  // The schema position of `column`; nullopt when there is no such column.
  std::optional<size_t> ColumnIndex(const std::string& column) const;
  // Adds a row with a fresh identity and returns it. REQUIRES: values fit the schema.
  RowId Insert(std::vector<Value> values);
  // The rows' values (identities dropped), sorted: what two tables must agree on.
  std::vector<std::vector<Value>> SortedContents() const;
};

// The name of the i-th partition column (from 0): "part", "part2", "part3", ...
std::string PartitionColumnName(size_t i);

// A table with columns (id long, value string), a data column `x` of type `typed_column` when
// given, then one partition column per entry of `partition_types`, named PartitionColumnName(i),
// in that order (the order of the table's `partitionColumns` and of its directory levels).
LogicalTable MakeTable(const std::vector<ColumnType>& partition_types,
                       std::optional<ColumnType> typed_column);
// The same with at most one partition column, `part` of type `partition_type`.
LogicalTable MakeTable(bool partitioned = false, ColumnType partition_type = ColumnType::kLong,
                       std::optional<ColumnType> typed_column = std::nullopt);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_TABLE_H_
