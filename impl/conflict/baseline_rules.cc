#include "impl/conflict/baseline_rules.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "impl/base/mutants.h"
#include "impl/delta/commit_writer.h"
#include "impl/dv/descriptor.h"

namespace rlc::conflict {
namespace {

// The winner's commitInfo as Delta prints it in a conflict: its JSON with the version first.
std::optional<std::string> ConflictingCommit(const WinnerSummary& winner) {
  if (!winner.commit_info.has_value()) return std::nullopt;
  const std::string line = delta::WriteActionLine(*winner.commit_info);  // {"commitInfo":{...}}
  constexpr std::string_view kPrefix = R"({"commitInfo":)";
  std::string_view object = std::string_view(line).substr(kPrefix.size());
  object.remove_suffix(1);  // the line's closing brace
  const std::string version = R"({"version":)" + std::to_string(winner.version);
  return object == "{}" ? version + "}" : version + "," + std::string(object.substr(1));
}

Abort MakeAbortHere(const RuleContext& c, ConflictKind kind, std::string reason) {
  Abort a;
  a.kind = kind;
  a.winner_version = c.winner.version;
  a.winner_operation = c.winner.operation;
  a.reason = std::move(reason);
  a.conflicting_commit = ConflictingCommit(c.winner);
  return a;
}

// Delta's name for a file's place: "partition [a=1, b=x]" in the table's partition column order,
// or "the root of the table".
std::string DeltaPartitionText(const RuleContext& c, const delta::StringMap& values) {
  const std::vector<std::string>& columns = c.read_metadata.partition_columns;
  if (columns.empty()) return "the root of the table";
  std::string text = "partition [";
  for (size_t i = 0; i < columns.size(); ++i) {
    std::string value = "null";
    for (const auto& [name, v] : values) {
      if (name == columns[i]) value = v.value_or("null");
    }
    text += (i > 0 ? ", " : "") + columns[i] + "=" + value;
  }
  return text + "]";
}

std::set<std::string> FeatureSet(const delta::Protocol& p) {
  std::set<std::string> features;
  if (p.reader_features) features.insert(p.reader_features->begin(), p.reader_features->end());
  if (p.writer_features) features.insert(p.writer_features->begin(), p.writer_features->end());
  return features;
}

// Decoded paths, found by their delta::PathKey. A winner's removed path is looked up by the key
// its summary took as it parsed (RemovedPathKey), and the path itself is read only when a key
// matches: most of a winner's removed paths are in none of the loser's sets, and reading each
// again, long after the parse, costs a cache miss apiece. A path without an escape is kept as a
// view of itself (no copy of the loser's 10,000s of paths per winner), an escaped one decoded.
// Open addressing over a power-of-two table, at most half full.
// REQUIRES: an inserted path outlives the set.
class PathSet {
 public:
  void Insert(const std::string& path) {
    if (2 * (paths_.size() + 1) > slots_.size()) Grow();
    if (!HasEscape(path)) {
      paths_.push_back(path);
    } else {
      decoded_.push_back(DecodedPath(path));
      paths_.push_back(decoded_.back());
    }
    Place(delta::PathKey(path), static_cast<uint32_t>(paths_.size() - 1));
  }
  // REQUIRES: key == delta::PathKey(path).
  bool Contains(const std::string& path, uint64_t key) const {
    if (slots_.empty()) return false;
    const size_t mask = slots_.size() - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.path == kFree) return false;
      if (slot.key == key && Same(paths_[slot.path], path)) return true;
    }
  }

 private:
  static constexpr uint32_t kFree = UINT32_MAX;
  struct Slot {
    uint64_t key = 0;
    uint32_t path = kFree;  // an index into paths_
  };

  static bool Same(std::string_view decoded, const std::string& path) {
    return HasEscape(path) ? decoded == DecodedPath(path) : decoded == path;
  }
  void Place(uint64_t key, uint32_t path) {
    const size_t mask = slots_.size() - 1;
    size_t i = key & mask;
    while (slots_[i].path != kFree) i = (i + 1) & mask;
    slots_[i] = {key, path};
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(16, 2 * old.size()), Slot{});
    for (const Slot& slot : old) {
      if (slot.path != kFree) Place(slot.key, slot.path);
    }
  }

  std::vector<Slot> slots_;
  std::vector<std::string_view> paths_;  // decoded
  std::deque<std::string> decoded_;      // the escaped paths decoded (a deque never moves them)
};

// The key of a file the winner removed: the one its summary took, when `remove` is one of the
// summary's removes and the summary has keys, else computed.
uint64_t RemovedPathKey(const WinnerSummary& winner, const delta::RemoveFile* remove) {
  const std::vector<delta::RemoveFile>& removed = winner.removed_files;
  const std::less<const delta::RemoveFile*> before;
  if (winner.removed_path_keys.size() == removed.size() && !removed.empty() &&
      !before(remove, removed.data()) && before(remove, removed.data() + removed.size()))
    return winner.removed_path_keys[static_cast<size_t>(remove - removed.data())];
  return delta::PathKey(remove->path);
}

// A hash of partition values (names, values and which are null), for lookups by equality.
struct StringMapHash {
  size_t operator()(const delta::StringMap& values) const {
    size_t h = values.size();
    for (const auto& [name, value] : values) {
      h = h * 31 + std::hash<std::string_view>()(name);
      h = h * 31 + (value.has_value() ? std::hash<std::string_view>()(*value) : 0x9e3779b9u);
    }
    return h;
  }
};

constexpr char kRowTrackingDomain[] = "delta.rowTracking";

}  // namespace

Abort MakeAbort(const RuleContext& c, ConflictKind kind, std::string reason) {
  return MakeAbortHere(c, kind, std::move(reason));
}

std::optional<std::string> PartitionHint(const delta::StringMap& partition_values) {
  if (partition_values.empty()) return std::nullopt;
  std::string hint = "[";
  for (size_t i = 0; i < partition_values.size(); ++i) {
    if (i > 0) hint += ",";
    hint += partition_values[i].first + "=" + partition_values[i].second.value_or("null");
  }
  return hint + "]";
}

std::set<std::string> RequiredWriterFeatures(const delta::Protocol& p) {
  if (p.min_writer_version >= 7) {
    return p.writer_features
               ? std::set<std::string>(p.writer_features->begin(), p.writer_features->end())
               : std::set<std::string>{};
  }
  static const std::pair<int32_t, const char*> kLegacy[] = {
      {2, "appendOnly"},       {2, "invariants"},    {3, "checkConstraints"}, {4, "changeDataFeed"},
      {4, "generatedColumns"}, {5, "columnMapping"}, {6, "identityColumns"}};
  std::set<std::string> features;
  for (const auto& [version, feature] : kLegacy) {
    if (p.min_writer_version >= version) features.insert(feature);
  }
  return features;
}

std::optional<Abort> CheckProtocol(const RuleContext& c) {
  if (!c.winner.protocol.has_value()) return std::nullopt;
  if (!RLC_MUTANT("winner-feature-passes")) {
    std::set<std::string> supported = RequiredWriterFeatures(c.read_protocol);
    supported.insert(c.loser.writer_features.begin(), c.loser.writer_features.end());
    for (std::string_view f : kCommitNeutralWriterFeatures) supported.insert(std::string(f));
    for (const std::string& f : RequiredWriterFeatures(*c.winner.protocol)) {
      if (supported.count(f) == 0) {
        return MakeAbortHere(c, ConflictKind::kUnsupportedTableFeature,
                             "the winner's protocol needs writer feature '" + f +
                                 "', which the loser's writer does not support");
      }
    }
  }
  if (c.loser.ChangesProtocol()) {
    return MakeAbortHere(c, ConflictKind::kProtocolChanged,
                         "the winner changed the protocol and the loser changes it too");
  }
  const std::set<std::string> winner_features = FeatureSet(*c.winner.protocol);
  for (const std::string& f : FeatureSet(c.read_protocol)) {
    if (winner_features.count(f) == 0) {
      return MakeAbortHere(c, ConflictKind::kProtocolChanged,
                           "the winner dropped table feature '" + f + "' that the loser read");
    }
  }
  return std::nullopt;
}

std::optional<Abort> CheckMetadata(const RuleContext& c) {
  if (!c.winner.metadata.has_value()) return std::nullopt;
  return MakeAbortHere(c, ConflictKind::kMetadataChanged,
                       "the winner changed the table's metadata");
}

std::optional<Abort> CheckDomainMetadata(const RuleContext& c) {
  for (const delta::DomainMetadata& w : c.winner.domains) {
    if (w.domain == kRowTrackingDomain) continue;
    for (const delta::Action& a : c.loser.actions) {
      const auto* mine = std::get_if<delta::DomainMetadata>(&a);
      if (mine != nullptr && mine->domain == w.domain) {
        return MakeAbortHere(c, ConflictKind::kConcurrentTransaction,
                             "conflicting metadata domain '" + w.domain + "'");
      }
    }
  }
  return std::nullopt;
}

std::optional<Abort> CheckAppIds(const RuleContext& c) {
  for (const delta::Txn& t : c.winner.app_transactions) {
    if (std::find(c.loser.read_app_ids.begin(), c.loser.read_app_ids.end(), t.app_id) !=
        c.loser.read_app_ids.end()) {
      return MakeAbortHere(c, ConflictKind::kConcurrentTransaction,
                           "the winner committed application transaction '" + t.app_id +
                               "' (version " + std::to_string(t.version) + ") that the loser read");
    }
  }
  return std::nullopt;
}

bool AddedFilesMatter(const RuleContext& c) {
  // Which of the winner's adds the loser should have read, by isolation level
  // (docs/baseline.md#b3, check 5).
  if (c.isolation == IsolationLevel::kSnapshotIsolation) return false;
  const bool blind_adds_count =
      c.isolation == IsolationLevel::kSerializable || c.loser.ChangesMetadata();
  if (c.winner.is_blind_append && !blind_adds_count) return false;
  // Candidate filtering (B4.1).
  return !c.loser.IsBlindAppend();
}

std::optional<Abort> FirstConflictingAdd(const RuleContext& c, const AddList& adds,
                                         bool every_partition) {
  const bool partitioned = !c.read_metadata.partition_columns.empty();
  // A commit writes few distinct partitions: evaluate the read predicates once per distinct set
  // of partition values, found by hash (an ordered map's comparisons of whole maps were a
  // measurable part of a 100,000-add check).
  std::unordered_map<delta::StringMap, bool, StringMapHash> may_match;
  auto read_may_match = [&](const delta::StringMap& values) {
    auto it = may_match.find(values);
    if (it == may_match.end())
      it = may_match.emplace(values, c.read_matcher.MayMatch(values)).first;
    return it->second;
  };
  const bool by_partition = !every_partition && !c.loser.read_whole_table && partitioned &&
                            !c.loser.read_predicates.empty();
  for (size_t i = 0; i < adds.size(); ++i) {
    const delta::AddFile* add = adds[i];
    // Each add's partition values were last touched by the parse, long gone from the cache: the
    // values of an add a few ahead are asked for now, so that the misses overlap.
    constexpr size_t kAhead = 8;
    if (by_partition && i + kAhead < adds.size())
      __builtin_prefetch(adds[i + kAhead]->partition_values.data());
    const bool matches = !by_partition || read_may_match(add->partition_values);
    if (!matches) continue;
    Abort a = MakeAbortHere(
        c, ConflictKind::kConcurrentAppend,
        std::string("the winner added a file the loser's read should have seen") +
            (c.loser.read_whole_table          ? " (the loser read the whole table)"
             : !partitioned                    ? " (the table is unpartitioned)"
             : c.loser.read_predicates.empty() ? " (the loser recorded no read predicate)"
             : every_partition ? " (the loser is a MERGE whose scan reads every partition)"
                               : ""));
    a.path = add->path;
    a.partition = PartitionHint(add->partition_values);
    a.delta_subject = DeltaPartitionText(c, add->partition_values);
    const bool only_adds = c.winner.removed_files.empty();
    const bool blindness_unsaid =
        !c.winner.commit_info.has_value() || !c.winner.commit_info->is_blind_append.has_value();
    if (c.isolation == IsolationLevel::kWriteSerializable && only_adds && blindness_unsaid) {
      a.delta_retry_advice =
          "Upgrading all your concurrent writers to use the latest Delta Lake may avoid this "
          "error. Please upgrade and then retry this operation again.";
    }
    return a;
  }
  return std::nullopt;
}

std::optional<Abort> CheckAddedFiles(const RuleContext& c, const AddList& adds) {
  if (!AddedFilesMatter(c)) return std::nullopt;
  return FirstConflictingAdd(c, adds);
}

RemoveList RemovesOfReadFiles(const RuleContext& c, const RemoveList& removes) {
  RemoveList overlap;
  if (removes.empty() || c.loser.read_files.empty()) return overlap;
  if (RLC_MUTANT("baseline-forgets-read-files")) return overlap;
  PathSet read_files;
  for (const std::string& p : c.loser.read_files) read_files.Insert(p);
  for (const delta::RemoveFile* remove : removes) {
    if (read_files.Contains(remove->path, RemovedPathKey(c.winner, remove)))
      overlap.push_back(remove);
  }
  return overlap;
}

Abort RemovedReadFileAbort(const RuleContext& c, const delta::RemoveFile& remove) {
  Abort a = MakeAbortHere(c, ConflictKind::kConcurrentDeleteRead,
                          "the winner removed a file the loser read");
  a.path = remove.path;
  if (remove.partition_values.has_value()) a.partition = PartitionHint(*remove.partition_values);
  a.delta_subject = remove.path + " in " +
                    DeltaPartitionText(c, remove.partition_values.value_or(delta::StringMap{}));
  return a;
}

std::optional<Abort> CheckWholeTableRead(const RuleContext& c, const RemoveList& removes) {
  if (removes.empty() || !c.loser.read_whole_table) return std::nullopt;
  Abort a = MakeAbortHere(c, ConflictKind::kConcurrentDeleteRead,
                          "the winner removed files and the loser read the whole table");
  a.delta_subject = removes.front()->path;
  return a;
}

std::optional<Abort> CheckRemovedVsRead(const RuleContext& c, const RemoveList& removes) {
  const RemoveList overlap = RemovesOfReadFiles(c, removes);
  if (!overlap.empty()) return RemovedReadFileAbort(c, *overlap.front());
  return CheckWholeTableRead(c, removes);
}

std::optional<Abort> CheckRemovedVsRemoved(const RuleContext& c, const RemoveList& removes) {
  if (removes.empty()) return std::nullopt;
  PathSet mine;
  for (const delta::Action& a : c.loser.actions) {
    if (const auto* r = std::get_if<delta::RemoveFile>(&a)) mine.Insert(r->path);
  }
  for (const delta::RemoveFile* remove : removes) {
    if (!mine.Contains(remove->path, RemovedPathKey(c.winner, remove))) continue;
    Abort a = MakeAbortHere(c, ConflictKind::kConcurrentDeleteDelete,
                            "the winner and the loser both removed the same file");
    a.path = remove->path;
    if (remove->partition_values.has_value())
      a.partition = PartitionHint(*remove->partition_values);
    a.delta_subject = remove->path;
    return a;
  }
  return std::nullopt;
}

}  // namespace rlc::conflict
