#include "cli/inspect.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <set>

#include "impl/delta/checkpoint.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/parquet_table_files.h"
#include "impl/predicate/datetime.h"

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

// The file's live rows, read through `files`; its row count must be the add's numRecords.
Status ReadLiveRows(const parquet::ParquetTableFiles& files, int64_t version, InspectedFile& file) {
  const std::set<uint64_t> deleted(file.deleted_row_indexes.begin(),
                                   file.deleted_row_indexes.end());
  uint64_t physical = 0;
  Status scanned = files.ScanValues(
      file.path, [&](uint64_t position, const std::vector<predicate::Literal>& values) {
        ++physical;
        if (deleted.count(position) == 0) file.rows.emplace_back(position, values);
        return true;
      });
  if (!scanned.ok()) {
    return Status(scanned.code(), "version " + std::to_string(version) + ", path '" + file.path +
                                      "': " + scanned.message());
  }
  if (file.num_records.has_value() && physical != static_cast<uint64_t>(*file.num_records)) {
    return FileError(version, file.path,
                     "the data file holds " + std::to_string(physical) +
                         " rows, its stats.numRecords says " + std::to_string(*file.num_records));
  }
  if (!file.live_rows.has_value()) file.live_rows = static_cast<int64_t>(file.rows.size());
  return Status::Ok();
}

// --rows: every live row's values, and the report's live count from the rows read.
Status AddRows(const storage::Storage& storage, const std::string& table_root,
               const delta::Snapshot& snapshot, const InspectOptions& options,
               InspectReport& report) {
  if (!snapshot.metadata.has_value()) {
    return Status::Corrupt("version " + std::to_string(snapshot.version) + ": no metaData");
  }
  parquet::ParquetTableFiles files(storage, table_root, *snapshot.metadata, options.dv);
  if (!files.columns().ok()) return files.columns().status();
  for (const parquet::TableColumn& c : *files.columns()) {
    std::string name;  // the names as the schema spells them, dot-joined, unquoted
    for (const std::string& part : c.logical_path) name += (name.empty() ? "" : ".") + part;
    report.columns.push_back(std::move(name));
  }
  files.AddSnapshotFiles(snapshot.files);
  int64_t live = 0;
  for (InspectedFile& file : report.files) {
    RLC_RETURN_IF_ERROR(ReadLiveRows(files, snapshot.version, file));
    live += static_cast<int64_t>(file.rows.size());
  }
  report.live_rows = live;
  return Status::Ok();
}

}  // namespace

Result<InspectReport> InspectTable(const storage::Storage& storage, const std::string& table_root,
                                   const InspectOptions& options) {
  RLC_ASSIGN_OR_RETURN(delta::Snapshot snapshot,
                       delta::ReplayLogWithCheckpoints(storage, table_root, options.version,
                                                       parquet::ArrowActionReader()));
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
  if (options.with_row_values) {
    RLC_RETURN_IF_ERROR(AddRows(storage, table_root, snapshot, options, report));
  }
  return report;
}

namespace {

nlohmann::ordered_json ValueJson(const predicate::Literal& v) {
  using Kind = predicate::Literal::Kind;
  switch (v.kind) {
    case Kind::kNull:
      return nullptr;
    case Kind::kBool:
      return v.int_value != 0;
    case Kind::kLong:
      return v.int_value;
    case Kind::kDouble:
      return v.double_value;
    case Kind::kString:
      return v.string_value;
    case Kind::kDate:
      return predicate::FormatDate(v.int_value);
    case Kind::kTimestamp:
      return predicate::FormatTimestamp(v.int_value);
  }
  return nullptr;
}

std::string ValueText(const predicate::Literal& v) {
  const nlohmann::ordered_json j = ValueJson(v);
  return j.is_string() ? j.get<std::string>() : j.dump();
}

nlohmann::ordered_json RowsJson(
    const std::vector<std::string>& columns,
    const std::vector<std::pair<uint64_t, std::vector<predicate::Literal>>>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& [position, values] : rows) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (size_t i = 0; i < columns.size() && i < values.size(); ++i)
      row[columns[i]] = ValueJson(values[i]);
    out.push_back({{"position", position}, {"values", std::move(row)}});
  }
  return out;
}

}  // namespace

std::string RenderInspectJson(const InspectReport& report, bool with_row_indexes) {
  nlohmann::ordered_json out;
  out["version"] = report.version;
  out["numFiles"] = report.files.size();
  out["liveRows"] =
      report.live_rows.has_value() ? nlohmann::ordered_json(*report.live_rows) : nullptr;
  out["deletedRows"] = report.deleted_rows;
  if (with_row_indexes) out["columns"] = report.columns;
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
    if (with_row_indexes) {
      j["deletedRowIndexes"] = f.deleted_row_indexes;
      j["rows"] = RowsJson(report.columns, f.rows);
    }
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
    for (const auto& [position, values] : f.rows) {
      std::string row;
      for (size_t i = 0; i < report.columns.size() && i < values.size(); ++i)
        row += fmt::format("{}{}={}", row.empty() ? "" : ", ", report.columns[i],
                           ValueText(values[i]));
      out += fmt::format("    row {}: {}\n", position, row);
    }
  }
  out += fmt::format("{} files, {} live rows, {} deleted rows\n", report.files.size(),
                     report.live_rows.has_value() ? std::to_string(*report.live_rows) : "unknown",
                     report.deleted_rows);
  return out;
}

}  // namespace rlc::cli
