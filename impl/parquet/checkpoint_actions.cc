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
    // The top-level columns decoded at once on Arrow's CPU pool: a checkpoint's add column
    // holds its data, but every leaf of every other action (remove, metaData, txn, ...) still
    // decodes a level per row, and a 1,000,000-file checkpoint's replay took ~40% less so.
    (*reader)->set_use_threads(true);
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

// The JSON line of the action in row `row` of `column` (named `name`).
Result<std::string> LineOf(const std::string& where, const std::string& name,
                           const ::arrow::Array& column, int64_t row) {
  std::string line = "{";
  delta::AppendJsonQuoted(name, &line);
  line.push_back(':');
  RLC_RETURN_IF_ERROR(AppendValue(column, row, where + ", " + name, &line));
  line.push_back('}');
  return line;
}

// The JSON line of column `c`'s action in `row`.
Result<std::string> ActionLine(std::string_view file_name, const Columns& columns, size_t c,
                               int64_t row) {
  return LineOf(std::string(file_name) + ": row " + std::to_string(row), columns.name(c),
                *columns.arrays[c], row);
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

delta::ColumnBits BitsOf(const ::arrow::Array& a) { return {a.null_bitmap_data(), a.offset()}; }

delta::StringColumn StringsOf(const ::arrow::StringArray* a) {
  delta::StringColumn c;
  if (a == nullptr) return c;
  c.validity = BitsOf(*a);
  c.offsets = a->data()->GetValues<int32_t>(1, 0);
  c.data = a->data()->GetValues<char>(2, 0);
  c.offset = a->offset();
  return c;
}

template <typename T, typename A>
delta::ValueColumn<T> ValuesOf(const A* a) {
  if (a == nullptr) return {};
  return {BitsOf(*a), a->data()->template GetValues<T>(1, 0), a->offset()};
}

delta::StringMapColumn MapOf(const ::arrow::MapArray* m) {
  delta::StringMapColumn c;
  if (m == nullptr) return c;
  c.validity = BitsOf(*m);
  c.offsets = m->data()->GetValues<int32_t>(1, 0);
  c.offset = m->offset();
  c.keys = StringsOf(static_cast<const ::arrow::StringArray*>(m->keys().get()));
  c.items = StringsOf(static_cast<const ::arrow::StringArray*>(m->items().get()));
  return c;
}

// The add column's chunk as columns (`first_row`: its first row in the file), or nullopt when its
// fields are not Delta's checkpoint schema's (then every add goes through its JSON line).
std::optional<delta::AddColumns> BatchOf(std::string_view file_name,
                                         std::shared_ptr<::arrow::Array> chunk, int64_t first_row,
                                         std::shared_ptr<const void> owner) {
  const std::optional<AddArrays> a = LocateAdd(*chunk);
  if (!a.has_value()) return std::nullopt;
  delta::AddColumns c;
  c.length = chunk->length();
  c.add = BitsOf(*a->add);
  c.source = std::string(file_name);
  c.first_row = first_row;
  c.path = StringsOf(a->path);
  c.partition_values = MapOf(a->partition_values);
  c.size = ValuesOf<int64_t>(a->size);
  c.modification_time = ValuesOf<int64_t>(a->modification_time);
  const ::arrow::BooleanArray& change = *a->data_change;
  const std::shared_ptr<::arrow::Buffer>& bits = change.data()->buffers[1];
  c.data_change = {
      BitsOf(change), {bits ? bits->data() : nullptr, change.offset()}, bits != nullptr};
  c.stats = StringsOf(a->stats);
  c.clustering_provider = StringsOf(a->clustering);
  c.tags = MapOf(a->tags);
  if (a->dv != nullptr) {
    c.deletion_vector = {BitsOf(*a->dv),
                         true,
                         StringsOf(a->dv_type),
                         StringsOf(a->dv_path),
                         ValuesOf<int32_t>(a->dv_offset),
                         ValuesOf<int32_t>(a->dv_size),
                         ValuesOf<int64_t>(a->dv_cardinality)};
  }
  c.base_row_id = ValuesOf<int64_t>(a->base_row_id);
  c.default_row_commit_version = ValuesOf<int64_t>(a->row_commit_version);
  c.owner = std::move(owner);
  c.slow_row = [chunk, file = c.source, first_row](int64_t row) -> Result<delta::Action> {
    const std::string where = file + ": row " + std::to_string(first_row + row);
    RLC_ASSIGN_OR_RETURN(const std::string line, LineOf(where, "add", *chunk, row));
    Result<delta::Action> action = delta::ParseActionLine(line);
    if (!action.ok()) return action.status().WithContext(where);
    return action;
  };
  return c;
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
  std::optional<delta::AddColumns> adds;
  for (size_t c = 0; c < columns.arrays.size(); ++c) {
    if (columns.name(c) == "add" && columns.arrays[c] != nullptr)
      adds = BatchOf(file_name, columns.arrays[c], 0, nullptr);
  }
  int64_t count = 0;
  for (int64_t row = 0; row < columns.table->num_rows(); ++row) {
    for (size_t c = 0; c < columns.arrays.size(); ++c) {
      if (columns.arrays[c] == nullptr || columns.arrays[c]->IsNull(row)) continue;
      if (EndsWith(columns.name(c), "_parsed")) continue;
      ++count;
      if (adds.has_value() && columns.name(c) == "add" && delta::IsDirectAdd(*adds, row)) {
        RLC_RETURN_IF_ERROR(visit(delta::AddAt(*adds, row)));
        continue;
      }
      RLC_ASSIGN_OR_RETURN(const std::string line, ActionLine(file_name, columns, c, row));
      Result<delta::Action> action = delta::ParseActionLine(line);
      if (!action.ok()) {
        return action.status().WithContext(std::string(file_name) + ": action " +
                                           std::to_string(count));
      }
      RLC_RETURN_IF_ERROR(visit(std::move(*action)));
    }
  }
  return Status::Ok();
}

Status ArrowActionReader::ForEachActionOrAddBatch(std::string_view file_name,
                                                  std::shared_ptr<const std::string> bytes,
                                                  const ActionVisitor& visit,
                                                  const AddBatchVisitor& batches) const {
  RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Table> table, ReadWhole(file_name, *bytes));
  // The batches view the table's buffers, which may view the file's bytes: both are kept.
  auto owner = std::make_shared<
      std::pair<std::shared_ptr<const std::string>, std::shared_ptr<::arrow::Table>>>(bytes, table);
  const std::string file(file_name);
  for (int c = 0; c < table->num_columns(); ++c) {
    const std::string& name = table->schema()->field(c)->name();
    if (EndsWith(name, "_parsed")) continue;
    int64_t first_row = 0;
    for (const std::shared_ptr<::arrow::Array>& chunk : table->column(c)->chunks()) {
      std::optional<delta::AddColumns> batch;
      if (name == "add") batch = BatchOf(file_name, chunk, first_row, owner);
      if (batch.has_value()) {
        RLC_RETURN_IF_ERROR(batches(std::move(*batch)));
      } else if (chunk->null_count() != chunk->length()) {
        for (int64_t row = 0; row < chunk->length(); ++row) {
          if (chunk->IsNull(row)) continue;
          const std::string where = file + ": row " + std::to_string(first_row + row);
          RLC_ASSIGN_OR_RETURN(const std::string line, LineOf(where, name, *chunk, row));
          Result<delta::Action> action = delta::ParseActionLine(line);
          if (!action.ok()) return action.status().WithContext(where);
          RLC_RETURN_IF_ERROR(visit(std::move(*action)));
        }
      }
      first_row += chunk->length();
    }
  }
  return Status::Ok();
}

}  // namespace rlc::parquet
