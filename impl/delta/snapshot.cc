#include "impl/delta/snapshot.h"

#include <vector>

#include "impl/delta/commit_rules.h"
#include "impl/delta/file_key.h"
#include "impl/delta/log.h"

namespace rlc::delta {

std::string Snapshot::LogicalKey(std::string_view decoded_path,
                                 const std::optional<dv::DvDescriptor>& dv) {
  std::string key(decoded_path);
  key.push_back('\n');
  if (dv.has_value()) key += dv->UniqueId();
  return key;
}

Status ApplyCommit(const Commit& commit, Snapshot* snapshot) {
  RLC_ASSERT(commit.version == snapshot->version + 1);
  std::vector<const AddFile*> adds;
  std::vector<const RemoveFile*> removes;
  for (const Action& action : commit.actions) {
    if (const auto* add = std::get_if<AddFile>(&action)) {
      adds.push_back(add);
    } else if (const auto* remove = std::get_if<RemoveFile>(&action)) {
      removes.push_back(remove);
    } else if (const auto* protocol = std::get_if<Protocol>(&action)) {
      snapshot->protocol = *protocol;
    } else if (const auto* metadata = std::get_if<Metadata>(&action)) {
      snapshot->metadata = *metadata;
    } else if (const auto* txn = std::get_if<Txn>(&action)) {
      snapshot->app_transactions[txn->app_id] = *txn;
    } else if (const auto* domain = std::get_if<DomainMetadata>(&action)) {
      if (domain->removed) {
        snapshot->domains.erase(domain->domain);
      } else {
        snapshot->domains[domain->domain] = *domain;
      }
    }
  }
  const FileTable& files = snapshot->files;
  RLC_RETURN_IF_ERROR(CheckCommitFiles(commit.version, adds, removes,
                                       [&files](const std::string& path) -> const AddFile* {
                                         auto it = files.find(path);
                                         return it == files.end() ? nullptr : &it->second;
                                       }));
  // The rules hold, so every path decodes and a remove cancels at most the one active version.
  for (const RemoveFile* remove : removes) {
    const std::string path = DecodedPath(remove->path);
    auto it = snapshot->files.find(path);
    if (it != snapshot->files.end() && SameDv(it->second.deletion_vector, remove->deletion_vector))
      snapshot->files.erase(it);
  }
  for (const AddFile* add : adds) snapshot->files.insert_or_assign(DecodedPath(add->path), *add);
  snapshot->version = commit.version;
  return Status::Ok();
}

Result<Snapshot> ReplayLog(const storage::Storage& storage, std::string_view table_root,
                           std::optional<int64_t> version) {
  RLC_ASSIGN_OR_RETURN(LogListing listing, ListLog(storage, table_root));
  const std::string log_dir = LogDir(table_root);
  if (listing.commit_versions.empty()) {
    return Status::NotFound(log_dir + ": no JSON commits");
  }
  const int64_t target = version.value_or(listing.latest_version());
  if (target < 0 || target > listing.latest_version()) {
    return Status::NotFound(log_dir + ": version " + std::to_string(target) +
                            " does not exist (latest is " +
                            std::to_string(listing.latest_version()) + ")");
  }
  if (listing.commit_versions.front() != 0) {
    std::string checkpoint;
    for (int64_t c : listing.checkpoint_versions) {
      if (c <= target)
        checkpoint = " (the nearest checkpoint is version " + std::to_string(c) + ")";
    }
    return Status::Unsupported(log_dir + ": the JSON history starts at version " +
                               std::to_string(listing.commit_versions.front()) +
                               "; rebuilding version " + std::to_string(target) +
                               " needs a checkpoint, which a JSON-only replay does not read" +
                               checkpoint);
  }
  Snapshot snapshot;
  for (size_t i = 0; i < listing.commit_versions.size(); ++i) {
    const int64_t v = listing.commit_versions[i];
    if (v > target) break;
    if (v != int64_t(i)) {
      return Status::Corrupt(log_dir + ": version " + std::to_string(i) + " is missing (next is " +
                             std::to_string(v) + ")");
    }
    RLC_ASSIGN_OR_RETURN(Commit commit, ReadCommit(storage, table_root, v));
    RLC_RETURN_IF_ERROR(ApplyCommit(commit, &snapshot).WithContext(log_dir));
  }
  return snapshot;
}

}  // namespace rlc::delta
