#include "impl/parquet/parquet_rows.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/reader.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>

#include <algorithm>
#include <memory>
#include <utility>

namespace rlc::parquet {
namespace {

using predicate::Literal;

std::string PathText(const std::vector<std::string>& path) {
  std::string text;
  for (const std::string& name : path) text += (text.empty() ? "" : ".") + name;
  return text;
}

Status Corrupt(std::string_view file_name, const std::string& what) {
  return Status::Corrupt("parquet file " + std::string(file_name) + ": " + what);
}

// A leaf of the file's schema: its field names and ids from the top (the root group left out).
struct Leaf {
  std::vector<std::string> names;
  std::vector<int32_t> ids;
};

std::vector<Leaf> Leaves(const ::parquet::SchemaDescriptor& schema) {
  std::vector<Leaf> leaves;
  for (int i = 0; i < schema.num_columns(); ++i) {
    Leaf leaf;
    for (const ::parquet::schema::Node* n = schema.Column(i)->schema_node().get();
         n != nullptr && n->parent() != nullptr; n = n->parent()) {
      leaf.names.insert(leaf.names.begin(), n->name());
      leaf.ids.insert(leaf.ids.begin(), n->field_id());
    }
    leaves.push_back(std::move(leaf));
  }
  return leaves;
}

bool IsPrefix(const std::vector<std::string>& prefix, const std::vector<std::string>& of) {
  return prefix.size() < of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

// Where a requested column is: a leaf index, or none (the file lacks it: it reads as NULL).
// A request that names a group (a list, a map, a struct) rather than a leaf is unsupported.
Result<std::optional<int>> Locate(std::string_view file_name, const std::vector<Leaf>& leaves,
                                  const FileColumn& column) {
  const bool by_id = !column.field_ids.empty();
  for (size_t i = 0; i < leaves.size(); ++i) {
    const bool same = by_id ? leaves[i].ids == column.field_ids : leaves[i].names == column.path;
    if (same) return std::optional<int>(static_cast<int>(i));
  }
  for (const Leaf& leaf : leaves) {
    if (!by_id && IsPrefix(column.path, leaf.names)) {
      return Status::Unsupported("parquet file " + std::string(file_name) + ": column " +
                                 PathText(column.path) + " is nested (a list, map or struct)");
    }
  }
  return std::optional<int>();
}

// One requested column of one chunk: the leaf array and the structs above it (their NULLs hide
// the leaf's value).
struct ChunkColumn {
  std::vector<std::shared_ptr<::arrow::Array>> parents;
  std::shared_ptr<::arrow::Array> leaf;
  // The common case, decided once per chunk: a top-level int64 column (no parents).
  const int64_t* int64_values = nullptr;
  bool may_be_null = true;
};

bool SupportedType(::arrow::Type::type t) {
  switch (t) {
    case ::arrow::Type::BOOL:
    case ::arrow::Type::INT8:
    case ::arrow::Type::INT16:
    case ::arrow::Type::INT32:
    case ::arrow::Type::INT64:
    case ::arrow::Type::FLOAT:
    case ::arrow::Type::DOUBLE:
    case ::arrow::Type::STRING:
    case ::arrow::Type::LARGE_STRING:
    case ::arrow::Type::DATE32:
    case ::arrow::Type::TIMESTAMP:
    case ::arrow::Type::NA:
      return true;
    default:
      return false;
  }
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t Micros(const ::arrow::TimestampArray& a, int64_t row) {
  const int64_t v = a.Value(row);
  switch (static_cast<const ::arrow::TimestampType&>(*a.type()).unit()) {
    case ::arrow::TimeUnit::SECOND:
      return v * 1000000;
    case ::arrow::TimeUnit::MILLI:
      return v * 1000;
    case ::arrow::TimeUnit::MICRO:
      return v;
    case ::arrow::TimeUnit::NANO:
      return FloorDiv(v, 1000);
  }
  return v;
}

// Sets `out` in place (no new Literal per value: this is the per-row loop of every scan).
void SetNumber(Literal& out, Literal::Kind kind, int64_t value) {
  out.kind = kind;
  out.int_value = value;
  out.double_value = 0;
  out.string_value.clear();
}

void ReadValue(const ChunkColumn& c, int64_t row, Literal& out) {
  if (c.int64_values != nullptr && (!c.may_be_null || c.leaf->IsValid(row))) {
    return SetNumber(out, Literal::Kind::kLong, c.int64_values[row]);
  }
  for (const auto& p : c.parents) {
    if (p->IsNull(row)) return SetNumber(out, Literal::Kind::kNull, 0);
  }
  const ::arrow::Array& a = *c.leaf;
  if (a.IsNull(row)) return SetNumber(out, Literal::Kind::kNull, 0);
  using K = Literal::Kind;
  switch (a.type_id()) {
    case ::arrow::Type::INT64:
      return SetNumber(out, K::kLong, static_cast<const ::arrow::Int64Array&>(a).Value(row));
    case ::arrow::Type::INT32:
      return SetNumber(out, K::kLong, static_cast<const ::arrow::Int32Array&>(a).Value(row));
    case ::arrow::Type::INT16:
      return SetNumber(out, K::kLong, static_cast<const ::arrow::Int16Array&>(a).Value(row));
    case ::arrow::Type::INT8:
      return SetNumber(out, K::kLong, static_cast<const ::arrow::Int8Array&>(a).Value(row));
    case ::arrow::Type::BOOL:
      return SetNumber(out, K::kBool, static_cast<const ::arrow::BooleanArray&>(a).Value(row));
    case ::arrow::Type::DATE32:
      return SetNumber(out, K::kDate, static_cast<const ::arrow::Date32Array&>(a).Value(row));
    case ::arrow::Type::TIMESTAMP:
      return SetNumber(out, K::kTimestamp,
                       Micros(static_cast<const ::arrow::TimestampArray&>(a), row));
    case ::arrow::Type::FLOAT:
    case ::arrow::Type::DOUBLE:
      SetNumber(out, K::kDouble, 0);
      out.double_value = a.type_id() == ::arrow::Type::FLOAT
                             ? static_cast<const ::arrow::FloatArray&>(a).Value(row)
                             : static_cast<const ::arrow::DoubleArray&>(a).Value(row);
      return;
    case ::arrow::Type::STRING:
    case ::arrow::Type::LARGE_STRING:
      SetNumber(out, K::kString, 0);
      out.string_value.assign(a.type_id() == ::arrow::Type::STRING
                                  ? static_cast<const ::arrow::StringArray&>(a).GetView(row)
                                  : static_cast<const ::arrow::LargeStringArray&>(a).GetView(row));
      return;
    default:  // NA; other types are refused before reading
      return SetNumber(out, K::kNull, 0);
  }
}

// The requested leaf within one chunk of its top-level column, following struct fields by name.
Result<ChunkColumn> Descend(std::string_view file_name, std::shared_ptr<::arrow::Array> top,
                            const std::vector<std::string>& names) {
  ChunkColumn c;
  std::shared_ptr<::arrow::Array> at = std::move(top);
  for (size_t level = 1; level < names.size(); ++level) {
    if (at->type_id() != ::arrow::Type::STRUCT) {
      return Status::Unsupported("parquet file " + std::string(file_name) + ": column " +
                                 PathText(names) + " is inside a list or map");
    }
    auto& parent = static_cast<const ::arrow::StructArray&>(*at);
    std::shared_ptr<::arrow::Array> child = parent.GetFieldByName(names[level]);
    if (child == nullptr)
      return Corrupt(file_name, "no field " + PathText(names) + " in a row group");
    c.parents.push_back(at);
    at = std::move(child);
  }
  if (!SupportedType(at->type_id())) {
    return Status::Unsupported("parquet file " + std::string(file_name) + ": column " +
                               PathText(names) + " has type " + at->type()->ToString() +
                               ", which rlc does not read");
  }
  c.may_be_null = at->null_count() != 0;
  if (c.parents.empty() && at->type_id() == ::arrow::Type::INT64)
    c.int64_values = static_cast<const ::arrow::Int64Array&>(*at).raw_values();
  c.leaf = std::move(at);
  return c;
}

Result<std::unique_ptr<::parquet::arrow::FileReader>> Open(std::string_view file_name,
                                                           std::string_view bytes) {
  auto buffer = std::make_shared<::arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int64_t>(bytes.size()));
  try {
    ::arrow::Result<std::unique_ptr<::parquet::arrow::FileReader>> reader =
        ::parquet::arrow::OpenFile(std::make_shared<::arrow::io::BufferReader>(buffer),
                                   ::arrow::default_memory_pool());
    if (!reader.ok()) return Corrupt(file_name, reader.status().ToString());
    return std::move(*reader);
  } catch (const std::exception& e) {
    return Corrupt(file_name, e.what());
  }
}

}  // namespace

Result<ParquetFileFacts> ReadParquetFacts(std::string_view file_name, std::string_view bytes) {
  RLC_ASSIGN_OR_RETURN(std::unique_ptr<::parquet::arrow::FileReader> reader,
                       Open(file_name, bytes));
  const std::shared_ptr<::parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
  ParquetFileFacts facts;
  facts.num_rows = meta->num_rows();
  facts.num_row_groups = meta->num_row_groups();
  facts.created_by = meta->created_by();
  for (Leaf& leaf : Leaves(*meta->schema())) facts.leaf_paths.push_back(std::move(leaf.names));
  return facts;
}

namespace {

// One requested column across the chunks of one row group.
struct Cursor {
  std::vector<ChunkColumn> chunks;  // empty: the file lacks the column (NULL)
  size_t chunk = 0;
  int64_t row = 0;

  void Next(Literal& out) {
    if (chunks.empty()) return SetNumber(out, Literal::Kind::kNull, 0);
    while (row >= chunks[chunk].leaf->length()) {
      ++chunk;
      row = 0;
    }
    ReadValue(chunks[chunk], row++, out);
  }
};

Result<std::vector<Cursor>> Cursors(std::string_view file_name, const ::arrow::Table& table,
                                    int64_t rows, const std::vector<Leaf>& leaves,
                                    const std::vector<std::optional<int>>& where) {
  std::vector<Cursor> cursors(where.size());
  for (size_t i = 0; i < where.size(); ++i) {
    if (!where[i].has_value()) continue;
    const std::vector<std::string>& names = leaves[static_cast<size_t>(*where[i])].names;
    const std::shared_ptr<::arrow::ChunkedArray> column = table.GetColumnByName(names[0]);
    if (column == nullptr || column->length() != rows) {
      return Corrupt(file_name, "a row group does not hold column " + PathText(names) + " whole");
    }
    for (const std::shared_ptr<::arrow::Array>& chunk : column->chunks()) {
      if (chunk->length() == 0) continue;
      RLC_ASSIGN_OR_RETURN(ChunkColumn c, Descend(file_name, chunk, names));
      cursors[i].chunks.push_back(std::move(c));
    }
  }
  return cursors;
}

Result<std::shared_ptr<::arrow::Table>> ReadGroup(std::string_view file_name,
                                                  ::parquet::arrow::FileReader& reader, int group,
                                                  const std::vector<int>& leaf_indices) {
  try {
    ::arrow::Result<std::shared_ptr<::arrow::Table>> table =
        reader.ReadRowGroup(group, leaf_indices);
    if (!table.ok()) {
      return Corrupt(file_name,
                     "row group " + std::to_string(group) + ": " + table.status().ToString());
    }
    return *table;
  } catch (const std::exception& e) {
    return Corrupt(file_name, "row group " + std::to_string(group) + ": " + e.what());
  }
}

}  // namespace

Status ScanParquetRows(std::string_view file_name, std::string_view bytes,
                       const std::vector<FileColumn>& columns, const ParquetRowVisitor& visit) {
  RLC_ASSIGN_OR_RETURN(std::unique_ptr<::parquet::arrow::FileReader> reader,
                       Open(file_name, bytes));
  const std::shared_ptr<::parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
  const std::vector<Leaf> leaves = Leaves(*meta->schema());
  std::vector<std::optional<int>> where;
  std::vector<int> leaf_indices;
  for (const FileColumn& column : columns) {
    RLC_ASSIGN_OR_RETURN(std::optional<int> leaf, Locate(file_name, leaves, column));
    where.push_back(leaf);
    if (leaf && std::find(leaf_indices.begin(), leaf_indices.end(), *leaf) == leaf_indices.end())
      leaf_indices.push_back(*leaf);
  }
  std::sort(leaf_indices.begin(), leaf_indices.end());
  uint64_t position = 0;
  std::vector<Literal> values(columns.size());
  for (int group = 0; group < meta->num_row_groups(); ++group) {
    const int64_t rows = meta->RowGroup(group)->num_rows();
    std::vector<Cursor> cursors(columns.size());
    if (!leaf_indices.empty()) {
      RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Table> table,
                           ReadGroup(file_name, *reader, group, leaf_indices));
      RLC_ASSIGN_OR_RETURN(cursors, Cursors(file_name, *table, rows, leaves, where));
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (size_t i = 0; i < cursors.size(); ++i) cursors[i].Next(values[i]);
      if (!visit(position++, values)) return Status::Ok();
    }
  }
  if (position != static_cast<uint64_t>(meta->num_rows())) {
    return Corrupt(file_name, "the row groups hold " + std::to_string(position) +
                                  " rows, the footer says " + std::to_string(meta->num_rows()));
  }
  return Status::Ok();
}

}  // namespace rlc::parquet
