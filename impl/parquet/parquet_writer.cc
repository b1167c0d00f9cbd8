#include "impl/parquet/parquet_writer.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <utility>

namespace rlc::parquet {
namespace {

using predicate::Literal;

Status Failed(const ::arrow::Status& s) {
  return Status::IoError("writing a parquet file: " + s.ToString());
}

using Type = WrittenColumn::Type;

// The Arrow type Spark's Parquet writer gives a column of `column.type`.
Result<std::shared_ptr<::arrow::DataType>> ArrowType(const WrittenColumn& column) {
  switch (column.type) {
    case Type::kLong:
      return ::arrow::int64();
    case Type::kString:
      return ::arrow::utf8();
    case Type::kBoolean:
      return ::arrow::boolean();
    case Type::kByte:
      return ::arrow::int8();
    case Type::kShort:
      return ::arrow::int16();
    case Type::kInteger:
      return ::arrow::int32();
    case Type::kFloat:
      return ::arrow::float32();
    case Type::kDouble:
      return ::arrow::float64();
    case Type::kDate:
      return ::arrow::date32();
    case Type::kTimestamp:
      return ::arrow::timestamp(::arrow::TimeUnit::MICRO, "UTC");
    case Type::kTimestampNtz:
      return ::arrow::timestamp(::arrow::TimeUnit::MICRO);
    case Type::kBinary:
      return ::arrow::binary();
    case Type::kDecimal:
      if (column.precision < 1 || column.precision > 38 || column.scale < 0 ||
          column.scale > column.precision) {
        return Status::InvalidArgument("column " + column.name + ": decimal(" +
                                       std::to_string(column.precision) + "," +
                                       std::to_string(column.scale) + ") is no Delta decimal");
      }
      return ::arrow::decimal128(column.precision, column.scale);
  }
  return Status::InvalidArgument("column " + column.name + ": unknown type");
}

bool InRange(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

template <typename Builder, typename V>
bool Put(::arrow::ArrayBuilder* builder, V value, ::arrow::Status* status) {
  *status = static_cast<Builder*>(builder)->Append(value);
  return true;
}

// Appends one non-NULL value; false (nothing appended) when its kind or range does not fit.
bool AppendValue(const WrittenColumn& column, const Literal& v, ::arrow::ArrayBuilder* b,
                 ::arrow::Status* s) {
  using K = Literal::Kind;
  const bool is_long = v.kind == K::kLong;
  const int64_t n = v.int_value;
  switch (column.type) {
    case Type::kLong:
      return is_long && Put<::arrow::Int64Builder>(b, n, s);
    case Type::kInteger:
      return is_long && InRange(n, INT32_MIN, INT32_MAX) &&
             Put<::arrow::Int32Builder>(b, static_cast<int32_t>(n), s);
    case Type::kShort:
      return is_long && InRange(n, INT16_MIN, INT16_MAX) &&
             Put<::arrow::Int16Builder>(b, static_cast<int16_t>(n), s);
    case Type::kByte:
      return is_long && InRange(n, INT8_MIN, INT8_MAX) &&
             Put<::arrow::Int8Builder>(b, static_cast<int8_t>(n), s);
    case Type::kDate:
      return v.kind == K::kDate && InRange(n, INT32_MIN, INT32_MAX) &&
             Put<::arrow::Date32Builder>(b, static_cast<int32_t>(n), s);
    case Type::kTimestamp:
    case Type::kTimestampNtz:
      return v.kind == K::kTimestamp && Put<::arrow::TimestampBuilder>(b, n, s);
    case Type::kDecimal:
      return is_long && Put<::arrow::Decimal128Builder>(b, ::arrow::Decimal128(n), s);
    case Type::kBoolean:
      return v.kind == K::kBool && Put<::arrow::BooleanBuilder>(b, n != 0, s);
    case Type::kFloat:
      return v.kind == K::kDouble &&
             Put<::arrow::FloatBuilder>(b, static_cast<float>(v.double_value), s);
    case Type::kDouble:
      return v.kind == K::kDouble && Put<::arrow::DoubleBuilder>(b, v.double_value, s);
    case Type::kString:
      return v.kind == K::kString && Put<::arrow::StringBuilder>(b, v.string_value, s);
    case Type::kBinary:
      return v.kind == K::kString && Put<::arrow::BinaryBuilder>(b, v.string_value, s);
  }
  return false;
}

// One column's values as an Arrow array; a value of another kind is kInvalidArgument.
Result<std::shared_ptr<::arrow::Array>> ColumnArray(const WrittenColumn& column,
                                                    const std::shared_ptr<::arrow::DataType>& type,
                                                    size_t index,
                                                    const std::vector<std::vector<Literal>>& rows) {
  std::unique_ptr<::arrow::ArrayBuilder> builder;
  if (auto s = ::arrow::MakeBuilder(::arrow::default_memory_pool(), type, &builder); !s.ok())
    return Failed(s);
  if (auto s = builder->Reserve(static_cast<int64_t>(rows.size())); !s.ok()) return Failed(s);
  for (size_t r = 0; r < rows.size(); ++r) {
    const Literal& v = rows[r][index];
    ::arrow::Status s;
    if (v.kind == Literal::Kind::kNull) {
      s = builder->AppendNull();
    } else if (!AppendValue(column, v, builder.get(), &s)) {
      return Status::InvalidArgument("row " + std::to_string(r) + ": column " + column.name +
                                     " holds a value of another type or out of its range");
    }
    if (!s.ok()) return Failed(s);
  }
  std::shared_ptr<::arrow::Array> array;
  if (auto s = builder->Finish(&array); !s.ok()) return Failed(s);
  return array;
}

}  // namespace

Result<std::string> WriteParquetRows(const std::vector<WrittenColumn>& columns,
                                     const std::vector<std::vector<Literal>>& rows,
                                     const ParquetWriteOptions& options) {
  std::set<std::string> names;
  std::vector<std::shared_ptr<::arrow::Field>> fields;
  for (const WrittenColumn& c : columns) {
    if (!names.insert(c.name).second)
      return Status::InvalidArgument("column " + c.name + " is named twice");
    RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::DataType> type, ArrowType(c));
    fields.push_back(::arrow::field(c.name, std::move(type)));
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != columns.size()) {
      return Status::InvalidArgument("row " + std::to_string(r) + " has " +
                                     std::to_string(rows[r].size()) + " values for " +
                                     std::to_string(columns.size()) + " columns");
    }
  }
  std::vector<std::shared_ptr<::arrow::Array>> arrays;
  for (size_t i = 0; i < columns.size(); ++i) {
    RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Array> array,
                         ColumnArray(columns[i], fields[i]->type(), i, rows));
    arrays.push_back(std::move(array));
  }
  const std::shared_ptr<::arrow::Table> table = ::arrow::Table::Make(
      ::arrow::schema(std::move(fields)), arrays, static_cast<int64_t>(rows.size()));
  try {
    auto sink = ::arrow::io::BufferOutputStream::Create();
    if (!sink.ok()) return Failed(sink.status());
    const ::arrow::Status written =
        ::parquet::arrow::WriteTable(*table, ::arrow::default_memory_pool(), *sink,
                                     std::max<int64_t>(options.row_group_rows, 1));
    if (!written.ok()) return Failed(written);
    auto buffer = (*sink)->Finish();
    if (!buffer.ok()) return Failed(buffer.status());
    return (*buffer)->ToString();
  } catch (const ::parquet::ParquetException& e) {
    return Status::IoError(std::string("writing a parquet file: ") + e.what());
  }
}

}  // namespace rlc::parquet
