#include "impl/delta/snapshot.h"

#include <set>

#include "impl/delta/log.h"

namespace rlc::delta {
namespace {

Status CommitError(const Commit& commit, const std::string& path, const std::string& what) {
  return Status::Corrupt("version " + std::to_string(commit.version) + ", path '" + path +
                         "': " + what);
}

}  // namespace

std::string Snapshot::LogicalKey(std::string_view decoded_path,
                                 const std::optional<dv::DvDescriptor>& dv) {
  std::string key(decoded_path);
  key.push_back('\n');
  if (dv.has_value()) key += dv->UniqueId();
  return key;
}

Status ApplyCommit(const Commit& commit, Snapshot* snapshot) {
  RLC_ASSERT(commit.version == snapshot->version + 1);
  std::set<std::string> added_paths, removed_paths, added_keys, removed_keys;
  std::vector<std::pair<std::string, const AddFile*>> adds;
  std::vector<std::pair<std::string, std::string>> removes;  // decoded path, key
  for (const Action& action : commit.actions) {
    if (const auto* add = std::get_if<AddFile>(&action)) {
      RLC_ASSIGN_OR_RETURN(std::string path, dv::UrlDecode(add->path));
      if (!added_paths.insert(path).second)
        return CommitError(commit, path, "added twice in one commit");
      added_keys.insert(Snapshot::LogicalKey(path, add->deletion_vector));
      adds.emplace_back(std::move(path), add);
    } else if (const auto* remove = std::get_if<RemoveFile>(&action)) {
      RLC_ASSIGN_OR_RETURN(std::string path, dv::UrlDecode(remove->path));
      if (!removed_paths.insert(path).second) {
        return CommitError(commit, path, "removed twice in one commit");
      }
      std::string key = Snapshot::LogicalKey(path, remove->deletion_vector);
      removed_keys.insert(key);
      removes.emplace_back(std::move(path), std::move(key));
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
  for (const std::string& key : added_keys) {
    if (removed_keys.count(key) != 0) {
      return CommitError(commit, key.substr(0, key.find('\n')),
                         "added and removed with the same deletion vector in one commit");
    }
  }
  for (const auto& [path, key] : removes) {
    auto it = snapshot->files.find(path);
    if (it != snapshot->files.end() &&
        Snapshot::LogicalKey(path, it->second.deletion_vector) == key) {
      snapshot->files.erase(it);
    }
  }
  for (const auto& [path, add] : adds) {
    auto it = snapshot->files.find(path);
    if (it != snapshot->files.end() && Snapshot::LogicalKey(path, it->second.deletion_vector) !=
                                           Snapshot::LogicalKey(path, add->deletion_vector)) {
      return CommitError(
          commit, path,
          "two active versions: deletion vector '" +
              (it->second.deletion_vector ? it->second.deletion_vector->UniqueId() : "") +
              "' is still active and the commit adds '" +
              (add->deletion_vector ? add->deletion_vector->UniqueId() : "") +
              "' without removing it");
    }
    snapshot->files.insert_or_assign(path, *add);
  }
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
