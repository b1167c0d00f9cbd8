#include "impl/audit/log_audit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"
#include "impl/kernel/tiling.h"

namespace rlc::audit {
namespace {

using conflict::DecodedPath;

struct ActiveFile {
  std::string key;  // delta::Snapshot::LogicalKey
  std::optional<int64_t> num_records;
  dv::RowBitmap dv;
};

using delta::NumRecordsOf;

class Auditor {
 public:
  Auditor(const storage::Storage& storage, std::string_view root,
          const delta::DvLoadOptions& options)
      : storage_(storage), root_(root), options_(options) {}

  Status Version(const delta::Commit& commit);
  void CheckProtocol(int64_t version, const delta::Protocol& protocol);
  // The state a checkpoint holds, as if its versions had been audited (their DVs are loaded).
  Status Start(const delta::Snapshot& checkpoint);
  AuditReport report;

 private:
  void Find(int64_t version, std::string path, const char* rule, std::string detail) {
    report.findings.push_back({version, std::move(path), rule, std::move(detail)});
  }
  Result<dv::RowBitmap> LoadDv(int64_t version, const std::string& path,
                               const std::optional<dv::DvDescriptor>& d) {
    if (!d.has_value()) return dv::RowBitmap();
    Result<dv::RowBitmap> rows = delta::LoadDeletionVector(storage_, root_, *d, options_);
    if (!rows.ok())
      return rows.status().WithContext("version " + std::to_string(version) + ", " + path);
    return rows;
  }
  std::optional<int64_t> Live() const {
    int64_t total = 0;
    for (const auto& [path, f] : active_) {
      if (!f.num_records.has_value()) return std::nullopt;
      total += *f.num_records - static_cast<int64_t>(f.dv.Cardinality());
    }
    return total;
  }
  // One added file: its DV within the file, and no row an earlier version deleted live again.
  Status CheckAdd(int64_t v, const std::string& path, const delta::AddFile& add,
                  const std::map<std::string, dv::RowBitmap>& removed_dvs, ActiveFile* file);
  void CheckTags(const delta::Commit& commit,
                 const std::map<std::string, const delta::AddFile*>& adds,
                 const std::map<std::string, dv::RowBitmap>& removed_dvs);

  const storage::Storage& storage_;
  std::string root_;
  delta::DvLoadOptions options_;
  std::map<std::string, ActiveFile> active_;  // by decoded path
};

void Auditor::CheckTags(const delta::Commit& commit,
                        const std::map<std::string, const delta::AddFile*>& adds,
                        const std::map<std::string, dv::RowBitmap>& removed_dvs) {
  using Domain = conflict::ConcreteDomain;
  std::map<std::string, std::vector<std::pair<std::string, kernel::SourceRun<Domain>>>> groups;
  for (const delta::Action& a : commit.actions) {
    const auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r == nullptr || !r->tags.has_value()) continue;
    bool tagged = false;
    for (const auto& [key, value] : *r->tags) {
      tagged = tagged || key == delta::kCompactedIntoTag || key == delta::kCompactionInfoTag;
    }
    if (!tagged) continue;
    const std::optional<delta::CompositionTag> tag = delta::ParseCompositionTags(*r->tags);
    if (!tag.has_value()) {
      Find(commit.version, r->path, "tags-tile-output",
           "composition tags are malformed or incomplete");
      continue;
    }
    const auto dv = removed_dvs.find(DecodedPath(r->path));
    const int64_t deleted =
        dv == removed_dvs.end() ? 0 : static_cast<int64_t>(dv->second.Cardinality());
    groups[DecodedPath(tag->output_path)].push_back(
        {r->path, {tag->row_offset_in_target, tag->source_num_physical_records - deleted}});
  }
  for (const auto& [output, sources] : groups) {
    ++report.tag_groups_checked;
    auto add = adds.find(output);
    if (add == adds.end()) {
      Find(commit.version, output, "tags-tile-output",
           "sources are tagged into an output this commit does not add");
      continue;
    }
    const std::optional<int64_t> rows = NumRecordsOf(add->second->stats);
    std::vector<kernel::SourceRun<Domain>> runs;
    std::string listing;
    for (const auto& [path, run] : sources) {
      runs.push_back(run);
      listing += " [" + std::to_string(static_cast<int64_t>(run.start)) + ", +" +
                 std::to_string(static_cast<int64_t>(run.live)) + ")";
    }
    if (!rows.has_value()) {
      Find(commit.version, add->second->path, "tags-tile-output", "the output has no numRecords");
    } else if (!kernel::RunsTileOutput(Domain{}, runs, conflict::Int128(*rows))) {
      Find(commit.version, add->second->path, "tags-tile-output",
           "the runs" + listing + " do not tile its " + std::to_string(*rows) + " rows");
    } else {
      ++report.tag_groups_tiled;
    }
  }
}

Status Auditor::CheckAdd(int64_t v, const std::string& path, const delta::AddFile& add,
                         const std::map<std::string, dv::RowBitmap>& removed_dvs,
                         ActiveFile* file) {
  file->key = delta::Snapshot::LogicalKey(path, add.deletion_vector);
  file->num_records = NumRecordsOf(add.stats);
  RLC_ASSIGN_OR_RETURN(file->dv, LoadDv(v, add.path, add.deletion_vector));
  if (add.deletion_vector.has_value()) {
    ++report.dvs_checked;
    if (!file->num_records.has_value()) {
      Find(v, add.path, "dv-within-file", "the file has a DV but no numRecords");
    } else if (!file->dv.IsEmpty() &&
               file->dv.Maximum() >= static_cast<uint64_t>(*file->num_records)) {
      Find(v, add.path, "dv-within-file",
           "the DV deletes row " + std::to_string(file->dv.Maximum()) + " of a file of " +
               std::to_string(*file->num_records) + " rows");
    }
  }
  auto active = active_.find(path);
  const bool replaced = removed_dvs.count(path) != 0;
  if (active != active_.end() && !replaced && active->second.key != file->key) {
    Find(v, add.path, "single-active-version",
         "adds a second version of an active path without removing the first");
  }
  if (replaced && !removed_dvs.at(path).IsSubsetOf(file->dv)) {
    const dv::RowBitmap back = removed_dvs.at(path).Difference(file->dv);
    Find(v, add.path, "dv-never-shrinks",
         std::to_string(back.Cardinality()) + " deleted row(s) come back, e.g. row " +
             std::to_string(back.ToVector().front()));
  }
  return Status::Ok();
}

// The writer-only table features Delta defines: never reader features.
bool IsWriterOnlyFeature(std::string_view feature) {
  static const std::set<std::string, std::less<>> kWriterOnly = {
      "appendOnly",          "invariants",          "checkConstraints", "changeDataFeed",
      "generatedColumns",    "identityColumns",     "rowTracking",      "domainMetadata",
      "icebergCompatV1",     "icebergCompatV2",     "clustering",       "inCommitTimestamp",
      "allowColumnDefaults", "checkpointProtection"};
  return kWriterOnly.count(feature) > 0;
}

void Auditor::CheckProtocol(int64_t v, const delta::Protocol& p) {
  for (const char* needs_domains : {"rowTracking", "clustering"}) {
    if (p.HasWriterFeature(needs_domains) && !p.HasWriterFeature("domainMetadata")) {
      Find(v, "", "protocol-features",
           std::string(needs_domains) + " is listed without domainMetadata, which it requires");
    }
  }
  if (!p.reader_features.has_value()) return;
  if (p.min_reader_version < 3) {
    Find(v, "", "protocol-features",
         "readerFeatures at minReaderVersion " + std::to_string(p.min_reader_version));
  }
  for (const std::string& f : *p.reader_features) {
    const bool also_writer = p.writer_features.has_value() &&
                             std::find(p.writer_features->begin(), p.writer_features->end(), f) !=
                                 p.writer_features->end();
    if (!also_writer) Find(v, "", "protocol-features", f + " is a reader feature only");
    if (IsWriterOnlyFeature(f))
      Find(v, "", "protocol-features", f + " is a writer-only feature listed as a reader feature");
  }
}

Status Auditor::Version(const delta::Commit& commit) {
  const int64_t v = commit.version;
  ++report.versions_checked;
  for (const delta::Action& a : commit.actions) {
    if (const auto* p = std::get_if<delta::Protocol>(&a)) CheckProtocol(v, *p);
  }
  const std::optional<int64_t> live_before = Live();
  std::map<std::string, int> add_count, remove_count;
  std::map<std::string, const delta::AddFile*> adds;
  std::map<std::string, dv::RowBitmap> removed_dvs;  // the DVs this commit's removes name
  bool file_actions = false, all_no_data_change = true;
  for (const delta::Action& a : commit.actions) {
    if (const auto* r = std::get_if<delta::RemoveFile>(&a)) {
      file_actions = true;
      all_no_data_change = all_no_data_change && !r->data_change;
      const std::string path = DecodedPath(r->path);
      if (++remove_count[path] == 2)
        Find(v, r->path, "single-active-version", "the commit removes this path twice");
      auto it = active_.find(path);
      const std::string key = delta::Snapshot::LogicalKey(path, r->deletion_vector);
      if (it == active_.end()) {
        Find(v, r->path, "single-active-version", "removes a file that is not active");
        RLC_ASSIGN_OR_RETURN(removed_dvs[path], LoadDv(v, r->path, r->deletion_vector));
      } else if (it->second.key != key) {
        Find(v, r->path, "single-active-version", "removes a (path, DV) other than the active one");
        RLC_ASSIGN_OR_RETURN(removed_dvs[path], LoadDv(v, r->path, r->deletion_vector));
      } else {
        removed_dvs[path] = it->second.dv;
      }
    } else if (const auto* add = std::get_if<delta::AddFile>(&a)) {
      file_actions = true;
      all_no_data_change = all_no_data_change && !add->data_change;
      const std::string path = DecodedPath(add->path);
      if (++add_count[path] == 2)
        Find(v, add->path, "single-active-version", "the commit adds this path twice");
      adds[path] = add;
    }
  }
  std::map<std::string, ActiveFile> added;
  for (const auto& [path, add] : adds)
    RLC_RETURN_IF_ERROR(CheckAdd(v, path, *add, removed_dvs, &added[path]));
  // Apply: removes first, then adds (keyed by decoded path).
  for (const auto& [path, dv] : removed_dvs) {
    if (adds.count(path) == 0) active_.erase(path);
  }
  for (auto& [path, file] : added) active_[path] = std::move(file);
  CheckTags(commit, adds, removed_dvs);
  if (file_actions && all_no_data_change) {
    ++report.no_data_change_commits;
    const std::optional<int64_t> live_after = Live();
    if (!live_before.has_value() || !live_after.has_value()) {
      ++report.no_data_change_commits_uncounted;
    } else if (*live_before != *live_after) {
      Find(v, "", "no-data-change-conserves",
           "live rows go from " + std::to_string(*live_before) + " to " +
               std::to_string(*live_after));
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {

// Where the audit starts: version 0, or the earliest checkpoint every later commit follows.
Result<std::optional<delta::Checkpoint>> StartingCheckpoint(
    const storage::Storage& storage, std::string_view table_root, const delta::LogListing& listing,
    const delta::ParquetActionReader* checkpoints) {
  if (!listing.commit_versions.empty() && listing.commit_versions.front() == 0) {
    return std::optional<delta::Checkpoint>();
  }
  const std::string unsupported =
      delta::LogDir(table_root) + ": the JSON history does not start at version 0";
  if (checkpoints == nullptr) return Status::Unsupported(unsupported + " (no checkpoint reader)");
  RLC_ASSIGN_OR_RETURN(std::vector<delta::Checkpoint> all,
                       delta::ListCheckpoints(storage, table_root));
  const int64_t latest = listing.latest_version();
  for (const delta::Checkpoint& c : all) {
    int64_t next = c.version + 1;
    for (int64_t v : listing.commit_versions) {
      if (v == next) ++next;
    }
    if (next > latest) return std::optional<delta::Checkpoint>(c);
  }
  return Status::Unsupported(unsupported + ", and no checkpoint is followed by every later commit");
}

}  // namespace

Status Auditor::Start(const delta::Snapshot& checkpoint) {
  for (const auto& [path, add] : checkpoint.files) {
    RLC_ASSIGN_OR_RETURN(dv::RowBitmap dv,
                         LoadDv(checkpoint.version, add.path, add.deletion_vector));
    if (add.deletion_vector.has_value()) ++report.dvs_checked;
    active_[path] = {delta::Snapshot::LogicalKey(path, add.deletion_vector),
                     NumRecordsOf(add.stats), std::move(dv)};
  }
  return Status::Ok();
}

Result<AuditReport> AuditLog(const storage::Storage& storage, std::string_view table_root,
                             const delta::DvLoadOptions& dv_options,
                             const delta::ParquetActionReader* checkpoints) {
  RLC_ASSIGN_OR_RETURN(delta::LogListing listing, delta::ListLog(storage, table_root));
  RLC_ASSIGN_OR_RETURN(std::optional<delta::Checkpoint> start,
                       StartingCheckpoint(storage, table_root, listing, checkpoints));
  Auditor auditor(storage, table_root, dv_options);
  int64_t expected = 0;
  if (start.has_value()) {
    RLC_ASSIGN_OR_RETURN(delta::Snapshot snapshot,
                         delta::ReadCheckpoint(storage, table_root, *start, *checkpoints));
    RLC_RETURN_IF_ERROR(auditor.Start(snapshot));
    auditor.report.from_checkpoint = start->version;
    expected = start->version + 1;
  }
  for (int64_t v : listing.commit_versions) {
    if (v < expected) continue;
    if (v != expected) {
      return Status::Corrupt(delta::LogDir(table_root) + ": version " + std::to_string(expected) +
                             " is missing");
    }
    ++expected;
    const std::string path = delta::LogDir(table_root) + "/" + delta::CommitFileName(v);
    RLC_ASSIGN_OR_RETURN(std::string bytes, storage.ReadFile(path));
    RLC_ASSIGN_OR_RETURN(delta::Commit commit, delta::ParseCommit(bytes, v, path));
    RLC_RETURN_IF_ERROR(auditor.Version(commit));
  }
  return std::move(auditor.report);
}

}  // namespace rlc::audit
