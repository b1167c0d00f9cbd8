// `rlc inspect`: the snapshot of a table at one version, file by file, with each DV decoded.
//
// Concern: build an InspectReport from a table (through impl/'s replay and DV loader) and render
// it as text or JSON. With --rows, each file's live rows too: their values, read from the Parquet
// data file (impl/parquet) with the DV applied, and the positions the DV deletes; a data file
// whose row count differs from its numRecords is an error naming the file. Deleted-row counts come
// from the decoded DV bytes, never from the descriptor's `cardinality` (the loader fails on a
// mismatch), and every DV row must be below the file's numRecords.
//
// Thread-safety: stateless functions.
#ifndef RLC_CLI_INSPECT_H_
#define RLC_CLI_INSPECT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/predicate/ast.h"
#include "impl/storage/storage.h"

namespace rlc::cli {

struct InspectedFile {
  std::string path;  // as written in the log
  delta::StringMap partition_values;
  std::optional<int64_t> num_records;  // physical rows; absent when the add has no stats
  uint64_t deleted_rows = 0;           // decoded from the DV bytes
  std::optional<int64_t> live_rows;    // num_records - deleted_rows
  std::optional<dv::DvDescriptor> deletion_vector;
  std::vector<uint64_t> deleted_row_indexes;  // filled only when asked for
  // The live rows (filled only when asked for): position in the file, and the values of
  // InspectReport::columns in order.
  std::vector<std::pair<uint64_t, std::vector<predicate::Literal>>> rows;
};

struct InspectReport {
  int64_t version = -1;
  std::vector<InspectedFile> files;
  std::optional<int64_t> live_rows;  // absent when any file's numRecords is unknown
  uint64_t deleted_rows = 0;
  std::vector<std::string> columns;  // the columns of InspectedFile::rows (with rows only)
};

struct InspectOptions {
  std::optional<int64_t> version;
  bool with_row_indexes = false;  // the positions each DV deletes
  bool with_row_values = false;   // every live row's values, read from the data files
  delta::DvLoadOptions dv;
};

Result<InspectReport> InspectTable(const storage::Storage& storage, const std::string& table_root,
                                   const InspectOptions& options);

std::string RenderInspectJson(const InspectReport& report, bool with_row_indexes);
std::string RenderInspectText(const std::string& table_root, const InspectReport& report,
                              bool with_row_indexes);

}  // namespace rlc::cli

#endif  // RLC_CLI_INSPECT_H_
