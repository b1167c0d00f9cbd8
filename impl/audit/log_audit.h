// AuditLog: check the invariants a reconcile relies on across every commit of a table's JSON log,
// whoever wrote it (the nightly job runs it on real engines' tables, not only on ours).
//
// Concern: the rules, each finding naming the version, the path and the rule:
//   single-active-version   a commit adds or removes one path twice, removes a (path, DV) that is
//                           not active, or leaves two versions of a path active;
//   dv-within-file          a DV deletes a row at or past the file's numRecords, or a file with a
//                           DV has no numRecords;
//   dv-never-shrinks        a commit replaces a file's DV with one that lacks a row the old one
//                           deleted (a deleted row comes back);
//   tags-tile-output        the composition tags of one commit's sources for one output do not
//                           tile it (kernel/tiling.h: runs of sourceNumPhysicalRecords - |DV| rows
//                           contiguous from 0, summing to the output's numRecords), or name an
//                           output the commit does not add, or are malformed (one tag without the
//                           other, or a shape delta/composition_tags.h rejects);
//   no-data-change-conserves  a commit whose file actions all have dataChange=false changes the
//                           table's live-row count (numRecords - |DV| summed over active files);
//   protocol-features       a protocol action lists reader features below reader version 3, a
//                           reader feature that is not also a writer feature, a writer-only
//                           feature Delta defines (rowTracking, domainMetadata, appendOnly, ...)
//                           among its reader features, or rowTracking or clustering without the
//                           domainMetadata feature they require: Delta engines refuse the table.
// The summary counts what was checked: versions, DVs, tag groups (and how many tiled), and
// dataChange=false commits (and how many could not be counted for lack of numRecords).
// Input that cannot be read at all (no JSON history from version 0, a commit that does not parse,
// a DV file that cannot be read) is a Status naming it, not a finding.
//
// Thread-safety: stateless function over a Storage.
#ifndef RLC_IMPL_AUDIT_LOG_AUDIT_H_
#define RLC_IMPL_AUDIT_LOG_AUDIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/checkpoint.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/storage/storage.h"

namespace rlc::audit {

struct Finding {
  int64_t version = 0;
  std::string path;  // the file (or output) concerned; empty for a whole-commit rule
  std::string rule;  // one of the names above
  std::string detail;
};

struct AuditReport {
  int64_t versions_checked = 0;
  int64_t dvs_checked = 0;
  int64_t tag_groups_checked = 0;
  int64_t tag_groups_tiled = 0;
  int64_t no_data_change_commits = 0;
  int64_t no_data_change_commits_uncounted = 0;  // some file lacked numRecords
  std::vector<Finding> findings;
  // The checkpoint the audit started from, when the JSON history does not reach version 0: its
  // files are the state the later commits are checked against (their DVs checked too).
  std::optional<int64_t> from_checkpoint;
};

// `checkpoints` reads Parquet checkpoints (impl/parquet); without it, or when no checkpoint is
// followed by every later commit, a log whose JSON does not start at version 0 is kUnsupported.
Result<AuditReport> AuditLog(const storage::Storage& storage, std::string_view table_root,
                             const delta::DvLoadOptions& dv_options = {},
                             const delta::ParquetActionReader* checkpoints = nullptr);

}  // namespace rlc::audit

#endif  // RLC_IMPL_AUDIT_LOG_AUDIT_H_
