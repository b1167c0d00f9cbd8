#include "impl/parquet/checkpoint_actions.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "impl/delta/commit_parser.h"
#include "impl/delta/json_writer.h"

namespace rlc::parquet {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Status AppendValue(const ::arrow::Array& a, int64_t row, const std::string& where,
                   std::string* out);

Status AppendStruct(const ::arrow::StructArray& a, int64_t row, const std::string& where,
                    std::string* out) {
  out->push_back('{');
  bool first = true;
  for (int i = 0; i < a.num_fields(); ++i) {
    const std::string& name = a.struct_type()->field(i)->name();
    const std::shared_ptr<::arrow::Array> child = a.field(i);
    if (EndsWith(name, "_parsed") || child->IsNull(row)) continue;
    if (!first) out->push_back(',');
    first = false;
    delta::AppendJsonQuoted(name, out);
    out->push_back(':');
    RLC_RETURN_IF_ERROR(AppendValue(*child, row, where + "." + name, out));
  }
  out->push_back('}');
  return Status::Ok();
}

Status AppendMap(const ::arrow::MapArray& a, int64_t row, const std::string& where,
                 std::string* out) {
  out->push_back('{');
  for (int64_t k = 0; k < a.value_length(row); ++k) {
    const int64_t at = a.value_offset(row) + k;
    if (a.keys()->type_id() != ::arrow::Type::STRING || a.keys()->IsNull(at)) {
      return Status::Unsupported(where + ": a map whose keys are not strings");
    }
    if (k > 0) out->push_back(',');
    delta::AppendJsonQuoted(static_cast<const ::arrow::StringArray&>(*a.keys()).GetView(at), out);
    out->push_back(':');
    RLC_RETURN_IF_ERROR(AppendValue(*a.items(), at, where, out));
  }
  out->push_back('}');
  return Status::Ok();
}

Status AppendList(const ::arrow::ListArray& a, int64_t row, const std::string& where,
                  std::string* out) {
  out->push_back('[');
  for (int64_t k = 0; k < a.value_length(row); ++k) {
    if (k > 0) out->push_back(',');
    RLC_RETURN_IF_ERROR(AppendValue(*a.values(), a.value_offset(row) + k, where, out));
  }
  out->push_back(']');
  return Status::Ok();
}

template <typename ArrayType>
void AppendInteger(const ::arrow::Array& a, int64_t row, std::string* out) {
  *out += std::to_string(static_cast<const ArrayType&>(a).Value(row));
}

Status AppendValue(const ::arrow::Array& a, int64_t row, const std::string& where,
                   std::string* out) {
  if (a.IsNull(row)) {
    *out += "null";
    return Status::Ok();
  }
  switch (a.type_id()) {
    case ::arrow::Type::STRUCT:
      return AppendStruct(static_cast<const ::arrow::StructArray&>(a), row, where, out);
    case ::arrow::Type::MAP:
      return AppendMap(static_cast<const ::arrow::MapArray&>(a), row, where, out);
    case ::arrow::Type::LIST:
      return AppendList(static_cast<const ::arrow::ListArray&>(a), row, where, out);
    case ::arrow::Type::STRING:
      delta::AppendJsonQuoted(static_cast<const ::arrow::StringArray&>(a).GetView(row), out);
      return Status::Ok();
    case ::arrow::Type::BOOL:
      *out += static_cast<const ::arrow::BooleanArray&>(a).Value(row) ? "true" : "false";
      return Status::Ok();
    case ::arrow::Type::INT8:
      AppendInteger<::arrow::Int8Array>(a, row, out);
      return Status::Ok();
    case ::arrow::Type::INT16:
      AppendInteger<::arrow::Int16Array>(a, row, out);
      return Status::Ok();
    case ::arrow::Type::INT32:
      AppendInteger<::arrow::Int32Array>(a, row, out);
      return Status::Ok();
    case ::arrow::Type::INT64:
      AppendInteger<::arrow::Int64Array>(a, row, out);
      return Status::Ok();
    case ::arrow::Type::DOUBLE: {
      const double v = static_cast<const ::arrow::DoubleArray&>(a).Value(row);
      if (!std::isfinite(v)) return Status::Unsupported(where + ": a number that is not finite");
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", v);
      *out += text;
      return Status::Ok();
    }
    default:
      return Status::Unsupported(where + ": a value of type " + a.type()->ToString());
  }
}

Result<std::shared_ptr<::arrow::Table>> ReadWhole(std::string_view file_name,
                                                  std::string_view bytes) {
  auto buffer = std::make_shared<::arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int64_t>(bytes.size()));
  const std::string name(file_name);
  try {
    auto reader = ::parquet::arrow::OpenFile(std::make_shared<::arrow::io::BufferReader>(buffer),
                                             ::arrow::default_memory_pool());
    if (!reader.ok())
      return Status::Corrupt("parquet file " + name + ": " + reader.status().ToString());
    auto table = (*reader)->ReadTable();
    if (!table.ok())
      return Status::Corrupt("parquet file " + name + ": " + table.status().ToString());
    return *table;
  } catch (const std::exception& e) {
    return Status::Corrupt("parquet file " + name + ": " + e.what());
  }
}

// A file's table with one chunk per column, so that row r is row r of every column.
struct Columns {
  std::shared_ptr<::arrow::Table> table;
  std::vector<std::shared_ptr<::arrow::Array>> arrays;  // nullptr: a column without chunks
  const std::string& name(size_t c) const {
    return table->schema()->field(static_cast<int>(c))->name();
  }
};

Result<Columns> ReadColumns(std::string_view file_name, std::string_view bytes) {
  RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Table> table, ReadWhole(file_name, bytes));
  ::arrow::Result<std::shared_ptr<::arrow::Table>> combined = table->CombineChunks();
  if (!combined.ok()) {
    return Status::Corrupt("parquet file " + std::string(file_name) + ": " +
                           combined.status().ToString());
  }
  Columns c;
  c.table = std::move(*combined);
  for (const auto& column : c.table->columns())
    c.arrays.push_back(column->num_chunks() == 0 ? nullptr : column->chunk(0));
  return c;
}

// The JSON line of column `c`'s action in `row`.
Result<std::string> ActionLine(std::string_view file_name, const Columns& columns, size_t c,
                               int64_t row) {
  std::string line = "{";
  delta::AppendJsonQuoted(columns.name(c), &line);
  line.push_back(':');
  RLC_RETURN_IF_ERROR(AppendValue(
      *columns.arrays[c], row,
      std::string(file_name) + ": row " + std::to_string(row) + ", " + columns.name(c), &line));
  line.push_back('}');
  return line;
}

// The add column's fields as Delta's checkpoint schema types them, or none at all.
struct AddArrays {
  const ::arrow::StructArray* add = nullptr;
  const ::arrow::StringArray *path = nullptr, *stats = nullptr, *clustering = nullptr;
  const ::arrow::MapArray *partition_values = nullptr, *tags = nullptr;
  const ::arrow::Int64Array *size = nullptr, *modification_time = nullptr, *base_row_id = nullptr,
                            *row_commit_version = nullptr;
  const ::arrow::BooleanArray* data_change = nullptr;
  const ::arrow::StructArray* dv = nullptr;
  const ::arrow::StringArray *dv_type = nullptr, *dv_path = nullptr;
  const ::arrow::Int32Array *dv_offset = nullptr, *dv_size = nullptr;
  const ::arrow::Int64Array* dv_cardinality = nullptr;
};

bool IsStringMap(const ::arrow::Array& a) {
  if (a.type_id() != ::arrow::Type::MAP) return false;
  const auto& m = static_cast<const ::arrow::MapArray&>(a);
  return m.keys()->type_id() == ::arrow::Type::STRING &&
         m.items()->type_id() == ::arrow::Type::STRING;
}

template <typename T>
bool Take(const ::arrow::Array& a, ::arrow::Type::type type, const T** out) {
  if (a.type_id() != type) return false;
  *out = static_cast<const T*>(&a);
  return true;
}

// Every field of the DV struct, of its type; false for any other shape.
bool LocateDv(const ::arrow::StructArray& dv, AddArrays& a) {
  a.dv = &dv;
  for (int i = 0; i < dv.num_fields(); ++i) {
    const std::string& name = dv.struct_type()->field(i)->name();
    const ::arrow::Array& f = *dv.field(i);
    using T = ::arrow::Type;
    const bool ok = name == "storageType"      ? Take(f, T::STRING, &a.dv_type)
                    : name == "pathOrInlineDv" ? Take(f, T::STRING, &a.dv_path)
                    : name == "offset"         ? Take(f, T::INT32, &a.dv_offset)
                    : name == "sizeInBytes"    ? Take(f, T::INT32, &a.dv_size)
                    : name == "cardinality"    ? Take(f, T::INT64, &a.dv_cardinality)
                                               : false;
    if (!ok) return false;
  }
  return a.dv_type && a.dv_path && a.dv_size && a.dv_cardinality;
}

// The add column's arrays when every field is a known one of its usual type (the *_parsed
// columns aside); nullopt sends every add through JSON.
std::optional<AddArrays> LocateAdd(const ::arrow::Array& column) {
  if (column.type_id() != ::arrow::Type::STRUCT) return std::nullopt;
  AddArrays a;
  a.add = static_cast<const ::arrow::StructArray*>(&column);
  using T = ::arrow::Type;
  for (int i = 0; i < a.add->num_fields(); ++i) {
    const std::string& name = a.add->struct_type()->field(i)->name();
    const ::arrow::Array& f = *a.add->field(i);
    bool ok = EndsWith(name, "_parsed");
    if (name == "path") ok = Take(f, T::STRING, &a.path);
    if (name == "stats") ok = Take(f, T::STRING, &a.stats);
    if (name == "clusteringProvider") ok = Take(f, T::STRING, &a.clustering);
    if (name == "size") ok = Take(f, T::INT64, &a.size);
    if (name == "modificationTime") ok = Take(f, T::INT64, &a.modification_time);
    if (name == "baseRowId") ok = Take(f, T::INT64, &a.base_row_id);
    if (name == "defaultRowCommitVersion") ok = Take(f, T::INT64, &a.row_commit_version);
    if (name == "dataChange") ok = Take(f, T::BOOL, &a.data_change);
    if (name == "partitionValues" || name == "tags") {
      ok = IsStringMap(f);
      (name == "tags" ? a.tags : a.partition_values) = static_cast<const ::arrow::MapArray*>(&f);
    }
    if (name == "deletionVector")
      ok = f.type_id() == T::STRUCT && LocateDv(static_cast<const ::arrow::StructArray&>(f), a);
    if (!ok) return std::nullopt;
  }
  if (!a.path || !a.partition_values || !a.size || !a.modification_time || !a.data_change)
    return std::nullopt;
  return a;
}

delta::StringMap MapAt(const ::arrow::MapArray& m, int64_t row) {
  const auto& keys = static_cast<const ::arrow::StringArray&>(*m.keys());
  const auto& items = static_cast<const ::arrow::StringArray&>(*m.items());
  delta::StringMap out;
  out.reserve(static_cast<size_t>(m.value_length(row)));
  for (int64_t at = m.value_offset(row); at < m.value_offset(row) + m.value_length(row); ++at) {
    out.emplace_back(
        std::string(keys.GetView(at)),
        items.IsNull(at) ? std::nullopt : std::optional(std::string(items.GetView(at))));
  }
  return out;
}

template <typename A>
auto Optional(const A* a, int64_t row) -> std::optional<decltype(a->Value(row))> {
  if (a == nullptr || a->IsNull(row)) return std::nullopt;
  return a->Value(row);
}

std::optional<std::string> OptionalString(const ::arrow::StringArray* a, int64_t row) {
  if (a == nullptr || a->IsNull(row)) return std::nullopt;
  return std::string(a->GetView(row));
}

// Row `row`'s add, or nullopt where the JSON way must decide (a required field NULL, a DV that
// does not validate): the parser then gives the same add or its error.
std::optional<delta::AddFile> DirectAdd(const AddArrays& a, int64_t row) {
  if (a.path->IsNull(row) || a.partition_values->IsNull(row) || a.size->IsNull(row) ||
      a.modification_time->IsNull(row) || a.data_change->IsNull(row))
    return std::nullopt;
  delta::AddFile add;
  add.path = std::string(a.path->GetView(row));
  add.partition_values = MapAt(*a.partition_values, row);
  add.size_bytes = a.size->Value(row);
  add.modification_time_ms = a.modification_time->Value(row);
  add.data_change = a.data_change->Value(row);
  add.stats = OptionalString(a.stats, row);
  if (a.tags != nullptr && !a.tags->IsNull(row)) add.tags = MapAt(*a.tags, row);
  if (a.dv != nullptr && !a.dv->IsNull(row)) {
    if (a.dv_type->IsNull(row) || a.dv_type->GetView(row).size() != 1 || a.dv_path->IsNull(row) ||
        a.dv_size->IsNull(row) || a.dv_cardinality->IsNull(row))
      return std::nullopt;
    dv::DvDescriptor d;
    d.storage_type = a.dv_type->GetView(row)[0];
    d.path_or_inline_dv = std::string(a.dv_path->GetView(row));
    d.offset = Optional(a.dv_offset, row);
    d.size_bytes = a.dv_size->Value(row);
    d.cardinality = a.dv_cardinality->Value(row);
    if (!d.Validate().ok()) return std::nullopt;
    add.deletion_vector = std::move(d);
  }
  add.base_row_id = Optional(a.base_row_id, row);
  add.default_row_commit_version = Optional(a.row_commit_version, row);
  add.clustering_provider = OptionalString(a.clustering, row);
  return add;
}

}  // namespace

Result<std::vector<std::string>> ArrowActionReader::ActionLines(std::string_view file_name,
                                                                std::string_view bytes) const {
  RLC_ASSIGN_OR_RETURN(const Columns columns, ReadColumns(file_name, bytes));
  std::vector<std::string> lines;
  for (int64_t row = 0; row < columns.table->num_rows(); ++row) {
    for (size_t c = 0; c < columns.arrays.size(); ++c) {
      if (columns.arrays[c] == nullptr || columns.arrays[c]->IsNull(row)) continue;
      if (EndsWith(columns.name(c), "_parsed")) continue;
      RLC_ASSIGN_OR_RETURN(std::string line, ActionLine(file_name, columns, c, row));
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

Status ArrowActionReader::ForEachAction(std::string_view file_name, std::string_view bytes,
                                        const ActionVisitor& visit) const {
  RLC_ASSIGN_OR_RETURN(const Columns columns, ReadColumns(file_name, bytes));
  std::optional<AddArrays> adds;
  for (size_t c = 0; c < columns.arrays.size(); ++c) {
    if (columns.name(c) == "add" && columns.arrays[c] != nullptr)
      adds = LocateAdd(*columns.arrays[c]);
  }
  int64_t count = 0;
  for (int64_t row = 0; row < columns.table->num_rows(); ++row) {
    for (size_t c = 0; c < columns.arrays.size(); ++c) {
      if (columns.arrays[c] == nullptr || columns.arrays[c]->IsNull(row)) continue;
      if (EndsWith(columns.name(c), "_parsed")) continue;
      if (adds.has_value() && columns.arrays[c].get() == adds->add) {
        if (std::optional<delta::AddFile> add = DirectAdd(*adds, row)) {
          ++count;
          RLC_RETURN_IF_ERROR(visit(std::move(*add)));
          continue;
        }
      }
      RLC_ASSIGN_OR_RETURN(const std::string line, ActionLine(file_name, columns, c, row));
      Result<delta::Action> action = delta::ParseActionLine(line);
      if (!action.ok()) {
        return action.status().WithContext(std::string(file_name) + ": action " +
                                           std::to_string(count + 1));
      }
      ++count;
      RLC_RETURN_IF_ERROR(visit(std::move(*action)));
    }
  }
  return Status::Ok();
}

}  // namespace rlc::parquet
