#include "impl/conflict/data_skipping.h"

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>

#include "impl/base/assert.h"
#include "impl/base/limits.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/conflict/no_data_change.h"
#include "impl/delta/stats.h"
#include "impl/kernel/file_skipping.h"
#include "impl/kernel/removed_rows.h"

namespace rlc::conflict {
namespace {

using Domain = ConcreteDomain;

// The positions of a data file's rows that may match the loser's reads, up to the first one
// `decisive` says settles the question.
struct Scan {
  dv::RowBitmap matching;
  uint64_t rows = 0;     // rows visited
  bool stopped = false;  // ended at a decisive row
};

// nullopt: the file's rows cannot be read (no reader, a read error, positions out of order).
std::optional<Scan> ScanMatchingRows(const SkippingInputs& in, const std::string& path,
                                     const std::function<bool(uint64_t)>& decisive) {
  if (in.files == nullptr) return std::nullopt;
  Scan scan;
  bool in_order = true;
  const Status status =
      in.files->ScanRows(path, [&](uint64_t position, const predicate::RowLookup& row) {
        if (position != scan.rows || position > kRowIndexMax) {
          in_order = false;
          return false;
        }
        ++scan.rows;
        if (!in.matcher.RowMayMatch(row)) return true;
        scan.matching.Add(position);
        scan.stopped = decisive(position);
        return !scan.stopped;
      });
  if (!status.ok() || !in_order) return std::nullopt;  // doubt: rows unreadable
  return scan;
}

// A complete scan must have visited numRecords rows, when the statistics say how many.
bool RowCountAgrees(const Scan& scan, const std::optional<delta::StatsJson>& stats) {
  if (scan.stopped || !stats.has_value()) return true;
  // Commit rule 5 (delta/commit_rules.h) refuses every add whose numRecords is no count, in the
  // winners and in the replayed read snapshot alike, so the parse cannot fail here; were it to,
  // the rows would count as disagreeing (the conflict kept).
  Result<std::optional<int64_t>> num_records = delta::ParseNumRecords(*stats);
  return num_records.ok() &&
         (!num_records->has_value() || static_cast<uint64_t>(**num_records) == scan.rows);
}

// The DV's positions (empty without a DV); nullopt when it cannot be loaded.
std::optional<dv::RowBitmap> LoadDv(const SkippingInputs& in,
                                    const std::optional<dv::DvDescriptor>& descriptor) {
  if (!descriptor.has_value()) return dv::RowBitmap();
  if (in.files == nullptr) return std::nullopt;
  Result<dv::RowBitmap> bitmap = in.files->ReadDeletionVector(*descriptor);
  if (!bitmap.ok()) return std::nullopt;  // doubt: a DV unreadable
  return std::move(bitmap).value();
}

// The loser-level guards of kernel/file_skipping.h, the file's statistics still unknown.
kernel::SkippingGuards LoserGuards(const SkippingInputs& in) {
  kernel::SkippingGuards g;
  g.whole_table_read = in.loser.read_whole_table;
  g.has_read_predicates = !in.loser.read_predicates.empty() && in.matcher.size() > 0;
  g.predicates_bound = in.matcher.bound();
  return g;
}

// The statistics tier over the files of one winner (true: keep a file). What it keeps from file to
// file is what makes a hundred thousand files cheap: the reader of their statistics, which learns
// the engine's shape (delta::StatsReader), the view it reads into, the answers per read and the
// loser's guards.
class StatisticsTier {
 public:
  explicit StatisticsTier(const SkippingInputs& in)
      : in_(in), reader_(in.matcher.stats_columns()), guards_(LoserGuards(in)) {}

  bool Keep(const std::optional<delta::StatsJson>& stats_json,
            const delta::StringMap& partition_values) {
    kernel::SkippingGuards g = guards_;
    per_read_.clear();
    if (stats_json.has_value()) {
      g.statistics_usable = reader_.Read(*stats_json, &stats_).ok();  // the reads' columns only
      if (kernel::StatisticsMayDecide(g))
        in_.matcher.MayMatchFilePerRead(stats_, partition_values, &per_read_);
    }
    return kernel::KeepAddedFile(Domain{}, g, per_read_);
  }

 private:
  const SkippingInputs& in_;
  delta::StatsReader reader_;
  const kernel::SkippingGuards guards_;
  delta::StatsView stats_;
  std::vector<bool> per_read_;
};

// The statistics tier as one pass's judge (StatisticsJudge). `blind_append_seen` is shared by the
// passes over one winner: once either meets a commitInfo saying isBlindAppend, neither judges
// another add, where the check will not look at a blind append's adds.
class StatisticsAddJudge final : public AddJudge {
 public:
  StatisticsAddJudge(const SkippingInputs& in, bool skip_blind_appends,
                     std::shared_ptr<std::atomic<bool>> blind_append_seen)
      : tier_(in),
        skip_blind_appends_(skip_blind_appends),
        blind_append_seen_(std::move(blind_append_seen)) {}

  void Saw(const delta::CommitInfo& info) override {
    if (skip_blind_appends_ && info.is_blind_append.value_or(false))
      blind_append_seen_->store(true, std::memory_order_relaxed);
  }

  AddJudgement Judge(const delta::AddFile& add) override {
    if (blind_append_seen_->load(std::memory_order_relaxed)) return AddJudgement::kNotJudged;
    return tier_.Keep(add.stats, add.partition_values) ? AddJudgement::kKeep : AddJudgement::kDrop;
  }

 private:
  StatisticsTier tier_;
  const bool skip_blind_appends_;
  const std::shared_ptr<std::atomic<bool>> blind_append_seen_;
};

// What the parse said of each add of one winner (winner_summary.h), found by the add's place.
class ParseJudgements {
 public:
  explicit ParseJudgements(const WinnerSummary& winner) : winner_(winner) {
    RLC_ASSERT(winner.add_judgements.empty() ||
               winner.add_judgements.size() == winner.added_files.size());
  }

  // REQUIRES: `add` is one of the winner's added files, when the parse judged them.
  AddJudgement Of(const delta::AddFile* add) const {
    if (winner_.add_judgements.empty()) return AddJudgement::kNotJudged;
    const delta::AddFile* first = winner_.added_files.data();
    const std::less<const delta::AddFile*> before;
    RLC_ASSERT(!before(add, first) && before(add, first + winner_.added_files.size()));
    return winner_.add_judgements[static_cast<size_t>(add - first)];
  }

 private:
  const WinnerSummary& winner_;
};

// The candidates the statistics tier keeps, in order: the parse's answer where it judged an add,
// the tier's own where it did not.
AddList StatisticsSurvivors(const SkippingInputs& in, const WinnerSummary& winner,
                            const AddList& candidates) {
  const ParseJudgements parse(winner);
  StatisticsTier tier(in);
  AddList survivors;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const delta::AddFile* add = candidates[i];
    AddJudgement judged = parse.Of(add);
    if (judged == AddJudgement::kNotJudged) {
      // Judged here, the adds are long out of the cache: a file's statistics field is asked for
      // eight files ahead, its text (which that field points to) four ahead, so that the reader
      // does not wait on memory for each (a profile put ~45 ns an add on the first load).
      if (i + 8 < candidates.size()) __builtin_prefetch(&candidates[i + 8]->stats);
      if (i + 4 < candidates.size() && candidates[i + 4]->stats.has_value()) {
        const char* text = candidates[i + 4]->stats->text().data();
        for (int line = 0; line < 6; ++line) __builtin_prefetch(text + 64 * line);
      }
      judged =
          tier.Keep(add->stats, add->partition_values) ? AddJudgement::kKeep : AddJudgement::kDrop;
    }
    if (judged == AddJudgement::kKeep) survivors.push_back(add);  // doubt: statistics keep the add
  }
  return survivors;
}

// The same for a file judged alone.
bool StatisticsKeep(const SkippingInputs& in, const std::optional<delta::StatsJson>& stats_json,
                    const delta::StringMap& partition_values) {
  return StatisticsTier(in).Keep(stats_json, partition_values);
}

// Why the DV cannot be read ("" when it can: then `out` holds its positions).
std::string ReadDvOrWhy(const SkippingInputs& in, const std::optional<dv::DvDescriptor>& descriptor,
                        dv::RowBitmap* out) {
  if (!descriptor.has_value()) return "";
  if (in.files == nullptr) return "DV " + descriptor->UniqueId() + ": no table files to read it";
  Result<dv::RowBitmap> bitmap = in.files->ReadDeletionVector(*descriptor);
  if (!bitmap.ok()) return "DV " + descriptor->UniqueId() + ": " + bitmap.status().message();
  *out = std::move(bitmap).value();
  return "";
}

// The exact tier's answer for one statistics survivor: nullopt to skip it, or why it is kept.
std::optional<std::string> ExactTierKeeps(const SkippingInputs& in, const delta::AddFile& add) {
  dv::RowBitmap deleted;
  if (std::string why = ReadDvOrWhy(in, add.deletion_vector, &deleted); !why.empty())
    return "its DV is unreadable: " + why;  // doubt: the add's DV unreadable
  const std::optional<Scan> scan = ScanMatchingRows(
      in, add.path, [&](uint64_t position) { return !deleted.Contains(position); });
  if (!scan.has_value() ||
      !RowCountAgrees(*scan, add.stats))  // doubt: rows unreadable or miscounted
    return scan.has_value() ? "its rows disagree with its numRecords" : "its rows cannot be read";
  if (kernel::FileMayHoldMatchingRow(Domain{}, deleted, scan->matching))
    return "a live row of it matches the loser's read";
  return std::nullopt;
}

// Each file in `adds` declined by `case_id` for the same reason.
void DeclineAll(const SkippingInputs& in, int64_t winner_version, const AddList& adds,
                const std::string& case_id, const std::string& reason) {
  if (in.declines == nullptr) return;  // nobody asked: no path decoded per file
  for (const delta::AddFile* add : adds)
    Declined(in.declines, case_id, winner_version, DecodedPath(add->path), reason);
}

AddList ExactTier(const SkippingInputs& in, int64_t winner_version, const AddList& survivors) {
  const kernel::SkippingGuards g = LoserGuards(in);
  if (g.whole_table_read || !g.has_read_predicates ||
      !g.predicates_bound) {  // doubt: no predicate to judge rows by
    DeclineAll(in, winner_version, survivors, "1b",
               g.whole_table_read ? "the loser read the whole table"
                                  : "no read predicate to judge rows by");
    return survivors;
  }
  const int64_t max_bytes = in.loser.flags.value_exact_max_bytes;
  if (max_bytes > 0) {
    Int128 total = 0;
    for (const delta::AddFile* add : survivors) total += add->size_bytes;
    if (total > max_bytes) {  // doubt: over the exact tier's budget
      DeclineAll(in, winner_version, survivors, "1b",
                 "the files to read exceed the exact tier's budget of " +
                     std::to_string(max_bytes) + " bytes");
      return survivors;
    }
  }
  AddList kept;
  for (const delta::AddFile* add : survivors) {
    if (std::optional<std::string> why = ExactTierKeeps(in, *add)) {  // doubt: rows keep the add
      Declined(in.declines, "1b", winner_version, DecodedPath(add->path), *why);
      kept.push_back(add);
    }
  }
  return kept;
}

// Whether a row the remove took out of the table may match the loser's read: nullopt when none
// can, or why one may.
std::optional<std::string> RemovedRowsMayMatch(
    const SkippingInputs& in,
    const std::unordered_map<std::string, const delta::AddFile*>& post_images,
    const delta::RemoveFile& remove) {
  const std::optional<TableView::Removed> removed = in.view.RemovedFile(remove);
  if (!removed.has_value())  // doubt: a remove the view cannot vouch for
    return "it names no active version, or its statistics contradict that version's";
  const std::optional<delta::StatsJson>& pre_stats = removed->stats;
  // The pre-image's statistics bound every physical row, removed ones included.
  if (!StatisticsKeep(in, pre_stats, removed->partition_values))
    return std::nullopt;  // doubt: statistics rule the file out
  dv::RowBitmap pre;
  if (std::string why = ReadDvOrWhy(in, remove.deletion_vector, &pre); !why.empty())
    return "the removed version's DV is unreadable: " + why;  // doubt: the removed DV unreadable
  std::optional<dv::RowBitmap> post;
  const std::string path = DecodedPath(remove.path);
  if (auto it = post_images.find(path); it != post_images.end()) {
    post.emplace();
    if (std::string why = ReadDvOrWhy(in, it->second->deletion_vector, &*post); !why.empty())
      return "the winner's new DV is unreadable: " + why;  // doubt: the post-image DV unreadable
  }
  const auto newly_deleted = [&](uint64_t position) {
    return !pre.Contains(position) && (!post.has_value() || post->Contains(position));
  };
  const std::optional<Scan> scan = ScanMatchingRows(in, remove.path, newly_deleted);
  if (!scan.has_value() || !RowCountAgrees(*scan, pre_stats))  // doubt: removed rows unreadable
    return scan.has_value() ? "its rows disagree with its numRecords" : "its rows cannot be read";
  if (kernel::RemovedRowsMayMatch(Domain{}, pre, post, scan->matching))
    return "a row the winner deleted matches the loser's read";
  return std::nullopt;
}

Event FilesSkipped(int64_t winner_version, size_t candidates, size_t skipped, const char* arm) {
  Event e;
  e.name = kFilesSkippedEvent;
  e.winner_version = winner_version;
  if (arm != nullptr) e.data["arm"] = arm;
  e.data["candidateFiles"] = std::to_string(candidates);
  e.data["skippedFiles"] = std::to_string(skipped);
  return e;
}

}  // namespace

AddJudgeMaker StatisticsJudge(const SkippingInputs& in, bool skip_blind_appends) {
  kernel::SkippingGuards g = LoserGuards(in);
  g.statistics_usable = true;
  if (!in.loser.flags.On(CaseId::kDataSkipping) || in.loser.IsMerge() ||
      !kernel::StatisticsMayDecide(g))
    return {};  // the tier reads no statistics: nothing to judge while they are at hand
  auto blind_append_seen = std::make_shared<std::atomic<bool>>(false);
  return [&in, skip_blind_appends, blind_append_seen]() -> std::unique_ptr<AddJudge> {
    return std::make_unique<StatisticsAddJudge>(in, skip_blind_appends, blind_append_seen);
  };
}

AddList SkipAddedFiles(const SkippingInputs& in, const WinnerSummary& winner,
                       const AddList& candidates, std::vector<Event>& events) {
  const int64_t winner_version = winner.version;
  if (in.loser.IsMerge() &&
      !RLC_MUTANT("case1-skips-for-merge")) {  // doubt: a MERGE reads more than its predicates
    DeclineAll(in, winner_version, candidates, "1a",
               "the loser is a MERGE: it counts its matches over every row of the files its scan "
               "keeps, not only the rows its predicate selects");
    return candidates;
  }
  AddList survivors = StatisticsSurvivors(in, winner, candidates);
  if (in.loser.flags.On(CaseId::kValueExact) && !survivors.empty()) {
    survivors = ExactTier(in, winner_version, survivors);
  } else {
    DeclineAll(in, winner_version, survivors, "1a",
               "its statistics (or their absence) leave room for a row the loser's read matches");
  }
  if (survivors.size() < candidates.size()) {
    events.push_back(FilesSkipped(winner_version, candidates.size(),
                                  candidates.size() - survivors.size(), nullptr));
  }
  return survivors;
}

std::vector<bool> ReAddsWithoutNewRows(const SkippingInputs& in, const WinnerSummary& winner) {
  std::vector<bool> out(winner.added_files.size(), false);
  if (winner.removed_files.empty()) return out;
  std::unordered_map<std::string, const delta::RemoveFile*> removes;
  for (const delta::RemoveFile& r : winner.removed_files) removes.emplace(DecodedPath(r.path), &r);
  for (size_t i = 0; i < winner.added_files.size(); ++i) {
    const delta::AddFile& add = winner.added_files[i];
    const std::string path = DecodedPath(add.path);
    auto it = removes.find(path);
    if (it == removes.end()) continue;
    // "No new rows" must hold against the rows the loser saw, not only against the version the
    // winner removed: that version may come from an earlier winner the loser never saw (a blind
    // append under WriteSerializable is never checked), and its rows are new to the loser. So the
    // path must be in the read snapshot, and the re-add must bring back no row deleted there.
    const auto seen = in.read_files.find(path);
    if (seen == in.read_files.end()) continue;  // doubt: a path the loser never saw
    // Readers take the rows' partition values from the add: under other values than the loser
    // saw, every live row of the file is new where it now is.
    if (seen->second.partition_values != add.partition_values &&
        !RLC_MUTANT("1b-readd-ignores-partition"))
      continue;  // doubt: the re-add moves the file's rows
    const std::optional<dv::RowBitmap> at_read = LoadDv(in, seen->second.deletion_vector);
    const std::optional<dv::RowBitmap> pre = LoadDv(in, it->second->deletion_vector);
    const std::optional<dv::RowBitmap> post = LoadDv(in, add.deletion_vector);
    out[i] = at_read.has_value() && pre.has_value() && post.has_value() &&
             kernel::ReAddShowsNoUnseenRow(Domain{}, *at_read, *pre, *post);
  }
  return out;
}

bool WinnerDeletedRowsMayMatch(const SkippingInputs& in, const std::string& path,
                               const dv::RowBitmap& base, const dv::RowBitmap& winner_dv,
                               const dv::RowBitmap& loser_dv,
                               const std::optional<delta::StatsJson>& pre_stats,
                               const delta::StringMap& partition_values) {
  const dv::RowBitmap newly_deleted = winner_dv.Difference(base).Difference(loser_dv);
  if (newly_deleted.IsEmpty()) return false;  // nothing to judge
  const kernel::SkippingGuards g = LoserGuards(in);
  if (g.whole_table_read || !g.has_read_predicates || !g.predicates_bound)
    return true;  // doubt: no predicate to judge rows by
  if (!StatisticsKeep(in, pre_stats, partition_values))
    return false;  // doubt: statistics rule the file out
  const std::optional<Scan> scan = ScanMatchingRows(
      in, path, [&](uint64_t position) { return newly_deleted.Contains(position); });
  if (!scan.has_value() || !RowCountAgrees(*scan, pre_stats))
    return true;  // doubt: deleted rows unreadable
  return scan->matching.Intersects(newly_deleted);
}

bool DeleteReadRefinementApplies(const SkippingInputs& in) {
  const Flags& f = in.loser.flags;
  const kernel::SkippingGuards g = LoserGuards(in);
  return f.On(CaseId::kDataSkipping) && f.On(CaseId::kValueExact) && !g.whole_table_read &&
         g.has_read_predicates && g.predicates_bound;
}

const delta::RemoveFile* FirstRemovedFileThatMayMatch(const SkippingInputs& in,
                                                      const WinnerSummary& winner,
                                                      const RemoveList& overlap) {
  RLC_ASSERT(DeleteReadRefinementApplies(in));
  // The winner's add of a removed path is its post-image (the first one, by decoded path).
  std::unordered_map<std::string, const delta::AddFile*> post_images;
  for (const delta::AddFile& add : winner.added_files)
    post_images.emplace(DecodedPath(add.path), &add);
  for (const delta::RemoveFile* remove : overlap) {
    std::optional<std::string> why = RemovedRowsMayMatch(in, post_images, *remove);
    if (why.has_value()) {  // doubt: a removed row may match
      Declined(in.declines, "1b", winner.version, DecodedPath(remove->path), *why);
      return remove;
    }
  }
  return nullptr;
}

}  // namespace rlc::conflict
