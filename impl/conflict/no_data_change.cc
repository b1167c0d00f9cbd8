#include "impl/conflict/no_data_change.h"

#include <optional>

#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"
#include "impl/kernel/relocation.h"
#include "impl/base/mutants.h"

namespace rlc::conflict {
namespace {

using File = kernel::RelocatedFile<ConcreteDomain>;

std::string ColumnKey(const delta::ColumnPath& path) {
  std::string key;
  for (const std::string& part : path) key += part + '\x1f';
  return key;
}

// The kernel's view of one file: its physical rows, its DV's size, and its non-NULL bounds.
File ToRelocatedFile(const std::optional<std::string>& stats_json, const std::optional<dv::DvDescriptor>& dv) {
  File f;
  f.deleted_rows = dv.has_value() ? dv->cardinality : 0;
  if (!stats_json.has_value()) return f;
  Result<delta::FileStats> stats = delta::ParseStats(*stats_json);
  if (!stats.ok() || !stats->num_records.has_value()) return f;
  f.physical_rows = *stats->num_records;
  for (const auto& [path, value] : stats->min_values) {
    if (!std::holds_alternative<std::monostate>(value)) f.min_values.emplace(ColumnKey(path), value);
  }
  for (const auto& [path, value] : stats->max_values) {
    if (!std::holds_alternative<std::monostate>(value)) f.max_values.emplace(ColumnKey(path), value);
  }
  return f;
}

}  // namespace

bool IsAppendOnly(const PendingTransaction& loser) {
  for (const delta::Action& a : loser.actions) {
    if (std::holds_alternative<delta::RemoveFile>(a)) return false;
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->deletion_vector.has_value()) return false;
  }
  return true;
}

const delta::AddFile* ActiveAtRead(const std::map<std::string, delta::AddFile>& read_files,
                                   const std::string& decoded_path, const std::optional<dv::DvDescriptor>& dv) {
  auto it = read_files.find(decoded_path);
  if (it == read_files.end()) return nullptr;
  const std::optional<dv::DvDescriptor>& active = it->second.deletion_vector;
  const bool same_dv = active.has_value() == dv.has_value() && (!dv.has_value() || active->UniqueId() == dv->UniqueId());
  return same_dv ? &it->second : nullptr;
}

NoDataChangeExclusion ExcludeNoDataChangeFiles(const WinnerSummary& winner, const PendingTransaction& loser,
                                               const std::map<std::string, delta::AddFile>& read_files,
                                               const std::set<std::string>& removed_since_read) {
  NoDataChangeExclusion out;
  out.add_left_out.assign(winner.added_files.size(), false);
  std::vector<size_t> relocation_adds;
  std::vector<File> added, removed;
  for (size_t i = 0; i < winner.added_files.size(); ++i) {
    const delta::AddFile& add = winner.added_files[i];
    if (add.data_change) continue;
    const std::string path = DecodedPath(add.path);
    if (ActiveAtRead(read_files, path, add.deletion_vector) != nullptr &&
        removed_since_read.count(delta::Snapshot::LogicalKey(path, add.deletion_vector)) == 0) {
      out.add_left_out[i] = true;  // (a): a statistics-only re-add
      continue;
    }
    relocation_adds.push_back(i);
    out.relocated_to.push_back(add.path);
    added.push_back(ToRelocatedFile(add.stats, add.deletion_vector));
  }
  bool has_relocation_removes = false;
  for (const delta::RemoveFile& remove : winner.removed_files) {
    if (remove.data_change) continue;
    has_relocation_removes = true;
    out.relocated_from.push_back(remove.path);
    std::optional<std::string> stats = remove.stats;
    if (!stats.has_value()) {
      const delta::AddFile* active = ActiveAtRead(read_files, DecodedPath(remove.path), remove.deletion_vector);
      if (active != nullptr) stats = active->stats;
    }
    removed.push_back(ToRelocatedFile(stats, remove.deletion_vector));
  }
  if (relocation_adds.empty() && !has_relocation_removes) {
    if (RLC_MUTANT(kCase3ExcludesEveryRemove)) out.removes_left_out = IsAppendOnly(loser);
    return out;
  }
  out.conserved = kernel::RelocationConservesRows(ConcreteDomain{}, removed, added);
  if (!out.conserved) return out;
  for (size_t i : relocation_adds) out.add_left_out[i] = true;  // (b)
  out.removes_left_out = has_relocation_removes && IsAppendOnly(loser);
  return out;
}

void FollowRelocatedReads(const NoDataChangeExclusion& exclusion, PendingTransaction& loser) {
  if (!exclusion.removes_left_out || exclusion.relocated_to.empty()) return;
  if (RLC_MUTANT(kCase3ReadsNotFollowed)) return;
  std::set<std::string> read;
  for (const std::string& p : loser.read_files) read.insert(DecodedPath(p));
  bool source_read = loser.read_whole_table;
  for (const std::string& p : exclusion.relocated_from) source_read = source_read || read.count(DecodedPath(p)) != 0;
  if (!source_read) return;
  for (const std::string& p : exclusion.relocated_to) {
    if (read.insert(DecodedPath(p)).second) loser.read_files.push_back(p);
  }
}

}  // namespace rlc::conflict
