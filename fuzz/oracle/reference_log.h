// ReferenceLog: a table's JSON commits as the oracle reads them, each line parsed once.
//
// Concern: the file actions of every commit, in plain fields, for the two readers built on them:
// the snapshot a reader sees (reference_reader.h) and the per-commit invariants (invariants.h).
// Parsing the log once lets a judgement of a history run both without reading it twice. Only add,
// remove, the protocol's writer features and the metadata's column mapping carry data the oracle
// uses; every other line must still be a JSON object.
//
// What is an error (with the version, and the path when there is one): a line that is not a JSON
// object; an add or remove without a string path; a DV descriptor without its storageType,
// pathOrInlineDv, sizeInBytes or cardinality, or with a field of the wrong type; a partition
// value that is neither a string nor null; a metaData whose schemaString is not a JSON struct, or
// whose column mapping mode is neither none, name nor id, or a mapped column without its
// physical name.
// Not an error: stats that do not parse or lack an integer numRecords (num_records stays empty),
// composition tags of any shape (kept as text, for the invariants to judge).
//
// Thread-safety: stateless function; the result is plain data.
#ifndef RLC_FUZZ_ORACLE_REFERENCE_LOG_H_
#define RLC_FUZZ_ORACLE_REFERENCE_LOG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/oracle/reference_reader.h"

namespace rlc::oracle {

struct ReferenceDv {
  std::string storage_type;  // "i", "u" or "p" (others are refused when read)
  std::string path_or_inline;
  std::optional<int64_t> offset;
  std::optional<int64_t> size_in_bytes;  // required to read the DV's rows
  std::optional<int64_t> cardinality;    // likewise
  // The descriptor's unique id: storage type, path or inline text, and "@offset" when set.
  std::string Id() const;
};

struct ReferenceFileAction {
  bool is_add = false;  // add, or remove
  std::string path;     // URL-decoded
  std::optional<ReferenceDv> dv;
  bool data_change = true;
  std::map<std::string, std::optional<std::string>> partition_values;  // adds
  std::optional<int64_t> num_records;                                  // from stats
  bool has_base_row_id = false;  // adds: baseRowId and defaultRowCommitVersion both set
  // tags.compactedInto and tags.compactionInfo (removes): their JSON text when a string;
  // composition_tags_malformed when the tags exist in another shape.
  std::optional<std::string> compacted_into;
  std::optional<std::string> compaction_info;
  bool composition_tags_malformed = false;

  // (decoded path, DV unique id): the key a remove cancels.
  std::string Key() const { return path + "\n" + (dv ? dv->Id() : ""); }
};

struct ReferenceCommit {
  int64_t version = 0;
  std::vector<ReferenceFileAction> file_actions;  // in the commit's order
  // The writer features of the commit's protocol action, when it has one (an absent list: none).
  std::optional<std::vector<std::string>> protocol_writer_features;
  // When the commit has a metaData action: each top-level column's physical name by its logical
  // name under column mapping (delta.columnMapping.mode name or id); empty without mapping.
  std::optional<std::map<std::string, std::string>> physical_names;
};

struct ReferenceLog {
  std::vector<ReferenceCommit> commits;  // versions 0, 1, ... in order
  std::string error;                     // set when the log could not be read
  bool ok() const { return error.empty(); }
};

// Versions 0..version (version < 0: up to the last one before the first missing version). A
// missing version 0, or a missing version at or below a given `version`, is an error.
ReferenceLog ReadReferenceLog(const std::string& table_dir, int64_t version,
                              const ByteSource& files = LocalFiles());

// "%XX" escapes decoded; a '%' not followed by two hex digits is kept as it is.
std::string UrlDecodePath(const std::string& path);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_REFERENCE_LOG_H_
