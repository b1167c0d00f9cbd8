#include "impl/parquet/checkpoint_actions.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>

#include <cmath>
#include <cstdio>
#include <memory>

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

}  // namespace

Result<std::vector<std::string>> ArrowActionReader::ActionLines(std::string_view file_name,
                                                                std::string_view bytes) const {
  RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Table> table, ReadWhole(file_name, bytes));
  // One chunk per column, so that row r is row r of every column.
  ::arrow::Result<std::shared_ptr<::arrow::Table>> combined = table->CombineChunks();
  if (!combined.ok()) {
    return Status::Corrupt("parquet file " + std::string(file_name) + ": " +
                           combined.status().ToString());
  }
  std::vector<std::shared_ptr<::arrow::Array>> columns;
  for (const auto& column : (*combined)->columns()) {
    columns.push_back(column->num_chunks() == 0 ? nullptr : column->chunk(0));
  }
  std::vector<std::string> lines;
  for (int64_t row = 0; row < (*combined)->num_rows(); ++row) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == nullptr || columns[c]->IsNull(row)) continue;
      const std::string& name = (*combined)->schema()->field(static_cast<int>(c))->name();
      if (EndsWith(name, "_parsed")) continue;
      std::string line = "{";
      delta::AppendJsonQuoted(name, &line);
      line.push_back(':');
      RLC_RETURN_IF_ERROR(AppendValue(
          *columns[c], row, std::string(file_name) + ": row " + std::to_string(row) + ", " + name,
          &line));
      line.push_back('}');
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

}  // namespace rlc::parquet
