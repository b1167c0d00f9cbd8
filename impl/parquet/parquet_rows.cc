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

// One requested leaf of one row group: the leaf array and the structs above it (their NULLs hide
// the leaf's value).
struct Leg {
  std::vector<std::shared_ptr<::arrow::Array>> parents;
  std::shared_ptr<::arrow::Array> leaf;
};

bool SupportedType(::arrow::Type::type t, bool as_stored) {
  if (as_stored && (t == ::arrow::Type::DECIMAL128 || t == ::arrow::Type::BINARY)) return true;
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

// Sets `out` in place (no new Literal per value: this is the per-row loop of every scan).
void SetNumber(Literal& out, Literal::Kind kind, int64_t value) {
  out.kind = kind;
  out.int_value = value;
  out.double_value = 0;
  out.string_value.clear();
}

// The requested leaf within one row group's top-level column, following struct fields by name.
Result<Leg> Descend(std::string_view file_name, std::shared_ptr<::arrow::Array> top,
                    const std::vector<std::string>& names, bool as_stored) {
  Leg c;
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
  if (!SupportedType(at->type_id(), as_stored)) {
    return Status::Unsupported("parquet file " + std::string(file_name) + ": column " +
                               PathText(names) + " has type " + at->type()->ToString() +
                               ", which rlc does not read");
  }
  c.leaf = std::move(at);
  return c;
}

// Where a leg's values are converted to rlc's units (or its NULLs combined with its parents'),
// kept from one row group to the next.
struct Scratch {
  std::vector<int64_t> longs;
  std::vector<double> doubles;
  std::vector<uint8_t> validity;
};

// The leg's NULLs: the leaf's bitmap, or with struct parents a bitmap of their NULLs and its.
void SetValidity(const Leg& leg, Scratch& scratch, ColumnValues& v) {
  const ::arrow::Array& a = *leg.leaf;
  if (leg.parents.empty()) {
    v.validity = a.null_count() == 0 ? nullptr : a.null_bitmap_data();
    v.validity_offset = a.offset();
    return;
  }
  scratch.validity.assign(static_cast<size_t>((a.length() + 7) / 8), 0);
  for (int64_t i = 0; i < a.length(); ++i) {
    bool valid = a.IsValid(i);
    for (const auto& p : leg.parents) valid = valid && p->IsValid(i);
    if (valid) scratch.validity[static_cast<size_t>(i >> 3)] |= uint8_t(1u << (i & 7));
  }
  v.validity = scratch.validity.data();
  v.validity_offset = 0;
}

// Every value of an integer-like array as int64 in `scratch` (times `scale`, or divided by
// `-scale` rounding toward minus infinity when it is negative).
template <typename ArrayType>
const int64_t* Widened(const ::arrow::Array& a, Scratch& scratch, int64_t scale = 1) {
  const auto& typed = static_cast<const ArrayType&>(a);
  scratch.longs.resize(static_cast<size_t>(a.length()));
  for (int64_t i = 0; i < a.length(); ++i) {
    const auto x = static_cast<int64_t>(typed.Value(i));
    // Wrapping, not undefined, where a value (or a NULL slot's filler) overflows the unit.
    const auto scaled =
        static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(scale));
    scratch.longs[static_cast<size_t>(i)] = scale > 0 ? scaled : FloorDiv(x, -scale);
  }
  return scratch.longs.data();
}

// A timestamp unit's factor to microseconds (negative: a divisor).
int64_t MicrosScale(const ::arrow::Array& a) {
  switch (static_cast<const ::arrow::TimestampType&>(*a.type()).unit()) {
    case ::arrow::TimeUnit::SECOND:
      return 1000000;
    case ::arrow::TimeUnit::MILLI:
      return 1000;
    case ::arrow::TimeUnit::MICRO:
      return 1;
    case ::arrow::TimeUnit::NANO:
      return -1000;
  }
  return 1;
}

// The leg as plain views: Arrow's own memory where it holds rlc's units, else `scratch`.
ColumnValues ValuesOf(const Leg& leg, Scratch& scratch) {
  const ::arrow::Array& a = *leg.leaf;
  using K = Literal::Kind;
  ColumnValues v;
  SetValidity(leg, scratch, v);
  const auto direct = [&](auto* values) {
    v.offset = a.offset();
    return values;
  };
  switch (a.type_id()) {
    case ::arrow::Type::INT64:
      v.kind = K::kLong, v.longs = direct(a.data()->GetValues<int64_t>(1, 0));
      break;
    case ::arrow::Type::INT32:
      v.kind = K::kLong, v.longs = Widened<::arrow::Int32Array>(a, scratch);
      break;
    case ::arrow::Type::INT16:
      v.kind = K::kLong, v.longs = Widened<::arrow::Int16Array>(a, scratch);
      break;
    case ::arrow::Type::INT8:
      v.kind = K::kLong, v.longs = Widened<::arrow::Int8Array>(a, scratch);
      break;
    case ::arrow::Type::BOOL:
      v.kind = K::kBool, v.longs = Widened<::arrow::BooleanArray>(a, scratch);
      break;
    case ::arrow::Type::DATE32:
      v.kind = K::kDate, v.longs = Widened<::arrow::Date32Array>(a, scratch);
      break;
    case ::arrow::Type::TIMESTAMP:
      v.kind = K::kTimestamp;
      v.longs = MicrosScale(a) == 1 ? direct(a.data()->GetValues<int64_t>(1, 0))
                                    : Widened<::arrow::TimestampArray>(a, scratch, MicrosScale(a));
      break;
    case ::arrow::Type::DOUBLE:
      v.kind = K::kDouble, v.doubles = direct(a.data()->GetValues<double>(1, 0));
      break;
    case ::arrow::Type::FLOAT: {
      const auto& f = static_cast<const ::arrow::FloatArray&>(a);
      scratch.doubles.assign(f.raw_values(), f.raw_values() + f.length());
      v.kind = K::kDouble, v.doubles = scratch.doubles.data();
      break;
    }
    case ::arrow::Type::STRING:
      v.kind = K::kString, v.offsets = direct(a.data()->GetValues<int32_t>(1, 0));
      v.chars = a.data()->GetValues<char>(2, 0);
      break;
    case ::arrow::Type::BINARY:  // asked for as stored: the bytes, laid out as a string's
      v.kind = K::kString, v.offsets = direct(a.data()->GetValues<int32_t>(1, 0));
      v.chars = a.data()->GetValues<char>(2, 0);
      break;
    case ::arrow::Type::LARGE_STRING:
      v.kind = K::kString, v.large_offsets = direct(a.data()->GetValues<int64_t>(1, 0));
      v.chars = a.data()->GetValues<char>(2, 0);
      break;
    default:  // NA; other types are refused before reading
      v.kind = K::kNull;
      break;
  }
  return v;
}

// A decimal leg asked for as stored: each value's unscaled integer, which must fit 64 bits (a
// decimal of precision 18 or less always does). Arrow's decimal128 is 16 bytes, little-endian
// two's complement: the value fits when the high word is the low word's sign.
Result<ColumnValues> UnscaledValues(std::string_view file_name, const Leg& leg, Scratch& scratch) {
  const auto& a = static_cast<const ::arrow::Decimal128Array&>(*leg.leaf);
  ColumnValues v;
  SetValidity(leg, scratch, v);
  scratch.longs.resize(static_cast<size_t>(a.length()));
  for (int64_t i = 0; i < a.length(); ++i) {
    if (!a.IsValid(i)) continue;
    const ::arrow::Decimal128 d(a.GetValue(i));
    const auto low = static_cast<int64_t>(d.low_bits());
    if (d.high_bits() != (low < 0 ? -1 : 0)) {
      return Status::Unsupported("parquet file " + std::string(file_name) +
                                 ": a decimal past 64 bits in row " + std::to_string(i));
    }
    scratch.longs[static_cast<size_t>(i)] = low;
  }
  v.kind = Literal::Kind::kLong;
  v.longs = scratch.longs.data();
  return v;
}

}  // namespace

void ColumnValues::Read(int64_t row, Literal& out) const {
  if (IsNull(row)) return SetNumber(out, Literal::Kind::kNull, 0);
  switch (kind) {
    case Literal::Kind::kDouble:
      SetNumber(out, kind, 0);
      out.double_value = doubles[row + offset];
      return;
    case Literal::Kind::kString:
      SetNumber(out, kind, 0);
      out.string_value.assign(String(row));
      return;
    default:
      return SetNumber(out, kind, longs[row + offset]);
  }
}

namespace {

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

// One requested column's leg in one row group, as one array (a column Arrow read in several
// chunks is joined).
Result<Leg> LegOf(std::string_view file_name, const ::arrow::Table& table, int64_t rows,
                  const std::vector<std::string>& names, bool as_stored) {
  const std::shared_ptr<::arrow::ChunkedArray> column = table.GetColumnByName(names[0]);
  if (column == nullptr || column->length() != rows) {
    return Corrupt(file_name, "a row group does not hold column " + PathText(names) + " whole");
  }
  std::shared_ptr<::arrow::Array> whole;
  if (column->num_chunks() == 1) {
    whole = column->chunk(0);
  } else {
    ::arrow::Result<std::shared_ptr<::arrow::Array>> joined =
        ::arrow::Concatenate(column->chunks(), ::arrow::default_memory_pool());
    if (!joined.ok()) return Corrupt(file_name, joined.status().ToString());
    whole = std::move(*joined);
  }
  return Descend(file_name, std::move(whole), names, as_stored);
}

// Which leaf of the file answers each requested column (nullopt: none, it reads as NULL), and
// the leaves to read, ascending.
struct Plan {
  std::vector<Leaf> leaves;
  std::vector<std::optional<int>> where;
  std::vector<int> leaf_indices;
};

Result<Plan> PlanOf(std::string_view file_name, const ::parquet::FileMetaData& meta,
                    const std::vector<FileColumn>& columns) {
  Plan plan;
  plan.leaves = Leaves(*meta.schema());
  for (const FileColumn& column : columns) {
    RLC_ASSIGN_OR_RETURN(std::optional<int> leaf, Locate(file_name, plan.leaves, column));
    plan.where.push_back(leaf);
    if (leaf && std::find(plan.leaf_indices.begin(), plan.leaf_indices.end(), *leaf) ==
                    plan.leaf_indices.end())
      plan.leaf_indices.push_back(*leaf);
  }
  std::sort(plan.leaf_indices.begin(), plan.leaf_indices.end());
  return plan;
}

}  // namespace

Status ScanParquetBatches(std::string_view file_name, std::string_view bytes,
                          const std::vector<FileColumn>& columns, const RowBatchVisitor& visit) {
  RLC_ASSIGN_OR_RETURN(std::unique_ptr<::parquet::arrow::FileReader> reader,
                       Open(file_name, bytes));
  const std::shared_ptr<::parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
  RLC_ASSIGN_OR_RETURN(const Plan plan, PlanOf(file_name, *meta, columns));
  std::vector<Scratch> scratch(columns.size());
  RowBatch batch;
  for (int group = 0; group < meta->num_row_groups(); ++group) {
    const int64_t rows = meta->RowGroup(group)->num_rows();
    batch.length = rows;
    batch.columns.assign(columns.size(), ColumnValues{});
    std::shared_ptr<::arrow::Table> table;
    if (!plan.leaf_indices.empty()) {
      RLC_ASSIGN_OR_RETURN(table, ReadGroup(file_name, *reader, group, plan.leaf_indices));
    }
    for (size_t i = 0; i < columns.size(); ++i) {
      if (!plan.where[i].has_value()) continue;
      const Leaf& leaf = plan.leaves[static_cast<size_t>(*plan.where[i])];
      RLC_ASSIGN_OR_RETURN(const Leg leg,
                           LegOf(file_name, *table, rows, leaf.names, columns[i].as_stored));
      if (leg.leaf->type_id() == ::arrow::Type::DECIMAL128) {
        RLC_ASSIGN_OR_RETURN(batch.columns[i], UnscaledValues(file_name, leg, scratch[i]));
      } else {
        batch.columns[i] = ValuesOf(leg, scratch[i]);
      }
    }
    if (rows > 0 && !visit(batch)) return Status::Ok();
    batch.first_position += static_cast<uint64_t>(rows);
  }
  if (batch.first_position != static_cast<uint64_t>(meta->num_rows())) {
    return Corrupt(file_name, "the row groups hold " + std::to_string(batch.first_position) +
                                  " rows, the footer says " + std::to_string(meta->num_rows()));
  }
  return Status::Ok();
}

Status ScanParquetRows(std::string_view file_name, std::string_view bytes,
                       const std::vector<FileColumn>& columns, const ParquetRowVisitor& visit) {
  std::vector<Literal> values(columns.size());
  return ScanParquetBatches(file_name, bytes, columns, [&](const RowBatch& batch) {
    for (int64_t r = 0; r < batch.length; ++r) {
      for (size_t i = 0; i < values.size(); ++i) batch.columns[i].Read(r, values[i]);
      if (!visit(batch.first_position + static_cast<uint64_t>(r), values)) return false;
    }
    return true;
  });
}

}  // namespace rlc::parquet
