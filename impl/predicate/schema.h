// TableSchema: a Delta table's schemaString, read for the predicate binder and the evaluators.
//
// Concern: parse Metadata.schema_string (Delta PROTOCOL.md "Schema Serialization Format": a
// struct of fields with name, type, nullable and metadata) and resolve a logical column path to
// its type, its physical path and whether it is a partition column.
//
// Column mapping (Metadata.configuration "delta.columnMapping.mode", docs/decisions.md#case-1):
//   - none (or absent): statistics and partition values are keyed by the logical names. A field
//     that nevertheless carries "delta.columnMapping.physicalName" different from its name gets
//     no physical path: which name its statistics use is not certain, so they are not used.
//   - name, id: every level of the path is replaced by that field's
//     "delta.columnMapping.physicalName"; a field without one gets no physical path (its
//     statistics are unused, i.e. the file is kept).
// Collations (field metadata "__COLLATIONS"): a string column under any collation but
// UTF8_BINARY is read as kOther, a type rlc cannot compare: its comparisons (case-insensitive,
// locale orders) are not rlc's byte order, so no tier may prune by it (docs/formats.md#collations).
// Name lookup: an exact match first, else the one field whose name matches ignoring ASCII case
// (Spark's default resolution); two such fields make the name ambiguous (an error).
//
// Thread-safety: immutable after Parse; safe to share.
//
// Invariants:
//   1. Every SchemaField of type kStruct has its children in `fields`; no other type has any.
//   2. ResolvedColumn::physical_path, when present, has the length of logical_path.
//   3. ResolvedColumn::stats_type is `type` unless the field's metadata records a type change.
//   4. Errors from Parse are kCorrupt and name the field ("schemaString.fields[1].type: ...");
//      an unknown mapping mode is kUnsupported. Resolve fails with kInvalidArgument naming the
//      column.
#ifndef RLC_IMPL_PREDICATE_SCHEMA_H_
#define RLC_IMPL_PREDICATE_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/predicate/ast.h"

namespace rlc::predicate {

enum class ColumnType : uint8_t {
  kByte,
  kShort,
  kInteger,
  kLong,
  kFloat,
  kDouble,
  kDecimal,  // numeric
  kString,
  kBoolean,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kBinary,
  kStruct,
  kArray,
  kMap,
  kOther,  // not comparable; IS [NOT] NULL only
};

// "long", "decimal", "struct", ...
std::string_view ColumnTypeName(ColumnType type);
bool IsIntegral(ColumnType type);  // byte, short, integer, long

enum class ColumnMappingMode : uint8_t { kNone, kName, kId };

struct SchemaField {
  std::string name;
  std::optional<std::string> physical_name;  // metadata "delta.columnMapping.physicalName"
  std::optional<int32_t> field_id;           // metadata "delta.columnMapping.id"
  ColumnType type = ColumnType::kOther;
  std::string type_text;  // as written for a primitive ("decimal(10,2)"), else "struct" etc.
  bool nullable = true;
  std::vector<SchemaField> fields;  // kStruct only
  // metadata "delta.typeChanges" (Delta's type widening): each change's fromType, oldest first;
  // kOther for a type rlc does not know. Files written before a change keep the old type.
  std::vector<ColumnType> earlier_types;
};

struct ResolvedColumn {
  ColumnPath logical_path;                  // spelled as the schema spells it
  std::optional<ColumnPath> physical_path;  // absent: statistics cannot be located
  std::vector<int32_t> field_ids;           // column mapping `id`: one per level, else empty
  ColumnType type = ColumnType::kOther;
  // The type whose writers' statistics bound the column's values in every file: `type`, except
  // after a type widening, when files written before it hold statistics of the old type. Only
  // float -> double changes the reading (a float's shortest text, read as a double, may sit
  // below the float's value, which readers widen exactly): kFloat then. An earlier type rlc does
  // not know gives kOther (no bounds). Integers widen exactly; a date's text under
  // timestamp_ntz is no timestamp, so it bounds nothing.
  ColumnType stats_type = ColumnType::kOther;
  bool nullable = true;       // every level nullable
  bool is_partition = false;  // a top-level column in partitionColumns
};

class TableSchema {
 public:
  // Reads schema_string, partition_columns and "delta.columnMapping.mode".
  static Result<TableSchema> FromMetadata(const delta::Metadata& metadata);
  static Result<TableSchema> Parse(std::string_view schema_string, ColumnMappingMode mode,
                                   std::vector<std::string> partition_columns);

  Result<ResolvedColumn> Resolve(const ColumnPath& path) const;

  const std::vector<SchemaField>& fields() const { return fields_; }
  ColumnMappingMode mapping_mode() const { return mode_; }

 private:
  std::vector<SchemaField> fields_;
  ColumnMappingMode mode_ = ColumnMappingMode::kNone;
  std::vector<std::string> partition_columns_;
};

// nullopt and "none" -> kNone, "name" -> kName, "id" -> kId (any case); else kUnsupported.
Result<ColumnMappingMode> ParseColumnMappingMode(const std::optional<std::string>& value);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_SCHEMA_H_
