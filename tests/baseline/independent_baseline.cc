#include "tests/baseline/independent_baseline.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace rlc::test_baseline {
namespace {

// ---- The tiny predicate grammar ----------------------------------------------------------------

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// The value of column `part` in a file's partition values (nullopt: SQL NULL or absent).
std::optional<std::string> PartValue(const delta::StringMap& partition_values) {
  for (const auto& [column, value] : partition_values) {
    if (column == "part") return value;
  }
  return std::nullopt;
}

// One conjunct: true when a row of a file with these partition values may satisfy it.
bool ConjunctMayMatch(std::string_view c, const delta::StringMap& partition_values) {
  const std::optional<std::string> part = PartValue(partition_values);
  if (c == "part IS NULL") return !part.has_value();
  if (c.rfind("part = '", 0) == 0 && c.size() > 9 && c.back() == '\'') {
    return part.has_value() && *part == c.substr(8, c.size() - 9);  // NULL = 'x' is not true
  }
  if (c.rfind("part IN (", 0) == 0 && c.back() == ')') {
    if (!part.has_value()) return false;  // NULL IN (...) is not true
    std::string_view list = c.substr(9, c.size() - 10);
    while (!list.empty()) {
      const size_t comma = list.find(',');
      std::string_view item = Trim(list.substr(0, comma));
      if (item.size() >= 2 && item.front() == '\'' && item.back() == '\'' &&
          *part == item.substr(1, item.size() - 2)) {
        return true;
      }
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
    return false;
  }
  // `id > k` is on a data column: the partition values alone cannot rule a row out. Any other
  // text is outside the grammar: on doubt, it may match.
  return true;
}

// ---- Small helpers over the actions ------------------------------------------------------------

bool IsFileAction(const delta::Action& a) {
  return std::holds_alternative<delta::AddFile>(a) ||
         std::holds_alternative<delta::RemoveFile>(a) ||
         std::holds_alternative<delta::AddCdcFile>(a);
}

bool FileActionChangesData(const delta::Action& a) {
  if (const auto* add = std::get_if<delta::AddFile>(&a)) return add->data_change;
  if (const auto* remove = std::get_if<delta::RemoveFile>(&a)) return remove->data_change;
  if (const auto* cdc = std::get_if<delta::AddCdcFile>(&a)) return cdc->data_change;
  return false;
}

template <typename T>
bool Contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

template <typename A>
bool HasAction(const std::vector<delta::Action>& actions) {
  return std::any_of(actions.begin(), actions.end(),
                     [](const delta::Action& a) { return std::holds_alternative<A>(a); });
}

// Every feature a protocol names, reader or writer (Delta's readerAndWriterFeatureNames).
std::set<std::string> AllFeatures(const delta::Protocol& p) {
  std::set<std::string> out;
  for (const auto* list : {&p.reader_features, &p.writer_features}) {
    if (list->has_value()) out.insert((*list)->begin(), (*list)->end());
  }
  return out;
}

constexpr std::string_view kRowTrackingDomain = "delta.rowTracking";

// What a writer must honour to commit to a table with this protocol. Table features (writer
// version 7) list it; older protocols imply it by their writer version.
std::set<std::string> WriterMustHonour(const delta::Protocol& p) {
  std::set<std::string> out;
  if (p.min_writer_version == 7 || p.min_writer_version > 7) {
    if (p.writer_features.has_value())
      out.insert(p.writer_features->begin(), p.writer_features->end());
    return out;
  }
  if (p.min_writer_version > 1) out.insert({"appendOnly", "invariants"});
  if (p.min_writer_version > 2) out.insert("checkConstraints");
  if (p.min_writer_version > 3) out.insert({"changeDataFeed", "generatedColumns"});
  if (p.min_writer_version > 4) out.insert("columnMapping");
  if (p.min_writer_version > 5) out.insert("identityColumns");
  return out;
}

// The writer can commit under the winner's protocol: it knows each feature from the protocol it
// read or declares it, or the feature asks nothing of a concurrent data commit.
bool WriterCanCommitUnder(const delta::Protocol& winner, const delta::Protocol& read,
                          const BaselineLoser& loser) {
  const std::set<std::string> known = WriterMustHonour(read);
  for (const std::string& f : WriterMustHonour(winner)) {
    const bool harmless = f == "deletionVectors" || f == "v2Checkpoint" ||
                          f == "vacuumProtocolCheck" || f == "checkpointProtection" ||
                          f == "timestampNtz" || f == "typeWidening" ||
                          f == "typeWidening-preview" || f == "domainMetadata";
    const bool declared = std::find(loser.writer_features.begin(), loser.writer_features.end(),
                                    f) != loser.writer_features.end();
    if (!harmless && !declared && known.count(f) == 0) return false;
  }
  return true;
}

enum class Level { kSerializable, kWriteSerializable, kSnapshotIsolation };

// B1 (docs/baseline.md#b1) and docs/decisions.md#isolation: the table property (absent:
// Serializable), then the SnapshotIsolation downgrade of a commit whose prepared actions are all
// file actions (or row-tracking domain metadata) none of which changes data. commitInfo is not a
// prepared action (Delta adds it after choosing the level). B1's third condition: under
// WriteSerializable the operation (commitInfo's, data-changing when unnamed) must not change data.
Level CommitLevel(const delta::Metadata& read_metadata, const BaselineLoser& loser) {
  Level table = Level::kSerializable;
  for (const auto& [key, value] : read_metadata.configuration) {
    if (key == "delta.isolationLevel" && value == "WriteSerializable")
      table = Level::kWriteSerializable;
  }
  static const std::set<std::string> kDataChangingOperations = {"CLONE",
                                                                "CONVERT",
                                                                "CREATE OR REPLACE TABLE",
                                                                "CREATE OR REPLACE TABLE AS SELECT",
                                                                "CREATE TABLE AS SELECT",
                                                                "DELETE",
                                                                "MERGE",
                                                                "REPLACE TABLE",
                                                                "REPLACE TABLE AS SELECT",
                                                                "RESTORE",
                                                                "STREAMING UPDATE",
                                                                "TRUNCATE",
                                                                "UPDATE",
                                                                "WRITE"};
  std::string operation;
  bool named = false;
  for (const delta::Action& a : loser.actions) {
    const auto* info = std::get_if<delta::CommitInfo>(&a);
    if (info != nullptr && info->operation.has_value() && !named) {
      operation = *info->operation;
      named = true;
    }
  }
  if (table == Level::kWriteSerializable && (!named || kDataChangingOperations.count(operation)))
    return table;
  for (const delta::Action& a : loser.actions) {
    if (std::holds_alternative<delta::CommitInfo>(a)) continue;
    const auto* domain = std::get_if<delta::DomainMetadata>(&a);
    if (domain != nullptr && domain->domain == kRowTrackingDomain) continue;
    if (!IsFileAction(a)) return table;          // an incompatible action: no downgrade
    if (FileActionChangesData(a)) return table;  // data changed: no downgrade
  }
  return Level::kSnapshotIsolation;
}

// B2: every file action is an add, and the loser read nothing (no predicate, no file; Delta's
// readWholeTable() records a read predicate, so a whole-table read is a read).
bool LoserIsBlindAppend(const BaselineLoser& loser) {
  for (const delta::Action& a : loser.actions) {
    if (IsFileAction(a) && !std::holds_alternative<delta::AddFile>(a)) return false;
  }
  return loser.read_predicates.empty() && loser.read_files.empty() && !loser.read_whole_table;
}

// A8 (docs/formats.md#a8): what the checks read of one winner.
struct Winner {
  int64_t version = 0;
  bool is_blind_append = false;  // commitInfo.isBlindAppend; absent counts as not blind
  std::vector<const delta::AddFile*> added_files;
  std::vector<const delta::RemoveFile*> removed_files;
  const delta::Protocol* protocol = nullptr;
  bool has_metadata = false;
  std::vector<std::string> app_ids;
  std::vector<std::string> domains;
};

Winner ReadWinner(const BaselineWinner& w) {
  Winner out;
  out.version = w.version;
  for (const delta::Action& a : w.actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a)) out.added_files.push_back(add);
    if (const auto* remove = std::get_if<delta::RemoveFile>(&a))
      out.removed_files.push_back(remove);
    if (const auto* protocol = std::get_if<delta::Protocol>(&a)) out.protocol = protocol;
    if (std::holds_alternative<delta::Metadata>(a)) out.has_metadata = true;
    if (const auto* txn = std::get_if<delta::Txn>(&a)) out.app_ids.push_back(txn->app_id);
    if (const auto* domain = std::get_if<delta::DomainMetadata>(&a))
      out.domains.push_back(domain->domain);
    if (const auto* info = std::get_if<delta::CommitInfo>(&a)) {
      out.is_blind_append = info->is_blind_append.value_or(false);
    }
  }
  return out;
}

BaselineVerdict Abort(std::string exception, const Winner& w, std::string check,
                      std::optional<std::string> path = std::nullopt) {
  return BaselineVerdict{false, std::move(exception), w.version, std::move(path), std::move(check)};
}

// B3 check 5: added files the loser should have read; the abort, or nothing.
std::optional<BaselineVerdict> CheckAddedFiles(const Winner& w, const BaselineLoser& loser,
                                               const delta::Metadata& read_metadata, Level level) {
  // B3 check 5: added files the loser should have read. Which adds count, by level:
  // SnapshotIsolation none; WriteSerializable without a loser metadata change only a non-blind
  // winner's adds; Serializable (or WriteSerializable with a metadata change) every add.
  bool adds_count = true;
  if (level == Level::kSnapshotIsolation) adds_count = false;
  if (level == Level::kWriteSerializable && !HasAction<delta::Metadata>(loser.actions) &&
      w.is_blind_append) {
    adds_count = false;
  }
  // B4 step 1: a blind-append loser matches nothing.
  if (adds_count && !LoserIsBlindAppend(loser)) {
    const bool partitioned = !read_metadata.partition_columns.empty();
    for (const delta::AddFile* add : w.added_files) {
      // B4 step 2: a whole-table read, or an unpartitioned table: the first added file matches.
      // The project's choice: no read predicate on a non-blind loser reads every partition.
      bool matches = loser.read_whole_table || !partitioned || loser.read_predicates.empty();
      // B4 step 3: otherwise the loser's predicates on the file's partition values, OR'ed.
      for (const std::string& p : loser.read_predicates) {
        matches = matches || TinyPredicateMayMatch(p, add->partition_values);
      }
      if (matches) return Abort("ConcurrentAppendException", w, "B3.5", add->path);
    }
  }
  return std::nullopt;
}

// B3 checks 1-7 against one winner, in B0's phase order; the first that fires aborts.
std::optional<BaselineVerdict> CheckWinner(const Winner& w, const BaselineLoser& loser,
                                           const delta::Metadata& read_metadata,
                                           const delta::Protocol& read_protocol, Level level) {
  // B3 check 1: the winner changed the protocol, and the loser changes it too, or the winner
  // dropped a feature of the protocol the loser read.
  if (w.protocol != nullptr) {
    // Before anything else, Delta's client makes sure it can write the winner's protocol.
    if (!WriterCanCommitUnder(*w.protocol, read_protocol, loser)) {
      return Abort("DeltaUnsupportedTableFeatureException", w, "B3.1");
    }
    if (HasAction<delta::Protocol>(loser.actions))
      return Abort("ProtocolChangedException", w, "B3.1");
    const std::set<std::string> now = AllFeatures(*w.protocol);
    for (const std::string& f : AllFeatures(read_protocol)) {
      if (now.count(f) == 0) return Abort("ProtocolChangedException", w, "B3.1");
    }
  }
  // B3 check 2a (strict, the project's choice): any winner metadata update aborts.
  if (w.has_metadata) return Abort("MetadataChangedException", w, "B3.2");
  // B3 check 3: the same domain on both sides, unless it is the row-tracking domain.
  for (const delta::Action& a : loser.actions) {
    const auto* mine = std::get_if<delta::DomainMetadata>(&a);
    if (mine != nullptr && mine->domain != kRowTrackingDomain &&
        Contains(w.domains, mine->domain)) {
      return Abort("ConcurrentTransactionException", w, "B3.3");
    }
  }
  // B3 check 4: the winner committed an app transaction whose id the loser read.
  for (const std::string& id : w.app_ids) {
    if (Contains(loser.read_app_ids, id)) return Abort("ConcurrentTransactionException", w, "B3.4");
  }
  if (auto abort = CheckAddedFiles(w, loser, read_metadata, level)) return abort;
  // B3 check 6a: the winner removed a file the loser read.
  for (const delta::RemoveFile* remove : w.removed_files) {
    if (Contains(loser.read_files, remove->path)) {
      return Abort("ConcurrentDeleteReadException", w, "B3.6a", remove->path);
    }
  }
  // B3 check 6b: the winner removed any file and the loser read the whole table (no path).
  if (!w.removed_files.empty() && loser.read_whole_table) {
    return Abort("ConcurrentDeleteReadException", w, "B3.6b");
  }
  // B3 check 7: a path removed on both sides (by path only). Delta reports one of the overlap;
  // the baseline reports the first in the winner's file order.
  for (const delta::RemoveFile* remove : w.removed_files) {
    for (const delta::Action& a : loser.actions) {
      const auto* mine = std::get_if<delta::RemoveFile>(&a);
      if (mine != nullptr && mine->path == remove->path) {
        return Abort("ConcurrentDeleteDeleteException", w, "B3.7", remove->path);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool TinyPredicateMayMatch(const std::string& predicate, const delta::StringMap& partition_values) {
  std::string_view rest = predicate;
  while (true) {
    const size_t and_at = rest.find(" AND ");
    if (!ConjunctMayMatch(Trim(rest.substr(0, and_at)), partition_values)) return false;
    if (and_at == std::string_view::npos) return true;
    rest.remove_prefix(and_at + 5);
  }
}

BaselineVerdict BaselineCheck(const BaselineLoser& loser, const delta::Metadata& read_metadata,
                              const delta::Protocol& read_protocol,
                              const std::vector<BaselineWinner>& winners) {
  // B1: the level is fixed once per commit and passed to every winner's check.
  const Level level = CommitLevel(read_metadata, loser);
  // B0: each winner in ascending version order. With every flag off no check rebases the loser,
  // so the loser fed to the next winner is the same.
  for (const BaselineWinner& bw : winners) {
    if (auto abort = CheckWinner(ReadWinner(bw), loser, read_metadata, read_protocol, level))
      return *abort;
  }
  return BaselineVerdict{};
}

}  // namespace rlc::test_baseline
