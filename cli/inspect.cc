#include "cli/inspect.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"

namespace rlc::cli {
namespace {

Status FileError(int64_t version, const std::string& path, const std::string& what) {
  return Status::Corrupt("version " + std::to_string(version) + ", path '" + path + "': " + what);
}

Result<InspectedFile> InspectFile(const storage::Storage& storage, const std::string& table_root,
                                  int64_t version, const delta::AddFile& add,
                                  const InspectOptions& options) {
  InspectedFile file;
  file.path = add.path;
  file.partition_values = add.partition_values;
  file.deletion_vector = add.deletion_vector;
  if (add.stats.has_value()) {
    Result<std::optional<int64_t>> num_records = delta::ParseNumRecords(*add.stats);
    if (!num_records.ok()) return FileError(version, add.path, num_records.status().message());
    file.num_records = *num_records;
  }
  if (add.deletion_vector.has_value()) {
    if (!file.num_records.has_value()) {
      return FileError(version, add.path,
                       "a file with a deletion vector must have stats.numRecords");
    }
    Result<dv::RowBitmap> bitmap =
        delta::LoadDeletionVector(storage, table_root, *add.deletion_vector, options.dv);
    if (!bitmap.ok()) {
      return Status(bitmap.status().code(), "version " + std::to_string(version) + ", path '" +
                                                add.path + "': " + bitmap.status().message());
    }
    file.deleted_rows = bitmap->Cardinality();
    if (!bitmap->IsEmpty() && bitmap->Maximum() >= uint64_t(*file.num_records)) {
      return FileError(version, add.path,
                       "deletion vector deletes row " + std::to_string(bitmap->Maximum()) +
                           " but the file has " + std::to_string(*file.num_records) + " rows");
    }
    if (options.with_row_indexes) file.deleted_row_indexes = bitmap->ToVector();
  }
  if (file.num_records.has_value()) file.live_rows = *file.num_records - int64_t(file.deleted_rows);
  return file;
}

}  // namespace

Result<InspectReport> InspectTable(const storage::Storage& storage, const std::string& table_root,
                                   const InspectOptions& options) {
  RLC_ASSIGN_OR_RETURN(delta::Snapshot snapshot,
                       delta::ReplayLog(storage, table_root, options.version));
  InspectReport report;
  report.version = snapshot.version;
  int64_t live = 0;
  bool live_known = true;
  for (const auto& [decoded_path, add] : snapshot.files) {
    RLC_ASSIGN_OR_RETURN(InspectedFile file,
                         InspectFile(storage, table_root, snapshot.version, add, options));
    report.deleted_rows += file.deleted_rows;
    if (file.live_rows.has_value()) {
      live += *file.live_rows;
    } else {
      live_known = false;
    }
    report.files.push_back(std::move(file));
  }
  if (live_known) report.live_rows = live;
  return report;
}

std::string RenderInspectJson(const InspectReport& report, bool with_row_indexes) {
  nlohmann::ordered_json out;
  out["version"] = report.version;
  out["numFiles"] = report.files.size();
  out["liveRows"] =
      report.live_rows.has_value() ? nlohmann::ordered_json(*report.live_rows) : nullptr;
  out["deletedRows"] = report.deleted_rows;
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const InspectedFile& f : report.files) {
    nlohmann::ordered_json j;
    j["path"] = f.path;
    nlohmann::ordered_json pv = nlohmann::ordered_json::object();
    for (const auto& [k, v] : f.partition_values)
      pv[k] = v.has_value() ? nlohmann::ordered_json(*v) : nullptr;
    j["partitionValues"] = pv;
    j["numRecords"] = f.num_records.has_value() ? nlohmann::ordered_json(*f.num_records) : nullptr;
    j["deletedRows"] = f.deleted_rows;
    j["liveRows"] = f.live_rows.has_value() ? nlohmann::ordered_json(*f.live_rows) : nullptr;
    if (f.deletion_vector.has_value()) {
      const dv::DvDescriptor& d = *f.deletion_vector;
      nlohmann::ordered_json dvj;
      dvj["storageType"] = std::string(1, d.storage_type);
      dvj["pathOrInlineDv"] = d.path_or_inline_dv;
      dvj["offset"] = d.offset.has_value() ? nlohmann::ordered_json(*d.offset) : nullptr;
      dvj["sizeInBytes"] = d.size_bytes;
      dvj["cardinality"] = d.cardinality;
      dvj["uniqueId"] = d.UniqueId();
      j["deletionVector"] = dvj;
    } else {
      j["deletionVector"] = nullptr;
    }
    if (with_row_indexes) j["deletedRowIndexes"] = f.deleted_row_indexes;
    files.push_back(std::move(j));
  }
  out["files"] = std::move(files);
  return out.dump() + "\n";
}

std::string RenderInspectText(const std::string& table_root, const InspectReport& report,
                              bool with_row_indexes) {
  std::string out = fmt::format("table {} at version {}\n", table_root, report.version);
  for (const InspectedFile& f : report.files) {
    std::string partitions;
    for (const auto& [k, v] : f.partition_values) {
      partitions += fmt::format("{}{}={}", partitions.empty() ? "" : ",", k, v.value_or("null"));
    }
    std::string dv = "no DV";
    if (f.deletion_vector.has_value()) {
      dv = fmt::format("DV {} ({} bytes)", f.deletion_vector->UniqueId(),
                       f.deletion_vector->size_bytes);
    }
    out += fmt::format("  {}{}\n    numRecords {}  deleted {}  live {}  {}\n", f.path,
                       partitions.empty() ? "" : "  [" + partitions + "]",
                       f.num_records.has_value() ? std::to_string(*f.num_records) : "unknown",
                       f.deleted_rows,
                       f.live_rows.has_value() ? std::to_string(*f.live_rows) : "unknown", dv);
    if (with_row_indexes && !f.deleted_row_indexes.empty()) {
      out += "    deleted rows:";
      for (uint64_t r : f.deleted_row_indexes) out += " " + std::to_string(r);
      out += "\n";
    }
  }
  out += fmt::format("{} files, {} live rows, {} deleted rows\n", report.files.size(),
                     report.live_rows.has_value() ? std::to_string(*report.live_rows) : "unknown",
                     report.deleted_rows);
  return out;
}

}  // namespace rlc::cli
