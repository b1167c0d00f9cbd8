#include "impl/delta/add_columns.h"

#include <optional>
#include <utility>

namespace rlc::delta {
namespace {

template <typename T>
std::optional<T> Optional(const ValueColumn<T>& c, int64_t row) {
  if (c.IsNull(row)) return std::nullopt;
  return c.At(row);
}

std::optional<std::string> OptionalString(const StringColumn& c, int64_t row) {
  if (c.IsNull(row)) return std::nullopt;
  return std::string(c.At(row));
}

// The row's DV as the general parse would read it, or nullopt when a required field is NULL or
// the storage type is not one character.
std::optional<dv::DvDescriptor> DescriptorAt(const DvColumns& c, int64_t row) {
  if (c.storage_type.IsNull(row) || c.storage_type.At(row).size() != 1 ||
      c.path_or_inline_dv.IsNull(row) || c.size_in_bytes.IsNull(row) || c.cardinality.IsNull(row))
    return std::nullopt;
  dv::DvDescriptor d;
  d.storage_type = c.storage_type.At(row)[0];
  d.path_or_inline_dv = std::string(c.path_or_inline_dv.At(row));
  d.offset = Optional(c.offset, row);
  d.size_bytes = c.size_in_bytes.At(row);
  d.cardinality = c.cardinality.At(row);
  return d;
}

// Whether the map at `row` gives each key once (a null map does). A key given twice is for the
// line parser to refuse, as it refuses one in a commit's JSON.
bool KeysOnce(const StringMapColumn& c, int64_t row) {
  if (c.IsNull(row)) return true;
  const int32_t begin = c.offsets[row + c.offset], end = c.offsets[row + c.offset + 1];
  for (int32_t i = begin + 1; i < end; ++i) {
    for (int32_t j = begin; j < i; ++j) {
      if (c.keys.At(i) == c.keys.At(j)) return false;
    }
  }
  return true;
}

}  // namespace

StringMap StringMapColumn::At(int64_t row) const {
  StringMap out;
  const int32_t begin = offsets[row + offset], end = offsets[row + offset + 1];
  out.reserve(static_cast<size_t>(end - begin));
  for (int32_t at = begin; at < end; ++at) {
    out.emplace_back(std::string(keys.At(at)),
                     items.IsNull(at) ? std::nullopt : std::optional(std::string(items.At(at))));
  }
  return out;
}

bool IsDirectAdd(const AddColumns& c, int64_t row) {
  if (c.path.IsNull(row) || c.partition_values.IsNull(row) || c.size.IsNull(row) ||
      c.modification_time.IsNull(row) || c.data_change.IsNull(row))
    return false;
  if (!KeysOnce(c.partition_values, row) || !KeysOnce(c.tags, row)) return false;
  if (c.deletion_vector.IsNull(row)) return true;
  const std::optional<dv::DvDescriptor> d = DescriptorAt(c.deletion_vector, row);
  return d.has_value() && d->Validate().ok();
}

AddFile AddAt(const AddColumns& c, int64_t row) {
  AddFile add;
  add.path = std::string(c.path.At(row));
  add.partition_values = c.partition_values.At(row);
  add.size_bytes = c.size.At(row);
  add.modification_time_ms = c.modification_time.At(row);
  add.data_change = c.data_change.At(row);
  add.stats = OptionalString(c.stats, row);
  if (!c.tags.IsNull(row)) add.tags = c.tags.At(row);
  if (!c.deletion_vector.IsNull(row)) add.deletion_vector = DescriptorAt(c.deletion_vector, row);
  add.base_row_id = Optional(c.base_row_id, row);
  add.default_row_commit_version = Optional(c.default_row_commit_version, row);
  add.clustering_provider = OptionalString(c.clustering_provider, row);
  return add;
}

}  // namespace rlc::delta
