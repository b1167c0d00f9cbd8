#include "fuzz/oracle/invariants.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "fuzz/oracle/json_reader.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_reader.h"

namespace rlc::oracle {
namespace {

struct Active {
  std::string dv_id;
  std::optional<int64_t> num_records;
  std::set<uint64_t> deleted;
};

std::string DvId(const ReferenceFileAction& f) { return f.dv ? f.dv->Id() : ""; }

std::optional<int64_t> LiveRows(const std::map<std::string, Active>& active) {
  int64_t total = 0;
  for (const auto& [path, a] : active) {
    if (!a.num_records) return std::nullopt;
    total += *a.num_records - static_cast<int64_t>(a.deleted.size());
  }
  return total;
}

// The one element of a composition tag's JSON array text, or nullptr.
const json::Value* OnlyElement(const std::optional<json::Value>& array) {
  return array && array->is_array() && array->items.size() == 1 ? &array->items[0] : nullptr;
}

}  // namespace

std::vector<InvariantFinding> CheckLogInvariants(const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix, const ByteSource& files) {
  return CheckLogInvariants(ReadReferenceLog(table_dir, -1, files), table_dir, error, dv_file_prefix, files);
}

std::vector<InvariantFinding> CheckLogInvariants(const ReferenceLog& log, const std::string& table_dir,
                                                 std::string* error, const std::string& dv_file_prefix,
                                                 const ByteSource& files) {
  std::vector<InvariantFinding> findings;
  std::map<std::string, Active> active;  // decoded path -> its active version
  for (const ReferenceCommit& commit : log.commits) {
    const int64_t v = commit.version;
    auto find = [&](const std::string& path, const char* rule, std::string detail) {
      findings.push_back({v, path, rule, std::move(detail)});
    };
    std::vector<const ReferenceFileAction*> adds, removes;
    bool all_no_data_change = true;
    for (const ReferenceFileAction& f : commit.file_actions) {
      all_no_data_change = all_no_data_change && !f.data_change;
      (f.is_add ? adds : removes).push_back(&f);
    }
    const bool file_actions = !commit.file_actions.empty();
    const std::optional<int64_t> live_before = LiveRows(active);
    // Removes first (their DVs as active before the commit), then adds.
    std::map<std::string, std::set<uint64_t>> removed_dvs;
    for (const ReferenceFileAction* r : removes) {
      auto it = active.find(r->path);
      if (it != active.end() && it->second.dv_id == DvId(*r)) {
        removed_dvs[r->path] = it->second.deleted;
        active.erase(it);
      }
    }
    std::set<std::string> added;
    for (const ReferenceFileAction* a : adds) {
      const std::string& path = a->path;
      if (!added.insert(path).second) find(path, "one-active-version", "the commit adds this path twice");
      if (active.count(path) != 0 && active.at(path).dv_id != DvId(*a)) {
        find(path, "one-active-version", "a second version of an active path");
      }
      Active file{DvId(*a), a->num_records, {}};
      if (a->dv) {
        std::string why;
        std::optional<std::set<uint64_t>> rows = ReadReferenceDv(table_dir, *a->dv, dv_file_prefix, &why, files);
        if (!rows) {
          *error = "version " + std::to_string(v) + ", " + path + ": " + why;
          return findings;
        }
        file.deleted = std::move(*rows);
        if (!file.deleted.empty() && (!file.num_records || *file.deleted.rbegin() >= static_cast<uint64_t>(*file.num_records))) {
          find(path, "dv-within-file", "the DV deletes row " + std::to_string(*file.deleted.rbegin()));
        }
      }
      auto old = removed_dvs.find(path);
      if (old != removed_dvs.end() &&
          !std::includes(file.deleted.begin(), file.deleted.end(), old->second.begin(), old->second.end())) {
        find(path, "dv-never-shrinks", "a row the old DV deleted is live again");
      }
      active[path] = std::move(file);
    }
    // Composition tags, grouped by output.
    std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> runs;  // output -> (offset, live)
    for (const ReferenceFileAction* r : removes) {
      if (!r->compacted_into && !r->composition_tags_malformed) continue;
      std::string ignored;
      const std::optional<json::Value> into = r->compacted_into ? json::Parse(*r->compacted_into, &ignored) : std::nullopt;
      const std::optional<json::Value> info = r->compaction_info ? json::Parse(*r->compaction_info, &ignored) : std::nullopt;
      const json::Value* output = OnlyElement(into);
      const json::Value* run = OnlyElement(info);
      const json::Value* offset = run ? run->Find("rowOffsetInTarget") : nullptr;
      const json::Value* physical = run ? run->Find("sourceNumPhysicalRecords") : nullptr;
      // Counts past 2^48 rows are malformed too: no table holds them, and sums of them stay exact.
      constexpr int64_t kMaxRows = int64_t{1} << 48;
      const auto count = [](const json::Value* n) {
        return n != nullptr && n->Int() && *n->Int() >= 0 && *n->Int() <= kMaxRows;
      };
      if (r->composition_tags_malformed || output == nullptr || !output->is_string() || !count(offset) ||
          !count(physical)) {
        find(r->path, "tags-tile-output", "malformed composition tags");
        continue;
      }
      const int64_t deleted = static_cast<int64_t>(removed_dvs.count(r->path) ? removed_dvs.at(r->path).size() : 0);
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
      const auto out = active.find(output);
      const std::optional<int64_t> rows = out == active.end() ? std::nullopt : out->second.num_records;
      if (!contiguous || !rows || next != *rows) {
        find(output, "tags-tile-output", "the sources' runs do not tile the output");
      }
    }
    if (file_actions && all_no_data_change) {
      const std::optional<int64_t> live_after = LiveRows(active);
      if (live_before && live_after && *live_before != *live_after) {
        find("", "no-data-change-conserves",
             "live rows go from " + std::to_string(*live_before) + " to " + std::to_string(*live_after));
      }
    }
  }
  if (!log.ok()) *error = log.error;
  return findings;
}

}  // namespace rlc::oracle
