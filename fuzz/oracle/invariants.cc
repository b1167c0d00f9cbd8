#include "fuzz/oracle/invariants.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "fuzz/oracle/json_reader.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_reader.h"

namespace rlc::oracle {
namespace {

struct Active {
  std::string path;
  std::string dv_id;
  std::optional<int64_t> num_records;
  std::set<uint64_t> deleted;
  std::map<std::string, std::optional<std::string>> partition;
};

std::string DvId(const ReferenceFileAction& f) { return f.dv ? f.dv->Id() : ""; }

using Partition = std::map<std::string, std::optional<std::string>>;

std::string PartitionText(const Partition& p) {
  std::string s = "[";
  for (const auto& [k, v] : p) s += (s.size() > 1 ? "," : "") + k + "=" + v.value_or("null");
  return s + "]";
}

// The live rows of some file versions, per partition: counts, and (when every file is a row file)
// the rows themselves with their identities, sorted.
struct PartitionRows {
  std::optional<int64_t> count = 0;  // nullopt: some numRecords unknown
  std::vector<std::string> rows;
};

class RowCache {
 public:
  RowCache(const std::string& table_dir, const ByteSource& files)
      : table_dir_(table_dir), files_(files) {}
  // nullopt: not a row file (or unreadable): rows are then not compared.
  const std::optional<std::vector<std::string>>& Rows(const std::string& path) {
    auto it = cache_.find(path);
    if (it == cache_.end()) {
      std::string ignored;
      it = cache_.emplace(path, ReadReferenceRows(table_dir_, path, &ignored, files_)).first;
    }
    return it->second;
  }

 private:
  const std::string& table_dir_;
  const ByteSource& files_;
  std::map<std::string, std::optional<std::vector<std::string>>> cache_;
};

// The member names of a row text ({"id":1,...}); empty when it is no object.
std::set<std::string> ColumnsOf(const std::string& row) {
  std::string why;
  const std::optional<json::Value> v = json::Parse(row, &why);
  if (!v || !v->is_object()) return {};
  return {v->names.begin(), v->names.end()};
}

// A row text with only the members named in `columns` (all when empty) and none of `dropped`,
// canonical.
std::string Projected(const std::string& row, const std::set<std::string>& columns,
                      const Partition& dropped = {}) {
  std::string why;
  const std::optional<json::Value> v = json::Parse(row, &why);
  if (!v || !v->is_object()) return row;
  json::Value kept;
  kept.kind = json::Value::Kind::kObject;
  for (size_t i = 0; i < v->names.size(); ++i) {
    if (!columns.empty() && !columns.count(v->names[i])) continue;
    if (dropped.count(v->names[i])) continue;
    kept.names.push_back(v->names[i]);
    kept.items.push_back(v->items[i]);
  }
  std::string out;
  json::AppendCanonical(kept, &out);
  return out;
}

// `columns`: the columns every file of either side holds, when the files differ in them (the
// simulator's files carry a hidden identity column another engine's rewrite drops): rows are then
// compared on those. Empty: every file has the same columns; rows are compared whole. A file's
// partition columns are left out of its rows: readers take them from the add, which groups the
// rows here, not from what the file holds (a re-add under other values moves the file's rows).
std::map<Partition, PartitionRows> LiveByPartition(const std::vector<Active>& versions,
                                                   RowCache& cache, bool* rows_known,
                                                   const std::set<std::string>& columns) {
  std::map<Partition, PartitionRows> out;
  for (const Active& a : versions) {
    PartitionRows& p = out[a.partition];
    p.count = p.count && a.num_records
                  ? std::optional<int64_t>(*p.count + *a.num_records -
                                           static_cast<int64_t>(a.deleted.size()))
                  : std::nullopt;
    const std::optional<std::vector<std::string>>& rows = cache.Rows(a.path);
    if (!rows) {
      *rows_known = false;
      continue;
    }
    for (size_t i = 0; i < rows->size(); ++i) {
      if (a.deleted.count(i) != 0) continue;
      p.rows.push_back(columns.empty() && a.partition.empty()
                           ? (*rows)[i]
                           : Projected((*rows)[i], columns, a.partition));
    }
  }
  for (auto& [partition, p] : out) std::sort(p.rows.begin(), p.rows.end());
  return out;
}

// The columns both sides' files share, when they do not all have the same (see LiveByPartition).
std::set<std::string> SharedColumns(const std::vector<Active>& gone,
                                    const std::vector<Active>& came, RowCache& cache) {
  std::optional<std::set<std::string>> shared;
  bool uniform = true;
  for (const std::vector<Active>* side : {&gone, &came}) {
    for (const Active& a : *side) {
      const std::optional<std::vector<std::string>>& rows = cache.Rows(a.path);
      if (!rows || rows->empty()) continue;
      const std::set<std::string> columns = ColumnsOf(rows->front());
      if (!shared) {
        shared = columns;
        continue;
      }
      if (columns != *shared) uniform = false;
      std::set<std::string> both;
      std::set_intersection(shared->begin(), shared->end(), columns.begin(), columns.end(),
                            std::inserter(both, both.end()));
      shared = std::move(both);
    }
  }
  return uniform || !shared ? std::set<std::string>{} : *shared;
}

// A dataChange=false commit's versions gone and come must hold the same live rows in each
// partition: by count, and by row when every file's rows can be read (identity included when
// every file carries the simulator's hidden one; on the columns they share otherwise).
// The versions with every partition column any of them names: one an add's partitionValues
// leaves out reads as NULL (as Delta Spark reads a missing key, and rlc's readers too), so a
// rewrite that writes the NULL explicitly keeps its rows in the same partition.
std::vector<Active> AbsentPartitionValuesAsNull(std::vector<Active> versions,
                                                const std::set<std::string>& columns) {
  for (Active& a : versions) {
    for (const std::string& c : columns) a.partition.try_emplace(c, std::nullopt);
  }
  return versions;
}

void CheckConservation(const std::vector<Active>& gone_as_logged,
                       const std::vector<Active>& came_as_logged, RowCache& cache,
                       const std::function<void(std::string)>& find) {
  std::set<std::string> partition_columns;
  for (const auto* side : {&gone_as_logged, &came_as_logged}) {
    for (const Active& a : *side) {
      for (const auto& [column, value] : a.partition) partition_columns.insert(column);
    }
  }
  const std::vector<Active> gone = AbsentPartitionValuesAsNull(gone_as_logged, partition_columns);
  const std::vector<Active> came = AbsentPartitionValuesAsNull(came_as_logged, partition_columns);
  bool rows_known = true;
  const std::set<std::string> columns = SharedColumns(gone, came, cache);
  const std::map<Partition, PartitionRows> before =
      LiveByPartition(gone, cache, &rows_known, columns);
  const std::map<Partition, PartitionRows> after =
      LiveByPartition(came, cache, &rows_known, columns);
  std::set<Partition> partitions;
  for (const auto* side : {&before, &after}) {
    for (const auto& [p, rows] : *side) partitions.insert(p);
  }
  static const PartitionRows kNone;
  for (const Partition& p : partitions) {
    const PartitionRows& b = before.count(p) ? before.at(p) : kNone;
    const PartitionRows& a = after.count(p) ? after.at(p) : kNone;
    if (b.count && a.count && *b.count != *a.count) {
      find("partition " + PartitionText(p) + ": live rows go from " + std::to_string(*b.count) +
           " to " + std::to_string(*a.count));
    } else if (rows_known && b.rows != a.rows) {
      find("partition " + PartitionText(p) + ": the live rows it removes are not the rows it adds");
    }
  }
}

// The one element of a composition tag's JSON array text, or nullptr.
const json::Value* OnlyElement(const std::optional<json::Value>& array) {
  return array && array->is_array() && array->items.size() == 1 ? &array->items[0] : nullptr;
}

// One pass over a log: the active version of each path so far, and what each commit breaks.
class InvariantPass {
 public:
  InvariantPass(const std::string& table_dir, const std::string& dv_file_prefix,
                const ByteSource& files)
      : table_dir_(table_dir),
        dv_file_prefix_(dv_file_prefix),
        files_(files),
        rows_(table_dir, files) {}

  // False when a DV cannot be read (`error` says which).
  bool Commit(const ReferenceCommit& commit, std::string* error);
  std::vector<InvariantFinding> TakeFindings() { return std::move(findings_); }

 private:
  // What one commit does to the active versions.
  struct Step {
    int64_t version = 0;
    std::map<std::string, std::set<uint64_t>> removed_dvs;  // by path: the DV active before
    std::vector<Active> gone, came;  // the versions it removes or replaces, and adds
  };
  void Find(const Step& s, const std::string& path, const char* rule, std::string detail) {
    findings_.push_back({s.version, path, rule, std::move(detail)});
  }
  bool Add(Step& s, const ReferenceFileAction& a, std::set<std::string>& added, std::string* error);
  void CheckTags(const Step& s, const std::vector<const ReferenceFileAction*>& removes);

  const std::string& table_dir_;
  const std::string& dv_file_prefix_;
  const ByteSource& files_;
  RowCache rows_;                         // row files are written once: each is read at most once
  std::map<std::string, Active> active_;  // decoded path -> its active version
  bool row_tracking_ = false;  // the protocol so far lists the rowTracking writer feature
  std::vector<InvariantFinding> findings_;
};

bool InvariantPass::Commit(const ReferenceCommit& commit, std::string* error) {
  Step s;
  s.version = commit.version;
  std::vector<const ReferenceFileAction*> adds, removes;
  bool all_no_data_change = true;
  for (const ReferenceFileAction& f : commit.file_actions) {
    all_no_data_change = all_no_data_change && !f.data_change;
    (f.is_add ? adds : removes).push_back(&f);
  }
  // Removes first (their DVs as active before the commit), then adds.
  for (const ReferenceFileAction* r : removes) {
    auto it = active_.find(r->path);
    if (it != active_.end() && it->second.dv_id == DvId(*r)) {
      s.removed_dvs[r->path] = it->second.deleted;
      s.gone.push_back(std::move(it->second));
      active_.erase(it);
    }
  }
  if (commit.protocol_writer_features.has_value()) {
    const std::vector<std::string>& features = *commit.protocol_writer_features;
    row_tracking_ = std::find(features.begin(), features.end(), "rowTracking") != features.end();
  }
  std::set<std::string> added;
  for (const ReferenceFileAction* a : adds) {
    if (!Add(s, *a, added, error)) return false;
  }
  CheckTags(s, removes);
  if (!commit.file_actions.empty() && all_no_data_change) {
    CheckConservation(s.gone, s.came, rows_, [&](std::string detail) {
      Find(s, "", "no-data-change-conserves", std::move(detail));
    });
  }
  return true;
}

bool InvariantPass::Add(Step& s, const ReferenceFileAction& a, std::set<std::string>& added,
                        std::string* error) {
  const std::string& path = a.path;
  if (row_tracking_ && !a.has_base_row_id) {
    Find(s, path, "row-tracking-ids",
         "an add without baseRowId or defaultRowCommitVersion in a table with row tracking");
  }
  if (!added.insert(path).second)
    Find(s, path, "one-active-version", "the commit adds this path twice");
  if (active_.count(path) != 0 && active_.at(path).dv_id != DvId(a)) {
    Find(s, path, "one-active-version", "a second version of an active path");
  }
  Active file{path, DvId(a), a.num_records, {}, a.partition_values};
  if (a.dv) {
    std::string why;
    std::optional<std::set<uint64_t>> rows =
        ReadReferenceDv(table_dir_, *a.dv, dv_file_prefix_, &why, files_);
    if (!rows) {
      *error = "version " + std::to_string(s.version) + ", " + path + ": " + why;
      return false;
    }
    file.deleted = std::move(*rows);
    if (!file.deleted.empty() &&
        (!file.num_records || *file.deleted.rbegin() >= static_cast<uint64_t>(*file.num_records))) {
      Find(s, path, "dv-within-file",
           "the DV deletes row " + std::to_string(*file.deleted.rbegin()));
    }
  }
  auto old = s.removed_dvs.find(path);
  if (old != s.removed_dvs.end() && !std::includes(file.deleted.begin(), file.deleted.end(),
                                                   old->second.begin(), old->second.end())) {
    Find(s, path, "dv-never-shrinks", "a row the old DV deleted is live again");
  }
  if (auto replaced = active_.find(path); replaced != active_.end())
    s.gone.push_back(std::move(replaced->second));
  s.came.push_back(file);
  active_[path] = std::move(file);
  return true;
}

// Composition tags, grouped by output: well formed, and their runs tile the output.
void InvariantPass::CheckTags(const Step& s,
                              const std::vector<const ReferenceFileAction*>& removes) {
  std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> runs;  // output -> (offset, live)
  for (const ReferenceFileAction* r : removes) {
    if (!r->compacted_into && !r->composition_tags_malformed) continue;
    std::string ignored;
    const std::optional<json::Value> into =
        r->compacted_into ? json::Parse(*r->compacted_into, &ignored) : std::nullopt;
    const std::optional<json::Value> info =
        r->compaction_info ? json::Parse(*r->compaction_info, &ignored) : std::nullopt;
    const json::Value* output = OnlyElement(into);
    const json::Value* run = OnlyElement(info);
    const json::Value* offset = run ? run->Find("rowOffsetInTarget") : nullptr;
    const json::Value* physical = run ? run->Find("sourceNumPhysicalRecords") : nullptr;
    // Counts past 2^48 rows are malformed too: no table holds them, and sums of them stay exact.
    constexpr int64_t kMaxRows = int64_t{1} << 48;
    const auto count = [](const json::Value* n) {
      return n != nullptr && n->Int() && *n->Int() >= 0 && *n->Int() <= kMaxRows;
    };
    if (r->composition_tags_malformed || output == nullptr || !output->is_string() ||
        !count(offset) || !count(physical)) {
      Find(s, r->path, "tags-tile-output", "malformed composition tags");
      continue;
    }
    const int64_t deleted =
        static_cast<int64_t>(s.removed_dvs.count(r->path) ? s.removed_dvs.at(r->path).size() : 0);
    runs[UrlDecodePath(output->text)].push_back({*offset->Int(), *physical->Int() - deleted});
  }
  for (auto& [output, list] : runs) {
    std::sort(list.begin(), list.end());
    int64_t next = 0;
    bool contiguous = true;
    for (const auto& [offset, live] : list) {
      contiguous = contiguous && offset == next && live >= 0;
      next = offset + live;
    }
    const auto out = active_.find(output);
    const std::optional<int64_t> rows =
        out == active_.end() ? std::nullopt : out->second.num_records;
    if (!contiguous || !rows || next != *rows) {
      Find(s, output, "tags-tile-output", "the sources' runs do not tile the output");
    }
  }
}

}  // namespace

std::vector<InvariantFinding> CheckLogInvariants(const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix,
                                                 const ByteSource& files) {
  return CheckLogInvariants(ReadReferenceLog(table_dir, -1, files), table_dir, error,
                            dv_file_prefix, files);
}

std::vector<InvariantFinding> CheckLogInvariants(const ReferenceLog& log,
                                                 const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix,
                                                 const ByteSource& files) {
  InvariantPass pass(table_dir, dv_file_prefix, files);
  for (const ReferenceCommit& commit : log.commits) {
    if (!pass.Commit(commit, error)) return pass.TakeFindings();
  }
  if (!log.ok()) *error = log.error;
  return pass.TakeFindings();
}

}  // namespace rlc::oracle
