// Delta log actions: the typed form of one line of a commit file.
//
// Concern: the fields rlc reads or writes, per action (docs/formats.md#a1,
// docs/formats.md#a8; Delta PROTOCOL.md).
//
// Round trips: every field the protocol names is typed below. Every other field of a known
// action (a newer protocol's field, an engine's extension) is kept verbatim in `unknown_fields`
// as raw JSON and written back after the typed fields, so it survives parse -> write unchanged
// in value. A line whose action rlc does not know (checkpointMetadata, sidecar, a future action)
// is kept whole as UnknownAction and written back byte for byte. Inside commitInfo, everything
// but the typed fields is an unknown field. Key order inside a JSON object may change; values
// do not.
//
// Thread-safety: plain values.
#ifndef RLC_IMPL_DELTA_ACTIONS_H_
#define RLC_IMPL_DELTA_ACTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "impl/delta/stats_json.h"
#include "impl/dv/descriptor.h"

namespace rlc::delta {

// A JSON map of string to nullable string, in the order it was written (partitionValues, tags).
using StringMap = std::vector<std::pair<std::string, std::optional<std::string>>>;

// A field rlc does not model, kept as its raw JSON text (e.g. `{"a":1}` or `17`).
struct UnknownField {
  std::string key;
  std::string raw_json;
  friend bool operator==(const UnknownField&, const UnknownField&) = default;
};

struct AddFile {
  std::string path;            // as written: a URI-encoded path, relative or absolute
  StringMap partition_values;  // required, possibly empty
  int64_t size_bytes = 0;
  int64_t modification_time_ms = 0;
  bool data_change = true;
  std::optional<StatsJson> stats;  // parsed on demand (stats.h), unescaped only when read
  std::optional<StringMap> tags;
  std::optional<dv::DvDescriptor> deletion_vector;
  std::optional<int64_t> base_row_id;                 // carried through, never relied upon
  std::optional<int64_t> default_row_commit_version;  // carried through, never relied upon
  std::optional<std::string> clustering_provider;
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const AddFile&, const AddFile&) = default;
};

struct RemoveFile {
  std::string path;
  std::optional<int64_t> deletion_timestamp_ms;
  bool data_change = true;
  std::optional<bool> extended_file_metadata;
  std::optional<StringMap> partition_values;
  std::optional<int64_t> size_bytes;
  std::optional<StatsJson> stats;
  std::optional<StringMap> tags;  // where compactedInto / compactionInfo live (composition_tags.h)
  std::optional<dv::DvDescriptor> deletion_vector;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const RemoveFile&, const RemoveFile&) = default;
};

struct Metadata {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::string format_provider = "parquet";
  StringMap format_options;
  std::string schema_string;
  std::vector<std::string> partition_columns;
  StringMap configuration;  // table properties, e.g. delta.enableDeletionVectors
  std::optional<int64_t> created_time_ms;
  std::vector<UnknownField> unknown_fields;

  // The value of a table property, if set (and not null).
  std::optional<std::string> Property(std::string_view key) const;
  friend bool operator==(const Metadata&, const Metadata&) = default;
};

struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 2;
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;
  std::vector<UnknownField> unknown_fields;

  bool HasWriterFeature(std::string_view name) const;
  friend bool operator==(const Protocol&, const Protocol&) = default;
};

struct CommitInfo {
  std::optional<int64_t> timestamp_ms;
  std::optional<std::string> operation;            // "UNKNOWN" in events when absent
  std::vector<UnknownField> operation_parameters;  // values kept as raw JSON
  std::optional<int64_t> read_version;
  std::optional<std::string> isolation_level;
  std::optional<bool> is_blind_append;  // absent counts as not blind
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const CommitInfo&, const CommitInfo&) = default;
};

struct Txn {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated_ms;
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const Txn&, const Txn&) = default;
};

struct DomainMetadata {
  std::string domain;
  std::string configuration;
  bool removed = false;
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const DomainMetadata&, const DomainMetadata&) = default;
};

// AddCDCFile: a change-data file; never part of the table's live rows.
struct AddCdcFile {
  std::string path;
  StringMap partition_values;
  int64_t size_bytes = 0;
  bool data_change = false;
  std::optional<StringMap> tags;
  std::vector<UnknownField> unknown_fields;
  friend bool operator==(const AddCdcFile&, const AddCdcFile&) = default;
};

// A line whose action rlc does not model, kept byte for byte.
struct UnknownAction {
  std::string key;       // the action's name, e.g. "checkpointMetadata"
  std::string raw_line;  // the whole line, without its newline and trailing whitespace
  friend bool operator==(const UnknownAction&, const UnknownAction&) = default;
};

using Action = std::variant<AddFile, RemoveFile, Metadata, Protocol, CommitInfo, Txn,
                            DomainMetadata, AddCdcFile, UnknownAction>;

// One commit file: its version and its actions in file order.
struct Commit {
  int64_t version = 0;
  std::vector<Action> actions;

  const CommitInfo* commit_info() const;
};

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_ACTIONS_H_
