#include "impl/predicate/schema.h"

#include <simdjson.h>

#include <cstdint>
#include <utility>

#include "impl/base/limits.h"
#include "impl/base/mutants.h"

namespace rlc::predicate {
namespace {

namespace dom = simdjson::dom;

constexpr std::string_view kPhysicalNameKey = "delta.columnMapping.physicalName";
constexpr std::string_view kTypeChangesKey = "delta.typeChanges";
constexpr std::string_view kCollationsKey = "__COLLATIONS";
constexpr std::string_view kFieldIdKey = "delta.columnMapping.id";

Status Corrupt(const std::string& where, std::string_view expected) {
  return Status::Corrupt("schemaString" + where + ": expected " + std::string(expected));
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

ColumnType PrimitiveType(std::string_view text) {
  static constexpr std::pair<std::string_view, ColumnType> kTypes[] = {
      {"byte", ColumnType::kByte},
      {"short", ColumnType::kShort},
      {"integer", ColumnType::kInteger},
      {"long", ColumnType::kLong},
      {"float", ColumnType::kFloat},
      {"double", ColumnType::kDouble},
      {"string", ColumnType::kString},
      {"boolean", ColumnType::kBoolean},
      {"date", ColumnType::kDate},
      {"timestamp", ColumnType::kTimestamp},
      {"timestamp_ntz", ColumnType::kTimestampNtz},
      {"binary", ColumnType::kBinary},
  };
  for (const auto& [name, type] : kTypes) {
    if (text == name) return type;
  }
  if (text == "decimal" || text.substr(0, 8) == "decimal(") return ColumnType::kDecimal;
  return ColumnType::kOther;
}

Status ParseFields(dom::element parent, const std::string& where, int depth,
                   std::vector<SchemaField>* out);

// metadata "delta.typeChanges": [{"fromType": "float", "toType": "double", ...}, ...]. An entry
// with a fieldPath widened an array's element or a map's key or value, not the field itself.
Status ParseTypeChanges(dom::element changes, const std::string& where, SchemaField* field) {
  dom::array entries;
  if (changes.get_array().get(entries) != simdjson::SUCCESS) return Corrupt(where, "an array");
  size_t index = 0;
  for (dom::element entry : entries) {
    const std::string at = where + "[" + std::to_string(index++) + "]";
    std::string_view from;
    if (!entry.is_object() || entry["fromType"].get_string().get(from) != simdjson::SUCCESS)
      return Corrupt(at + ".fromType", "a type name");
    dom::element nested;
    if (entry["fieldPath"].get(nested) == simdjson::SUCCESS) continue;
    field->earlier_types.push_back(PrimitiveType(from));
  }
  return Status::Ok();
}

// metadata "__COLLATIONS": {"<field name>": "spark.UTF8_LCASE", ...} (keys of nested elements
// name a path: "s.element"). A string under any collation but UTF8_BINARY compares in a way rlc
// does not implement (UTF8_LCASE ignores case, ICU locales their own orders): the field becomes
// a type rlc cannot compare, so no tier prunes by it and a predicate comparing it does not bind.
Status ParseCollations(dom::element collations, const std::string& where, SchemaField* field) {
  dom::object entries;
  if (collations.get_object().get(entries) != simdjson::SUCCESS) return Corrupt(where, "an object");
  for (auto [key, value] : entries) {
    std::string_view name;
    if (value.get_string().get(name) != simdjson::SUCCESS)
      return Corrupt(where + "." + std::string(key), "a collation name");
    if (key != field->name || field->type != ColumnType::kString) continue;
    const std::string_view binary = "UTF8_BINARY";
    const bool is_binary = name.size() >= binary.size() &&
                           EqualsIgnoringCase(name.substr(name.size() - binary.size()), binary);
    if (is_binary || RLC_MUTANT("collated-string-read-as-binary")) continue;
    field->type = ColumnType::kOther;
    field->type_text = "string collate " + std::string(name);
  }
  return Status::Ok();
}

Status ParseType(dom::element type, const std::string& where, int depth, SchemaField* field) {
  std::string_view text;
  if (type.get_string().get(text) == simdjson::SUCCESS) {
    field->type = PrimitiveType(text);
    field->type_text = std::string(text);
    return Status::Ok();
  }
  if (!type.is_object() || type["type"].get_string().get(text) != simdjson::SUCCESS) {
    return Corrupt(where, "a type name or an object with a \"type\"");
  }
  field->type_text = std::string(text);
  if (text == "array")
    field->type = ColumnType::kArray;
  else if (text == "map")
    field->type = ColumnType::kMap;
  else if (text != "struct")
    field->type = ColumnType::kOther;
  else {
    field->type = ColumnType::kStruct;
    return ParseFields(type, where, depth + 1, &field->fields);
  }
  return Status::Ok();
}

Result<SchemaField> ParseField(dom::element element, const std::string& where, int depth) {
  SchemaField field;
  std::string_view name;
  if (!element.is_object()) return Corrupt(where, "an object");
  if (element["name"].get_string().get(name) != simdjson::SUCCESS) {
    return Corrupt(where + ".name", "a string");
  }
  field.name = std::string(name);
  dom::element type;
  if (element["type"].get(type) != simdjson::SUCCESS) return Corrupt(where + ".type", "a type");
  RLC_RETURN_IF_ERROR(ParseType(type, where + ".type", depth, &field));
  dom::element nullable;
  if (element["nullable"].get(nullable) == simdjson::SUCCESS &&
      nullable.get_bool().get(field.nullable) != simdjson::SUCCESS) {
    return Corrupt(where + ".nullable", "a boolean");
  }
  dom::element metadata;
  if (element["metadata"].get(metadata) == simdjson::SUCCESS) {
    if (!metadata.is_object()) return Corrupt(where + ".metadata", "an object");
    dom::element physical;
    if (metadata[kPhysicalNameKey].get(physical) == simdjson::SUCCESS) {
      std::string_view physical_name;
      if (physical.get_string().get(physical_name) != simdjson::SUCCESS || physical_name.empty()) {
        return Corrupt(where + ".metadata." + std::string(kPhysicalNameKey), "a non-empty string");
      }
      field.physical_name = std::string(physical_name);
    }
    dom::element id;
    if (metadata[kFieldIdKey].get(id) == simdjson::SUCCESS) {
      int64_t value = 0;
      if (id.get_int64().get(value) != simdjson::SUCCESS || value < 0 || value > INT32_MAX) {
        return Corrupt(where + ".metadata." + std::string(kFieldIdKey), "a field id (0..2^31-1)");
      }
      field.field_id = static_cast<int32_t>(value);
    }
    dom::element collations;
    if (metadata[kCollationsKey].get(collations) == simdjson::SUCCESS) {
      RLC_RETURN_IF_ERROR(
          ParseCollations(collations, where + ".metadata." + std::string(kCollationsKey), &field));
    }
    dom::element changes;
    if (metadata[kTypeChangesKey].get(changes) == simdjson::SUCCESS) {
      RLC_RETURN_IF_ERROR(
          ParseTypeChanges(changes, where + ".metadata." + std::string(kTypeChangesKey), &field));
    }
  }
  return field;
}

// parent: {"type":"struct","fields":[...]}
Status ParseFields(dom::element parent, const std::string& where, int depth,
                   std::vector<SchemaField>* out) {
  if (depth > kStatsNestingMax) return Corrupt(where, "less nesting (kStatsNestingMax)");
  dom::array fields;
  if (parent["fields"].get_array().get(fields) != simdjson::SUCCESS) {
    return Corrupt(where + ".fields", "an array");
  }
  size_t index = 0;
  for (dom::element element : fields) {
    const std::string at = where + ".fields[" + std::to_string(index++) + "]";
    RLC_ASSIGN_OR_RETURN(SchemaField field, ParseField(element, at, depth));
    out->push_back(std::move(field));
  }
  return Status::Ok();
}

// The field named `name`: exact match, else the unique match ignoring case.
Result<const SchemaField*> FindField(const std::vector<SchemaField>& fields, std::string_view name,
                                     const ColumnPath& path) {
  const SchemaField* folded = nullptr;
  int folded_count = 0;
  for (const SchemaField& f : fields) {
    if (f.name == name) return &f;
    if (EqualsIgnoringCase(f.name, name)) {
      folded = &f;
      ++folded_count;
    }
  }
  if (folded_count == 1) return folded;
  const std::string column = "column " + ColumnPathToString(path);
  if (folded_count > 1) {
    return Status::InvalidArgument(column + ": '" + std::string(name) +
                                   "' matches several fields when case is ignored");
  }
  return Status::InvalidArgument(column + " does not exist in the table schema");
}

// The type whose statistics bound the field in every file (see ResolvedColumn::stats_type).
ColumnType StatsType(const SchemaField& field) {
  ColumnType reading = field.type;
  for (const ColumnType earlier : field.earlier_types) {
    if (earlier == ColumnType::kOther) return ColumnType::kOther;
    if (earlier == ColumnType::kFloat && field.type == ColumnType::kDouble)
      reading = ColumnType::kFloat;
  }
  return reading;
}

}  // namespace

Result<TableSchema> TableSchema::Parse(std::string_view schema_string, ColumnMappingMode mode,
                                       std::vector<std::string> partition_columns) {
  simdjson::padded_string padded(schema_string);
  thread_local dom::parser parser;  // reused: a parser keeps its buffers between documents
  dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
    return Status::Corrupt("schemaString: not a JSON document");
  }
  std::string_view type;
  if (!root.is_object() || root["type"].get_string().get(type) != simdjson::SUCCESS ||
      type != "struct") {
    return Corrupt("", "an object with \"type\":\"struct\"");
  }
  TableSchema schema;
  RLC_RETURN_IF_ERROR(ParseFields(root, "", 0, &schema.fields_));
  schema.mode_ = mode;
  schema.partition_columns_ = std::move(partition_columns);
  return schema;
}

Result<TableSchema> TableSchema::FromMetadata(const delta::Metadata& metadata) {
  // The last schema read on this thread: a checker reads the same table's schema at every
  // commit attempt, and parsing it costs more than the rest of binding the read predicates.
  struct Last {
    std::string schema_string;
    std::optional<std::string> mapping;
    std::vector<std::string> partition_columns;
    std::optional<Result<TableSchema>> schema;
  };
  thread_local Last last;
  std::optional<std::string> mapping = metadata.Property("delta.columnMapping.mode");
  if (last.schema.has_value() && last.schema_string == metadata.schema_string &&
      last.mapping == mapping && last.partition_columns == metadata.partition_columns) {
    return *last.schema;
  }
  Result<TableSchema> schema = [&]() -> Result<TableSchema> {
    RLC_ASSIGN_OR_RETURN(ColumnMappingMode mode, ParseColumnMappingMode(mapping));
    return Parse(metadata.schema_string, mode, metadata.partition_columns);
  }();
  last = Last{metadata.schema_string, std::move(mapping), metadata.partition_columns, schema};
  return schema;
}

Result<ResolvedColumn> TableSchema::Resolve(const ColumnPath& path) const {
  if (path.empty()) return Status::InvalidArgument("column: an empty path");
  ResolvedColumn out;
  ColumnPath physical;
  bool physical_known = true;
  std::vector<int32_t> ids;
  const std::vector<SchemaField>* level = &fields_;
  const SchemaField* field = nullptr;
  for (size_t i = 0; i < path.size(); ++i) {
    if (level == nullptr) {
      return Status::InvalidArgument("column " + ColumnPathToString(path) + ": " +
                                     ColumnPathToString(out.logical_path) + " is a " +
                                     field->type_text + ", not a struct");
    }
    RLC_ASSIGN_OR_RETURN(field, FindField(*level, path[i], path));
    out.logical_path.push_back(field->name);
    out.nullable = out.nullable && field->nullable;
    if (mode_ == ColumnMappingMode::kNone) {
      physical_known =
          physical_known && (!field->physical_name || *field->physical_name == field->name);
      physical.push_back(field->name);
    } else {
      physical_known = physical_known && field->physical_name.has_value();
      physical.push_back(field->physical_name.value_or(""));
    }
    if (field->field_id) ids.push_back(*field->field_id);
    level = field->type == ColumnType::kStruct ? &field->fields : nullptr;
  }
  out.type = field->type;
  out.stats_type = StatsType(*field);
  if (mode_ == ColumnMappingMode::kId && ids.size() == path.size()) out.field_ids = std::move(ids);
  if (physical_known) out.physical_path = std::move(physical);
  if (path.size() == 1) {
    for (const std::string& p : partition_columns_) {
      if (p == out.logical_path[0]) out.is_partition = true;
    }
    if (!out.is_partition) {
      for (const std::string& p : partition_columns_) {
        if (EqualsIgnoringCase(p, out.logical_path[0])) out.is_partition = true;
      }
    }
  }
  return out;
}

Result<ColumnMappingMode> ParseColumnMappingMode(const std::optional<std::string>& value) {
  if (!value.has_value() || EqualsIgnoringCase(*value, "none")) return ColumnMappingMode::kNone;
  if (EqualsIgnoringCase(*value, "name")) return ColumnMappingMode::kName;
  if (EqualsIgnoringCase(*value, "id")) return ColumnMappingMode::kId;
  return Status::Unsupported("delta.columnMapping.mode '" + *value + "' is not supported");
}

std::string_view ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kByte:
      return "byte";
    case ColumnType::kShort:
      return "short";
    case ColumnType::kInteger:
      return "integer";
    case ColumnType::kLong:
      return "long";
    case ColumnType::kFloat:
      return "float";
    case ColumnType::kDouble:
      return "double";
    case ColumnType::kDecimal:
      return "decimal";
    case ColumnType::kString:
      return "string";
    case ColumnType::kBoolean:
      return "boolean";
    case ColumnType::kDate:
      return "date";
    case ColumnType::kTimestamp:
      return "timestamp";
    case ColumnType::kTimestampNtz:
      return "timestamp_ntz";
    case ColumnType::kBinary:
      return "binary";
    case ColumnType::kStruct:
      return "struct";
    case ColumnType::kArray:
      return "array";
    case ColumnType::kMap:
      return "map";
    case ColumnType::kOther:
      return "other";
  }
  return "other";
}

bool IsIntegral(ColumnType type) {
  return type == ColumnType::kByte || type == ColumnType::kShort || type == ColumnType::kInteger ||
         type == ColumnType::kLong;
}

}  // namespace rlc::predicate
