#include "fuzz/oracle/reference_parquet.h"

#include <arrow/io/memory.h>
#include <parquet/column_reader.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>
#include <parquet/types.h>

#include <charconv>
#include <cmath>
#include <memory>

namespace rlc::oracle {
namespace {

constexpr int64_t kBatch = 1024;
// More rows than any simulated table holds: a footer that claims more is refused before the
// rows are allocated.
constexpr int64_t kMaxRows = int64_t{1} << 24;

json::Value Number(int64_t n) {
  json::Value v;
  v.kind = json::Value::Kind::kNumber;
  v.text = std::to_string(n);
  return v;
}

// A double as text the oracle's value reading takes back (final_rows.cc): the shortest digits, or
// a string for NaN and the infinities.
json::Value DoubleValue(double d) {
  json::Value v;
  if (std::isnan(d) || std::isinf(d)) {
    v.kind = json::Value::Kind::kString;
    v.text = std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity");
    return v;
  }
  char digits[32];
  v.kind = json::Value::Kind::kNumber;
  v.text.assign(digits, std::to_chars(digits, digits + sizeof(digits), d).ptr);
  return v;
}

json::Value Text(const ::parquet::ByteArray& bytes) {
  json::Value v;
  v.kind = json::Value::Kind::kString;
  v.text.assign(reinterpret_cast<const char*>(bytes.ptr), bytes.len);
  return v;
}

// Appends column `c` of one row group to rows[first..]: values where the definition level says
// a value is there, NULL elsewhere.
template <typename Reader, typename Convert>
bool ReadColumn(Reader& reader, int16_t max_def, std::vector<json::Value>& rows, size_t first,
                Convert convert, std::string* why) {
  using T = typename Reader::T;
  std::vector<T> values(kBatch);
  std::vector<int16_t> defs(kBatch);
  size_t row = first;
  while (reader.HasNext()) {
    int64_t read_values = 0;
    const int64_t levels =
        reader.ReadBatch(kBatch, defs.data(), nullptr, values.data(), &read_values);
    int64_t next_value = 0;
    for (int64_t i = 0; i < levels; ++i, ++row) {
      if (row >= rows.size()) return *why = "a column holds more values than its row group", false;
      const bool present = max_def == 0 || defs[static_cast<size_t>(i)] == max_def;
      rows[row].items.push_back(present ? convert(values[static_cast<size_t>(next_value++)])
                                        : json::Value{});
    }
  }
  if (row != rows.size()) return *why = "a column holds fewer values than its row group", false;
  return true;
}

bool ReadRowGroup(::parquet::RowGroupReader& group, const ::parquet::SchemaDescriptor& schema,
                  std::vector<json::Value>& rows, size_t first, std::string* why) {
  for (int c = 0; c < schema.num_columns(); ++c) {
    const ::parquet::ColumnDescriptor* d = schema.Column(c);
    const std::shared_ptr<::parquet::ColumnReader> column = group.Column(c);
    const int16_t max_def = d->max_definition_level();
    bool ok = false;
    if (d->physical_type() == ::parquet::Type::INT64) {
      ok = ReadColumn(
          static_cast<::parquet::Int64Reader&>(*column), max_def, rows, first,
          [](int64_t n) { return Number(n); }, why);
    } else if (d->physical_type() == ::parquet::Type::INT32) {
      ok = ReadColumn(
          static_cast<::parquet::Int32Reader&>(*column), max_def, rows, first,
          [](int32_t n) { return Number(n); }, why);
    } else if (d->physical_type() == ::parquet::Type::DOUBLE) {
      ok = ReadColumn(static_cast<::parquet::DoubleReader&>(*column), max_def, rows, first,
                      DoubleValue, why);
    } else {
      ok = ReadColumn(static_cast<::parquet::ByteArrayReader&>(*column), max_def, rows, first, Text,
                      why);
    }
    if (!ok) return *why = "column " + d->name() + ": " + *why, false;
  }
  return true;
}

// The columns, or false when one is not flat, or of a type the oracle does not read.
bool Columns(const ::parquet::SchemaDescriptor& schema, std::vector<std::string>* names,
             std::string* why) {
  for (int c = 0; c < schema.num_columns(); ++c) {
    const ::parquet::ColumnDescriptor* d = schema.Column(c);
    const bool is_string = d->physical_type() == ::parquet::Type::BYTE_ARRAY &&
                           d->logical_type() != nullptr && d->logical_type()->is_string();
    // A plain signed integer: no logical type, or a signed Int (not a date, time, timestamp or
    // decimal stored in integers, which are other values).
    const std::shared_ptr<const ::parquet::LogicalType>& logical = d->logical_type();
    const bool plain =
        logical == nullptr || logical->is_none() ||
        (logical->is_int() && static_cast<const ::parquet::IntLogicalType&>(*logical).is_signed());
    const bool is_integer = plain && (d->physical_type() == ::parquet::Type::INT64 ||
                                      d->physical_type() == ::parquet::Type::INT32);
    // Values the simulator writes in integers: an instant in microseconds (UTC-adjusted, as
    // Delta's `timestamp`), a date in days; both read as their integer. Any other unit or a
    // wall-clock timestamp is another value.
    const bool is_instant =
        logical != nullptr && logical->is_timestamp() &&
        d->physical_type() == ::parquet::Type::INT64 &&
        static_cast<const ::parquet::TimestampLogicalType&>(*logical).is_adjusted_to_utc() &&
        static_cast<const ::parquet::TimestampLogicalType&>(*logical).time_unit() ==
            ::parquet::LogicalType::TimeUnit::MICROS;
    const bool is_date =
        logical != nullptr && logical->is_date() && d->physical_type() == ::parquet::Type::INT32;
    const bool is_double =
        d->physical_type() == ::parquet::Type::DOUBLE && (logical == nullptr || logical->is_none());
    if (d->max_repetition_level() != 0 || d->max_definition_level() > 1 ||
        d->path()->ToDotVector().size() != 1) {
      return *why = "column " + d->path()->ToDotString() + " is not a flat column", false;
    }
    if (!is_string && !is_integer && !is_instant && !is_date && !is_double)
      return *why = "column " + d->name() + " is of a type the oracle does not read", false;
    names->push_back(d->name());
  }
  return true;
}

}  // namespace

bool ReadParquetRows(const std::string& path, const std::string& bytes, ParquetColumnsAndRows* out,
                     std::string* why) {
  try {
    auto buffer = std::make_shared<::arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                    static_cast<int64_t>(bytes.size()));
    const std::unique_ptr<::parquet::ParquetFileReader> reader =
        ::parquet::ParquetFileReader::Open(std::make_shared<::arrow::io::BufferReader>(buffer));
    const std::shared_ptr<::parquet::FileMetaData> meta = reader->metadata();
    if (!Columns(*meta->schema(), &out->columns, why)) {
      out->columns.clear();
      out->unsupported_column = true;
      return true;
    }
    for (int g = 0; g < meta->num_row_groups(); ++g) {
      const std::shared_ptr<::parquet::RowGroupReader> group = reader->RowGroup(g);
      const size_t first = out->rows.size();
      const int64_t group_rows = group->metadata()->num_rows();
      if (group_rows < 0 || group_rows > kMaxRows - static_cast<int64_t>(first)) {
        return *why = path + ", row group " + std::to_string(g) + ": claims " +
                      std::to_string(group_rows) + " rows",
               false;
      }
      json::Value empty_row;
      empty_row.kind = json::Value::Kind::kArray;
      out->rows.resize(first + static_cast<size_t>(group_rows), empty_row);
      if (!ReadRowGroup(*group, *meta->schema(), out->rows, first, why)) {
        return *why = path + ", row group " + std::to_string(g) + ": " + *why, false;
      }
    }
    return true;
  } catch (const std::exception& e) {
    return *why = path + ": not a readable parquet file: " + e.what(), false;
  }
}

}  // namespace rlc::oracle
