#include "impl/conflict/no_data_change.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/conflict/table_files.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"
#include "impl/kernel/relocation.h"

namespace rlc::conflict {
namespace {

using File = kernel::RelocatedFile<ConcreteDomain>;

std::string ColumnKey(const delta::ColumnPath& path) {
  std::string key;
  for (const std::string& part : path) key += part + '\x1f';
  return key;
}

// The kernel's view of one file: its physical rows, its DV's size, and its non-NULL bounds.
File ToRelocatedFile(const std::optional<delta::StatsJson>& stats_json,
                     const std::optional<dv::DvDescriptor>& dv) {
  File f;
  f.deleted_rows = dv.has_value() ? dv->cardinality : 0;
  if (!stats_json.has_value()) return f;
  Result<delta::FileStats> stats = delta::ParseStats(*stats_json);
  if (!stats.ok() || !stats->num_records.has_value()) return f;
  f.physical_rows = *stats->num_records;
  for (const auto& [path, value] : stats->min_values) {
    if (!std::holds_alternative<std::monostate>(value))
      f.min_values.emplace(ColumnKey(path), value);
  }
  for (const auto& [path, value] : stats->max_values) {
    if (!std::holds_alternative<std::monostate>(value))
      f.max_values.emplace(ColumnKey(path), value);
  }
  return f;
}

// One side of a relocation in one partition: the files whose live rows it holds.
struct Side {
  std::vector<File> counted;                                                   // for the kernel
  std::vector<std::pair<std::string, std::optional<dv::DvDescriptor>>> files;  // path, DV
  Int128 bytes = 0;
};

enum class RowCheck { kSameRows, kOtherRows, kUnknown };

bool TupleLess(const RowTuple& a, const RowTuple& b) {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        if (!x.has_value() || !y.has_value()) return !x.has_value() && y.has_value();
        return std::tie(x->kind, x->int_value, x->double_value, x->string_value) <
               std::tie(y->kind, y->int_value, y->double_value, y->string_value);
      });
}

// The live rows of one side, sorted; nullopt with *unknown when a file has no reader.
std::optional<std::vector<RowTuple>> LiveRowsOf(const Side& side, const TableFiles& files,
                                                const std::vector<predicate::ColumnPath>& columns,
                                                bool* unknown) {
  std::vector<RowTuple> all;
  for (const auto& [path, dv] : side.files) {
    dv::RowBitmap deleted;
    if (dv.has_value()) {
      Result<dv::RowBitmap> loaded = files.ReadDeletionVector(*dv);
      if (!loaded.ok()) return std::nullopt;  // doubt: a DV unreadable
      deleted = std::move(loaded).value();
    }
    Result<std::vector<RowTuple>> rows = ReadRows(files, path, deleted, columns);
    if (!rows.ok()) {
      *unknown = rows.status().code() == StatusCode::kUnsupported;
      return std::nullopt;
    }
    for (RowTuple& r : *rows) all.push_back(std::move(r));
  }
  std::sort(all.begin(), all.end(), TupleLess);
  return all;
}

// Whether each partition's removed and added live rows are the same rows.
RowCheck SameRowsPerPartition(const std::map<delta::StringMap, std::pair<Side, Side>>& by_partition,
                              const NoDataChangeInputs& in) {
  if (in.files == nullptr) return RowCheck::kUnknown;
  const int64_t max_bytes = in.loser.flags.value_exact_max_bytes;
  Int128 bytes = 0;
  for (const auto& [partition, sides] : by_partition)
    bytes += sides.first.bytes + sides.second.bytes;
  if (max_bytes > 0 && bytes > max_bytes)
    return RowCheck::kUnknown;  // doubt: over the budget: counts trusted
  const std::vector<predicate::ColumnPath> columns = TableColumns(in.read_metadata);
  if (columns.empty()) return RowCheck::kUnknown;
  for (const auto& [partition, sides] : by_partition) {
    bool unknown = false;
    const auto removed = LiveRowsOf(sides.first, *in.files, columns, &unknown);
    if (unknown) return RowCheck::kUnknown;  // doubt: rows unreadable: counts trusted
    const auto added = LiveRowsOf(sides.second, *in.files, columns, &unknown);
    if (unknown) return RowCheck::kUnknown;
    if (!removed.has_value() || !added.has_value() || *removed != *added)
      return RowCheck::kOtherRows;  // doubt: other rows
  }
  return RowCheck::kSameRows;
}

}  // namespace

bool IsAppendOnly(const PendingTransaction& loser) {
  for (const delta::Action& a : loser.actions) {
    if (std::holds_alternative<delta::RemoveFile>(a)) return false;
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->deletion_vector.has_value())
      return false;
  }
  return true;
}

const delta::AddFile* ActiveAtRead(const delta::FileTable& read_files,
                                   const std::string& decoded_path,
                                   const std::optional<dv::DvDescriptor>& dv) {
  auto it = read_files.find(decoded_path);
  if (it == read_files.end()) return nullptr;
  const std::optional<dv::DvDescriptor>& active = it->second.deletion_vector;
  const bool same_dv = active.has_value() == dv.has_value() &&
                       (!dv.has_value() || active->UniqueId() == dv->UniqueId());
  return same_dv ? &it->second : nullptr;
}

namespace {

// Whether the relocation keeps every partition's rows (counts and bounds first, then the rows
// where they can be read); the decline log says why not.
bool Conserves(const std::map<delta::StringMap, std::pair<Side, Side>>& by_partition,
               const NoDataChangeInputs& in, int64_t winner_version) {
  for (const auto& [partition, sides] : by_partition) {
    const bool counts = kernel::RelocationConservesRows(ConcreteDomain{}, sides.first.counted,
                                                        sides.second.counted);
    if (!counts) {  // doubt: a partition's counts or bounds differ
      Declined(in.declines, "3", winner_version, "",
               "the relocation's live row counts or bounds differ between what it removed and "
               "what it added" +
                   (partition.empty() ? std::string() : " in a partition"));
      return false;
    }
  }
  if (RLC_MUTANT("case3-trusts-counts")) return true;
  if (SameRowsPerPartition(by_partition, in) == RowCheck::kOtherRows) {  // doubt: the rows differ
    Declined(in.declines, "3", winner_version, "",
             "the relocation's added files hold other rows than the files it removed");
    return false;
  }
  return true;
}

// (a): the add names the very version the loser read, unremoved since, in the same partition.
// The partition values are the log's word on which partition the file's rows belong to: a re-add
// under other values moves every row of the file (a relocation, judged as one under (b)).
bool IsStatisticsOnlyReAdd(const delta::AddFile& add, const std::string& decoded_path,
                           const NoDataChangeInputs& in) {
  const delta::AddFile* read = ActiveAtRead(in.read_files, decoded_path, add.deletion_vector);
  if (read == nullptr) return false;
  if (in.removed_since_read.count(delta::Snapshot::LogicalKey(decoded_path, add.deletion_vector)))
    return false;
  if (RLC_MUTANT("case3-readd-ignores-partition")) return true;
  if (RLC_MUTANT("case3-readd-checks-first-partition-column") && !read->partition_values.empty() &&
      !add.partition_values.empty())
    return read->partition_values.front() == add.partition_values.front();
  // A re-add under other partition values moves its rows: not statistics-only.
  return read->partition_values == add.partition_values;
}

// A re-add, without a remove, of a path active at the read under other partition values moves
// that version's live rows out of their partition: the relocation removes them there, though it
// names no remove. Left out, a move of one file's rows into a partition beside a remove of as
// many other rows there conserves every partition it names.
template <typename Group>
void CountMovedOutOfItsPartition(const std::string& path, const delta::AddFile& add,
                                 const NoDataChangeInputs& in, const Group& group) {
  const auto at_read = in.read_files.find(path);
  if (at_read == in.read_files.end() || at_read->second.partition_values == add.partition_values ||
      RLC_MUTANT("case3-move-keeps-its-old-partition"))
    return;
  const delta::AddFile& moved = at_read->second;
  Side& side = group(moved.partition_values).first;
  side.counted.push_back(ToRelocatedFile(moved.stats, moved.deletion_vector));
  side.files.push_back({moved.path, moved.deletion_vector});
  side.bytes += moved.size_bytes;
}

}  // namespace

NoDataChangeExclusion ExcludeNoDataChangeFiles(const WinnerSummary& winner,
                                               const NoDataChangeInputs& in) {
  NoDataChangeExclusion out;
  out.add_left_out.assign(winner.added_files.size(), false);
  std::vector<size_t> relocation_adds;
  // The relocation's files by partition values (removed, added): rows must stay in their partition.
  std::map<delta::StringMap, std::pair<Side, Side>> by_partition;
  const auto group = [&](const delta::StringMap& values) -> auto& {
    return by_partition[RLC_MUTANT("case3-trusts-counts") ? delta::StringMap{} : values];
  };
  bool known = true;  // every removed file's facts known
  std::set<std::string> removed_paths;
  for (const delta::RemoveFile& remove : winner.removed_files)
    removed_paths.insert(DecodedPath(remove.path));
  for (size_t i = 0; i < winner.added_files.size(); ++i) {
    const delta::AddFile& add = winner.added_files[i];
    if (add.data_change) continue;
    const std::string path = DecodedPath(add.path);
    if (IsStatisticsOnlyReAdd(add, path, in)) {
      out.add_left_out[i] = true;  // (a): a statistics-only re-add
      continue;
    }
    if (removed_paths.count(path) == 0) CountMovedOutOfItsPartition(path, add, in, group);
    relocation_adds.push_back(i);
    out.relocated_to.push_back(add.path);
    Side& side = group(add.partition_values).second;
    side.counted.push_back(ToRelocatedFile(add.stats, add.deletion_vector));
    side.files.push_back({add.path, add.deletion_vector});
    side.bytes += add.size_bytes;
  }
  bool has_relocation_removes = false;
  for (const delta::RemoveFile& remove : winner.removed_files) {
    if (remove.data_change) continue;
    has_relocation_removes = true;
    out.relocated_from.push_back(remove.path);
    const std::optional<TableView::Removed> removed = in.view.RemovedFile(remove);
    if (!removed.has_value()) {  // doubt: a remove the view cannot vouch for
      Declined(in.declines, "3", winner.version, DecodedPath(remove.path),
               "the relocation's remove names no active version, or its statistics contradict "
               "that version's");
      known = false;
      continue;
    }
    Side& side = group(removed->partition_values).first;
    side.counted.push_back(ToRelocatedFile(removed->stats, remove.deletion_vector));
    side.files.push_back({remove.path, remove.deletion_vector});
    side.bytes += removed->size_bytes;
  }
  if (relocation_adds.empty() && !has_relocation_removes) {
    if (RLC_MUTANT("case3-excludes-every-remove")) out.removes_left_out = IsAppendOnly(in.loser);
    return out;
  }
  out.conserved = known && Conserves(by_partition, in, winner.version);
  if (!out.conserved) return out;                               // doubt: no conserving relocation
  for (size_t i : relocation_adds) out.add_left_out[i] = true;  // (b)
  out.removes_left_out = has_relocation_removes && IsAppendOnly(in.loser);
  return out;
}

void FollowRelocatedReads(const NoDataChangeExclusion& exclusion, PendingTransaction& loser) {
  if (!exclusion.removes_left_out || exclusion.relocated_to.empty()) return;
  if (RLC_MUTANT("case3-reads-not-followed")) return;
  std::set<std::string> read;
  for (const std::string& p : loser.read_files) read.insert(DecodedPath(p));
  bool source_read = loser.read_whole_table;
  for (const std::string& p : exclusion.relocated_from)
    source_read = source_read || read.count(DecodedPath(p)) != 0;
  if (!source_read) return;  // doubt: no relocated file was read
  for (const std::string& p : exclusion.relocated_to) {
    if (read.insert(DecodedPath(p)).second) loser.read_files.push_back(p);
  }
}

}  // namespace rlc::conflict
