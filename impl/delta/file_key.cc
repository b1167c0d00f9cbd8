#include "impl/delta/file_key.h"

#include <functional>
#include <string_view>

#include "impl/delta/stats.h"

namespace rlc::delta {

std::string DecodedPath(const std::string& path) {
  if (!HasEscape(path)) return path;
  Result<std::string> decoded = dv::UrlDecode(path);
  return decoded.ok() ? *decoded : path;
}

uint64_t PathKey(const std::string& path) {
  if (!HasEscape(path)) return std::hash<std::string_view>{}(path);
  return std::hash<std::string_view>{}(DecodedPath(path));
}

bool SameDv(const std::optional<dv::DvDescriptor>& a, const std::optional<dv::DvDescriptor>& b) {
  return a.has_value() == b.has_value() && (!a.has_value() || a->UniqueId() == b->UniqueId());
}

RemoveFile RemoveFrom(const AddFile& add, int64_t deletion_timestamp_ms, bool data_change) {
  RemoveFile r;
  r.path = add.path;
  r.deletion_timestamp_ms = deletion_timestamp_ms;
  r.data_change = data_change;
  r.extended_file_metadata = true;
  r.partition_values = add.partition_values;
  r.size_bytes = add.size_bytes;
  r.stats = add.stats;
  r.tags = add.tags;
  r.deletion_vector = add.deletion_vector;
  r.base_row_id = add.base_row_id;
  r.default_row_commit_version = add.default_row_commit_version;
  return r;
}

std::optional<int64_t> NumRecordsOf(const std::optional<StatsJson>& stats) {
  if (!stats.has_value()) return std::nullopt;
  Result<std::optional<int64_t>> n = ParseNumRecords(*stats);
  return n.ok() ? *n : std::nullopt;
}

}  // namespace rlc::delta
