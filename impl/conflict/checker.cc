#include "impl/conflict/checker.h"

#include <algorithm>
#include <memory>
#include <set>

#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/data_skipping.h"
#include "impl/conflict/isolation_level.h"
#include "impl/conflict/no_data_change.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/rewrite_inputs.h"
#include "impl/conflict/winner_summary.h"
#include "impl/delta/commit_rules.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"

namespace rlc::conflict {
namespace {

// What lives across the winners of one check.
struct CheckInputs {
  const ReadTable& read_table;
  const ReadPredicateMatcher& matcher;
  const TableFiles* files;
  RewriteInputs& rewrite;
  const std::set<std::string>& removed_since_read;  // logical keys earlier winners removed
  const TableView& view;                            // the table just before the winner
  DeclineLog* declines;                             // why the cases left files to Delta's rules
};

// The rewriting cases, per winner, before the file checks: they rebase the loser and add the
// paths they resolved to the skip-list. None runs with every flag off.
void RunRewritingCases(const RuleContext& c, CheckInputs& in, PendingTransaction& loser,
                       std::set<std::string>& resolved, std::vector<Event>& events) {
  for (const CaseEntry& rewriting : kCases) {
    if (rewriting.rewrite == nullptr || !loser.flags.On(rewriting.case_id)) continue;
    CaseResolution r = rewriting.rewrite(c.winner, in.rewrite, loser);
    resolved.insert(r.resolved.begin(), r.resolved.end());
    events.insert(events.end(), std::make_move_iterator(r.events.begin()),
                  std::make_move_iterator(r.events.end()));
  }
}

bool Resolved(const std::set<std::string>& resolved, const std::string& path) {
  return !resolved.empty() && resolved.count(DecodedPath(path)) != 0;
}

// The event of 1b's added-files arm: `count` re-adds left out of the added-files check.
Event ReAddsLeftOut(int64_t winner_version, size_t count) {
  Event e;
  e.name = kFilesSkippedEvent;
  e.winner_version = winner_version;
  e.data = {{"arm", "reAdd"},
            {"candidateFiles", std::to_string(count)},
            {"skippedFiles", std::to_string(count)}};
  return e;
}

// Checks 5-7 on the winner's files minus what the cases resolved or left out (Case 3's decision
// is taken by the caller: it also moves the loser's reads).
std::optional<Abort> CheckFiles(const RuleContext& c, const CheckInputs& in,
                                const std::set<std::string>& resolved,
                                const NoDataChangeExclusion& no_data_change,
                                std::vector<Event>& events) {
  const Flags& flags = c.loser.flags;
  const WinnerSummary& winner = c.winner;
  const SkippingInputs skipping{c.loser, c.read_metadata, in.matcher, in.files, in.read_table.files,
                                in.view, in.declines};
  std::vector<bool> re_adds;  // 1b's added-files arm
  if (flags.On(CaseId::kDataSkipping) && flags.On(CaseId::kValueExact))
    re_adds = ReAddsWithoutNewRows(skipping, winner);

  if (AddedFilesMatter(c)) {
    AddList adds;
    size_t re_added = 0;
    for (size_t i = 0; i < winner.added_files.size(); ++i) {
      const delta::AddFile& add = winner.added_files[i];
      if (Resolved(resolved, add.path)) continue;  // doubt: reconciled by a rewriting case
      if (!no_data_change.add_left_out.empty() && no_data_change.add_left_out[i])
        continue;                            // doubt: left out by Case 3
      if (!re_adds.empty() && re_adds[i]) {  // doubt: a re-add 1b shows brings no row
        ++re_added;
        continue;
      }
      adds.push_back(&add);
    }
    // Like every reconcile, one that left a re-add out says so, naming the winner.
    if (re_added > 0) events.push_back(ReAddsLeftOut(winner.version, re_added));
    if (flags.On(CaseId::kDataSkipping) && !adds.empty())
      adds = SkipAddedFiles(skipping, winner, adds, events);
    if (auto abort = FirstConflictingAdd(c, adds)) return abort;
  }

  RemoveList removes_vs_read, removes_vs_removed;
  for (const delta::RemoveFile& remove : winner.removed_files) {
    if (Resolved(resolved, remove.path)) continue;  // doubt: reconciled by a rewriting case
    removes_vs_removed.push_back(&remove);
    if (no_data_change.removes_left_out &&
        (!remove.data_change || RLC_MUTANT("case3-excludes-every-remove")))
      continue;
    removes_vs_read.push_back(&remove);
  }
  const RemoveList overlap = RemovesOfReadFiles(c, removes_vs_read);
  if (!overlap.empty()) {
    if (!DeleteReadRefinementApplies(skipping))
      return RemovedReadFileAbort(c, *overlap.front());  // doubt: 1b cannot judge
    if (const delta::RemoveFile* match = FirstRemovedFileThatMayMatch(
            skipping, winner, overlap)) {  // doubt: a removed row may be read
      Abort abort = RemovedReadFileAbort(c, *match);
      abort.reason += " and some row it removed may match the loser's read";
      return abort;
    }
    Event e;
    e.name = kFilesSkippedEvent;
    e.winner_version = winner.version;
    e.data = {{"arm", "deleteRead"},
              {"candidateFiles", std::to_string(overlap.size())},
              {"skippedFiles", std::to_string(overlap.size())}};
    events.push_back(std::move(e));
  }
  if (auto abort = CheckWholeTableRead(c, removes_vs_read)) return abort;
  return CheckRemovedVsRemoved(c, removes_vs_removed);
}

// Not Delta's rule: a winner's add of a file the table holds, under other partition values than
// the table holds it with, moves the file's rows (readers take them from the add): they leave
// the partition they were in. If the loser removes the file, its remove would take the moved rows
// out of the table; if it read the file, or its read may match the partition the rows left, the
// rows it read are gone from where it read them. Delta's checks leave such adds alone and are
// fooled by such a writer with every flag off too. The check follows Delta while no case has
// carried the loser; once one carries it past a winner Delta's rules abort on (before or after
// the move), the loser would commit only through the cases, and it aborts as if the winner had
// removed the file (ConflictCheck::State::moved_file).
std::optional<Abort> CheckMovedFile(const RuleContext& c, const TableView& view) {
  const PendingTransaction& loser = c.loser;
  if (!loser.flags.AnyOn() || RLC_MUTANT("moved-file-removal-passes")) return std::nullopt;
  // Almost always none: look at the loser only then.
  std::vector<std::pair<const delta::AddFile*, const delta::AddFile*>> moved;  // (add, held)
  for (const delta::AddFile& add : c.winner.added_files) {
    const delta::AddFile* held = view.Active(DecodedPath(add.path));
    if (held != nullptr && held->partition_values != add.partition_values)
      moved.emplace_back(&add, held);
  }
  if (moved.empty()) return std::nullopt;
  std::set<std::string> removed, read;
  for (const delta::Action& a : loser.actions) {
    if (const auto* r = std::get_if<delta::RemoveFile>(&a)) removed.insert(DecodedPath(r->path));
  }
  for (const std::string& p : loser.read_files) read.insert(DecodedPath(p));
  for (const auto& [add, held] : moved) {
    const std::string path = DecodedPath(add->path);
    const bool removes = removed.count(path) > 0;
    const bool reads =
        loser.read_whole_table || read.count(path) > 0 ||
        (!loser.read_predicates.empty() && c.read_matcher.MayMatch(held->partition_values));
    if (!removes && !reads) continue;
    Abort a = removes ? MakeAbort(c, ConflictKind::kConcurrentDeleteDelete,
                                  "the winner re-added under other partition values a file the "
                                  "loser removes (its rows moved partition)")
                      : MakeAbort(c, ConflictKind::kConcurrentDeleteRead,
                                  "the winner re-added under other partition values a file the "
                                  "loser read (its rows left the partition they were read in)");
    a.path = add->path;
    a.partition = PartitionHint(add->partition_values);
    a.delta_subject = add->path;
    return a;
  }
  return std::nullopt;
}

std::optional<Abort> CheckOneWinner(const RuleContext& c, CheckInputs& in,
                                    PendingTransaction& loser, std::vector<Event>& events) {
  using Rule = std::optional<Abort> (*)(const RuleContext&);
  for (Rule rule : {CheckProtocol, CheckMetadata, CheckDomainMetadata, CheckAppIds}) {
    if (auto abort = rule(c)) return abort;
  }
  std::set<std::string> resolved;
  RunRewritingCases(c, in, loser, resolved, events);
  NoDataChangeExclusion no_data_change;  // Case 3
  if (loser.flags.On(CaseId::kExcludeNoDataChange)) {
    const NoDataChangeInputs inputs{loser,
                                    in.read_table.files,
                                    in.removed_since_read,
                                    in.view,
                                    in.files,
                                    in.read_table.metadata,
                                    in.declines};
    no_data_change = ExcludeNoDataChangeFiles(c.winner, inputs);
  }
  if (auto abort = CheckFiles(c, in, resolved, no_data_change, events)) return abort;
  FollowRelocatedReads(no_data_change, loser);
  return std::nullopt;
}

// Not Delta's rule. Delta gives a MERGE's scan its clauses' conditions as one filter, which
// prunes no partition when it names a data column: the MERGE counts its source's matches in every
// partition, and fails on a target row two source rows match wherever it sits. Delta's
// added-files check still prunes by the filter's partition values, so a winner's new rows in
// another partition pass it though they decide whether the MERGE fails. Delta is fooled so with
// every flag off too, and the check follows it while no case has reconciled anything; once a case
// carries the loser, the first such add aborts it (ConflictCheck::State::merge_scan).
// The same holds wherever the check judges adds it passed at first: a blind append passed and
// then followed, a blind append whose claim the log refutes.
bool MergeScansEveryPartition(const RuleContext& c) {
  return c.loser.flags.AnyOn() && c.loser.IsMerge() && !c.read_metadata.partition_columns.empty() &&
         !c.read_matcher.NamesPartitionColumnsOnly() &&
         !RLC_MUTANT("merge-scan-pruned-by-partition");
}

// New rows: a data-changing add of a path the table does not hold (a re-add holds rows it had).
std::optional<Abort> CheckMergeScan(const RuleContext& c, const TableView& view) {
  if (!MergeScansEveryPartition(c) || !AddedFilesMatter(c)) return std::nullopt;
  AddList adds;
  for (const delta::AddFile& add : c.winner.added_files) {
    if (add.data_change && view.Active(DecodedPath(add.path)) == nullptr) adds.push_back(&add);
  }
  std::optional<Abort> abort = FirstConflictingAdd(c, adds, /*every_partition=*/true);
  if (abort) abort->reason += " (its rows are new, in a partition its condition rules out)";
  return abort;
}

// Whether the log refutes a winner's commitInfo.isBlindAppend. The claim is its writer's word,
// which Delta's rules take under WriteSerializable; but a commit that removes a file or adds a
// path the table holds (a re-add replaces that file's rows, under the add's partition values)
// appends no new rows only, whatever it says (docs/trust.md#blind-appends).
bool BlindAppendRefuted(const WinnerSummary& winner, const TableView& view) {
  if (!winner.is_blind_append || RLC_MUTANT("blind-append-claim-with-re-add-passes")) return false;
  return !winner.removed_files.empty() ||
         std::any_of(winner.added_files.begin(), winner.added_files.end(),
                     [&](const delta::AddFile& add) {
                       return view.Active(DecodedPath(add.path)) != nullptr;
                     });
}

// Not Delta's rule: a loser that passed a winner's adds only because the winner claimed a blind
// append the log refutes. The check follows Delta while no case has reconciled anything (Delta's
// rules take the claim, and are fooled with every flag off too); once a case carries the loser,
// the adds are judged as a claim-less winner's would be (ConflictCheck::State::refuted_claim).
std::optional<Abort> CheckRefutedBlindAppend(const RuleContext& c, const TableView& view) {
  if (!c.loser.flags.AnyOn() || !BlindAppendRefuted(c.winner, view)) return std::nullopt;
  WinnerSummary claimless = c.winner;  // rare: a commit whose claim its own actions refute
  claimless.is_blind_append = false;
  const RuleContext as_claimless{c.loser,     c.read_metadata, c.read_protocol,
                                 c.isolation, claimless,       c.read_matcher};
  if (!AddedFilesMatter(as_claimless)) return std::nullopt;
  AddList adds;
  for (const delta::AddFile& add : claimless.added_files) adds.push_back(&add);
  std::optional<Abort> abort =
      FirstConflictingAdd(as_claimless, adds, MergeScansEveryPartition(as_claimless));
  if (abort) {
    abort->reason +=
        " (its isBlindAppend is refuted by its own commit: a remove, or a re-add of a held path)";
  }
  return abort;
}

bool ChangesData(const WinnerSummary& winner) {
  return std::any_of(winner.added_files.begin(), winner.added_files.end(),
                     [](const auto& a) { return a.data_change; }) ||
         std::any_of(winner.removed_files.begin(), winner.removed_files.end(),
                     [](const auto& r) { return r.data_change; });
}

// Whether the winner may have changed rows: some file action says dataChange=true, or its
// dataChange=false actions are no relocation (they do not conserve rows: a writer that passes
// data off as no change must not pass for one that read nothing).
bool MayChangeData(const WinnerSummary& winner, const CheckInputs& in,
                   const PendingTransaction& loser) {
  if (ChangesData(winner)) return true;
  if (winner.added_files.empty() && winner.removed_files.empty()) return false;
  const NoDataChangeInputs inputs{loser,    in.read_table.files,   in.removed_since_read, in.view,
                                  in.files, in.read_table.metadata};
  const NoDataChangeExclusion e = ExcludeNoDataChangeFiles(winner, inputs);
  const bool only_re_adds =
      winner.removed_files.empty() &&
      std::all_of(e.add_left_out.begin(), e.add_left_out.end(), [](bool b) { return b; });
  return !only_re_adds && !e.conserved;
}

// Whether a winner may depend on rows it read, so that a loser ordered after it cannot be ordered
// before a blind append it may have seen: one that may change data, and one that changes the
// table's protocol, metadata or domains or records an application's transaction. Those change no
// row, but may have read rows (a CHECK constraint is validated against every row, an idempotent
// writer reads before it writes); the log does not say they did not. A relocation that conserves
// rows depends on none.
bool MayDependOnRows(const WinnerSummary& winner, const CheckInputs& in,
                     const PendingTransaction& loser) {
  const bool changes_table = winner.protocol.has_value() || winner.metadata.has_value() ||
                             !winner.domains.empty() || !winner.app_transactions.empty();
  if (changes_table && !RLC_MUTANT("table-change-does-not-follow-an-append")) return true;
  return MayChangeData(winner, in, loser);
}

// Under WriteSerializable the loser passes a blind append without reading its files: the append
// may move after the loser (docs/baseline.md#b3, check 5). It cannot once a later winner the
// loser is ordered after depended on the append (read or changed its rows), and the log does not
// say which did. Delta's own rules leave that to chance; the cases must not widen it. So when the
// loser passed a blind append and then a data-changing winner that may have seen it, and Delta's
// rules (every flag off) would not have let it commit at all, the appends are checked as
// Serializable checks them (data skipping as the loser's flags allow).
struct PassedBlindAppend {
  std::shared_ptr<const WinnerSummary> winner;  // shared with the table view
  std::vector<int64_t> followed_by;  // the winners the loser passed after it that may depend on it
};

// Every data-changing winner after a passed append may have seen its rows: the log records no
// read that could refute it. The winner's commitInfo.readVersion says when its snapshot was
// taken, but nothing in the log or the data files can verify it (docs/trust.md): a writer that
// misstates it would let the loser commit without a row it should have seen, so the check does
// not take it. The mutant takes it.
bool MutantTrustsReadVersionBefore(const WinnerSummary& winner, int64_t append_version) {
  if (!RLC_MUTANT("passed-append-trusts-read-version")) return false;
  const std::optional<int64_t> read_version =
      winner.commit_info.has_value() ? winner.commit_info->read_version : std::nullopt;
  return read_version.has_value() && *read_version < append_version;
}

std::optional<Abort> CheckPassedBlindAppends(const PendingTransaction& loser, const CheckInputs& in,
                                             const std::vector<PassedBlindAppend>& passed,
                                             std::vector<Event>& events) {
  for (const auto& [append_summary, followed_by] : passed) {
    if (followed_by.empty()) continue;  // doubt: nothing the loser follows saw the append
    const WinnerSummary& append = *append_summary;
    const RuleContext c{loser,
                        in.read_table.metadata,
                        in.read_table.protocol,
                        IsolationLevel::kSerializable,
                        append,
                        in.matcher};
    if (!AddedFilesMatter(c)) continue;
    AddList adds;
    for (const delta::AddFile& add : append.added_files) adds.push_back(&add);
    if (loser.flags.On(CaseId::kDataSkipping) && !adds.empty()) {
      const SkippingInputs skipping{loser,      in.read_table.metadata, in.matcher,
                                    in.files,   in.read_table.files,    in.view,
                                    in.declines};
      adds = SkipAddedFiles(skipping, append, adds, events);
    }
    if (auto abort = FirstConflictingAdd(c, adds, MergeScansEveryPartition(c))) {
      abort->reason +=
          "; WriteSerializable cannot order this blind append after the loser, which follows "
          "version " +
          std::to_string(followed_by.front()) + " (that winner may depend on the append)";
      return abort;
    }
  }
  return std::nullopt;
}

// The winner's file actions under the rules replay applies (delta/commit_rules.h), against the
// table as the winners before it left it: a commit replay refuses is refused here (kCorrupt,
// naming the commit file), never judged in part.
Status CheckWinnerFiles(const WinnerSummary& winner, const TableView& view,
                        std::string_view source) {
  if (RLC_MUTANT("check-judges-refused-commit")) return Status::Ok();
  std::vector<const delta::AddFile*> adds;
  std::vector<const delta::RemoveFile*> removes;
  adds.reserve(winner.added_files.size());
  removes.reserve(winner.removed_files.size());
  for (const delta::AddFile& a : winner.added_files) adds.push_back(&a);
  for (const delta::RemoveFile& r : winner.removed_files) removes.push_back(&r);
  const Status status =
      delta::CheckCommitFiles(winner.version, adds, removes,
                              [&view](const std::string& path) { return view.Active(path); });
  return status.ok() ? status : status.WithContext(source);
}

// The statistics tier's judge of a winner's adds as they are parsed (data_skipping.h), where the
// check may look at them: whether a winner's adds matter turns only on its being a blind append
// (AddedFilesMatter), so both kinds of winner are asked about before the parse.
AddJudgeMaker JudgeWhileParsing(const SkippingInputs& skipping, const delta::Protocol& protocol,
                                IsolationLevel isolation) {
  WinnerSummary blind, not_blind;
  blind.is_blind_append = true;
  const auto matter = [&](const WinnerSummary& winner) {
    return AddedFilesMatter(RuleContext{skipping.loser, skipping.read_metadata, protocol, isolation,
                                        winner, skipping.matcher});
  };
  const bool blind_adds_matter = matter(blind);
  if (!matter(not_blind) && !blind_adds_matter) return {};  // no add is looked at
  return StatisticsJudge(skipping, /*skip_blind_appends=*/!blind_adds_matter);
}

}  // namespace

struct ConflictCheck::State {
  State(const PendingTransaction& loser, ReadTable table)
      : current(loser), read_table(std::move(table)), view(read_table.files) {
    // Only the cases rebase the loser: with every flag off it stays as it read, and a winner of
    // 100,000 actions against a loser of 10,000 is no time to copy it twice.
    if (loser.flags.AnyOn()) original = loser;
  }

  // The loser as it read: Delta's own rules judge this one.
  const PendingTransaction& Original() const { return original ? *original : current; }
  // The verdict so far: the check's, with the loser's actions and read files as they stand
  // (none after an abort), copied from `current` or, when the check is spent, moved.
  Verdict VerdictSoFar() const& {
    Verdict v = verdict;
    if (!v.abort.has_value()) {
      v.actions = current.actions;
      v.read_files = current.read_files;
    }
    return v;
  }
  Verdict VerdictSoFar() && {
    if (!verdict.abort.has_value()) {
      verdict.actions = std::move(current.actions);
      verdict.read_files = std::move(current.read_files);
    }
    return std::move(verdict);
  }

  std::optional<PendingTransaction> original;  // kept only where a case may rebase `current`
  PendingTransaction current;                  // the loser as the cases rebased it so far
  ReadTable read_table;
  TableView view;  // the read snapshot with every winner checked so far applied
  IsolationLevel isolation = IsolationLevel::kSerializable;
  std::unique_ptr<ReadPredicateMatcher> matcher;
  DvStore dvs;
  ForwardComposition composition;  // 4a
  // Logical keys the winners so far removed; kept only where Case 3 is on (its only reader).
  std::set<std::string> removed_since_read;
  std::vector<PassedBlindAppend> passed_blind_appends;
  // Whether Delta's rules (every flag off) abort the loser against the winners so far; tracked
  // where a rule may ask (any flag on: the passed-append rule, a move, a refuted claim). Its
  // winners are judged when a rule first asks (DeltaAborts), since most checks never ask: a
  // judgement with every flag off reads only the winner and the loser as it read, so when it runs
  // changes nothing, and it once doubled every flags-on check under WriteSerializable.
  bool track_delta_verdict = false;
  bool delta_aborts = false;
  std::vector<std::shared_ptr<const WinnerSummary>> unjudged_by_delta;  // in version order
  // The first winner that moved a file the loser removes (CheckMovedFile), passed
  // as Delta passes it: the abort it becomes once a case reconciles anything in this check.
  std::optional<Abort> moved_file;
  // The first winner whose refuted isBlindAppend let its adds pass (CheckRefutedBlindAppend), the
  // same way.
  std::optional<Abort> refuted_claim;
  // The first winner whose new rows passed a MERGE loser only by partition though its scan reads
  // every partition (CheckMergeScan), the same way.
  std::optional<Abort> merge_scan;

  // Judges the winners not yet judged with every flag off, until one aborts.
  bool DeltaAborts(CheckInputs& inputs);
  Verdict verdict;  // its actions and read files stay empty: VerdictSoFar fills them

  // Checks `winners`, the versions after checked_through_version, in order.
  Status Run(const std::vector<WinningCommit>& winners, const CheckEnvironment& env);

  // One winner; an abort ends the check.
  Status CheckWinner(const WinningCommit& w, const CheckEnvironment& env);
};

Status ConflictCheck::State::CheckWinner(const WinningCommit& w, const CheckEnvironment& env) {
  DeclineLog* const declines = env.explain_declines ? &verdict.declines : nullptr;
  const SkippingInputs skipping{
      current, read_table.metadata, *matcher, env.files, read_table.files, view, declines};
  RLC_ASSIGN_OR_RETURN(
      WinnerSummary summary,
      SummarizeWinner(w.version, w.bytes, w.source,
                      JudgeWhileParsing(skipping, read_table.protocol, isolation)));
  RLC_RETURN_IF_ERROR(CheckWinnerFiles(summary, view, w.source));
  const auto shared = std::make_shared<const WinnerSummary>(std::move(summary));
  const WinnerSummary& winner = *shared;
  RewriteInputs rewrite{
      read_table.metadata, read_table.protocol, dvs,  env.now_ms, composition, *matcher,
      env.files,           read_table.files,    view, declines};
  CheckInputs inputs{read_table, *matcher, env.files, rewrite, removed_since_read, view, declines};
  const RuleContext context{current, read_table.metadata, read_table.protocol, isolation, winner,
                            *matcher};
  verdict.checked_through_version = w.version;
  if (!moved_file) moved_file = CheckMovedFile(context, view);
  if (!refuted_claim) refuted_claim = CheckRefutedBlindAppend(context, view);
  if (!merge_scan) merge_scan = CheckMergeScan(context, view);
  if (auto abort = CheckOneWinner(context, inputs, current, verdict.events)) {
    verdict.abort = std::move(abort);
    return Status::Ok();
  }
  if (track_delta_verdict && !delta_aborts) unjudged_by_delta.push_back(shared);
  // doubt: the cases carried the loser (Delta's rules abort it against the winners so far) past
  // a move, past adds a refuted claim let pass, or past new rows a MERGE's scan reads
  if ((moved_file || refuted_claim || merge_scan) && DeltaAborts(inputs)) {
    verdict.abort = refuted_claim ? refuted_claim : moved_file ? moved_file : merge_scan;
    return Status::Ok();
  }
  const bool blind =
      winner.is_blind_append && !(current.flags.AnyOn() && BlindAppendRefuted(winner, view));
  if (!blind && MayDependOnRows(winner, inputs, current)) {
    for (PassedBlindAppend& append : passed_blind_appends) {
      if (!MutantTrustsReadVersionBefore(winner, append.winner->version))
        append.followed_by.push_back(w.version);
    }
  }
  if (current.flags.On(CaseId::kExcludeNoDataChange)) {  // only Case 3 asks
    for (const delta::RemoveFile& r : winner.removed_files) {
      removed_since_read.insert(
          delta::Snapshot::LogicalKey(DecodedPath(r.path), r.deletion_vector));
    }
  }
  view.Apply(shared);
  // (A loser that commits under SnapshotIsolation, all dataChange=false, moves no row: it
  // needs no append, before or after it.)
  if (isolation == IsolationLevel::kWriteSerializable && winner.is_blind_append &&
      !AddedFilesMatter(context) &&
      AddedFilesMatter(RuleContext{current, read_table.metadata, read_table.protocol,
                                   IsolationLevel::kSerializable, winner, *matcher})) {
    passed_blind_appends.push_back({shared, {}});  // passed only because it may move later
  }
  // Judged after every winner, so that where rounds end changes nothing.
  const bool some_append_cannot_move =
      std::any_of(passed_blind_appends.begin(), passed_blind_appends.end(),
                  [](const PassedBlindAppend& a) { return !a.followed_by.empty(); });
  if (some_append_cannot_move &&
      DeltaAborts(inputs)) {  // doubt: an append that cannot move, where Delta aborts
    if (auto abort =
            CheckPassedBlindAppends(current, inputs, passed_blind_appends, verdict.events)) {
      verdict.abort = std::move(abort);
    }
  }
  return Status::Ok();
}

bool ConflictCheck::State::DeltaAborts(CheckInputs& inputs) {
  if (!delta_aborts && !unjudged_by_delta.empty()) {
    PendingTransaction baseline = Original();
    baseline.flags = Flags{};
    std::vector<Event> no_events;
    for (const std::shared_ptr<const WinnerSummary>& winner : unjudged_by_delta) {
      const RuleContext c{baseline, read_table.metadata, read_table.protocol, isolation, *winner,
                          *matcher};
      delta_aborts = CheckOneWinner(c, inputs, baseline, no_events).has_value();
      if (delta_aborts) break;
    }
  }
  unjudged_by_delta.clear();
  return delta_aborts;
}

ConflictCheck::ConflictCheck(std::unique_ptr<State> state) : state_(std::move(state)) {}
ConflictCheck::ConflictCheck(ConflictCheck&&) noexcept = default;
ConflictCheck& ConflictCheck::operator=(ConflictCheck&&) noexcept = default;
ConflictCheck::~ConflictCheck() = default;

Result<ConflictCheck> ConflictCheck::Begin(const PendingTransaction& loser, ReadTable read_table) {
  RLC_ASSIGN_OR_RETURN(IsolationLevel table_level, TableIsolationLevel(read_table.metadata));
  auto s = std::make_unique<State>(loser, std::move(read_table));
  s->isolation = CommitIsolationLevel(table_level, loser);
  s->matcher =
      std::make_unique<ReadPredicateMatcher>(loser.read_predicates, s->read_table.metadata);
  s->track_delta_verdict = loser.flags.AnyOn();
  s->verdict.checked_through_version = loser.read_version;
  return ConflictCheck(std::move(s));
}

int64_t ConflictCheck::read_version() const { return state_->Original().read_version; }
int64_t ConflictCheck::checked_through_version() const {
  return state_->verdict.checked_through_version;
}

Status ConflictCheck::State::Run(const std::vector<WinningCommit>& winners,
                                 const CheckEnvironment& env) {
  dvs.Bind(env.files, env.dv_writer);
  int64_t expected_version = verdict.checked_through_version + 1;
  Status status = Status::Ok();
  for (const WinningCommit& w : winners) {
    if (verdict.abort.has_value()) break;
    if (w.version != expected_version) {
      status = Status::InvalidArgument("winning commits must be consecutive: expected version " +
                                       std::to_string(expected_version) + ", got " +
                                       std::to_string(w.version));
      break;
    }
    ++expected_version;
    status = CheckWinner(w, env);
    if (!status.ok()) break;
  }
  dvs.Bind(nullptr, nullptr);  // the round's files and writer may not outlive it
  return status;
}

Result<Verdict> ConflictCheck::Continue(const std::vector<WinningCommit>& winners,
                                        const CheckEnvironment& env) {
  RLC_RETURN_IF_ERROR(state_->Run(winners, env));
  return state_->VerdictSoFar();
}

Result<Verdict> ConflictCheck::Finish(const std::vector<WinningCommit>& winners,
                                      const CheckEnvironment& env) && {
  RLC_RETURN_IF_ERROR(state_->Run(winners, env));
  return std::move(*state_).VerdictSoFar();
}

Result<Verdict> ConflictCheck::ContinueAgainstLog(const storage::Storage& storage,
                                                  std::string_view table_root,
                                                  const CheckEnvironment& env) {
  RLC_ASSIGN_OR_RETURN(delta::LogListing listing, delta::ListLog(storage, table_root));
  // Every version after the one checked is a winner, judged by its actions. A version the log
  // names only by a checkpoint (its commit file cleaned up, or never written), or one missing
  // between two commits, leaves a winner unread: the check refuses the log, as replay does
  // (docs/trust.md#one-reading), instead of judging the winners around it.
  int64_t latest = listing.latest_version();
  if (!listing.checkpoint_versions.empty())
    latest = std::max(latest, listing.checkpoint_versions.back());
  const std::set<int64_t> commits(listing.commit_versions.begin(), listing.commit_versions.end());
  std::vector<WinningCommit> winners;
  for (int64_t v = checked_through_version() + 1; v <= latest; ++v) {
    const std::string path = delta::LogDir(table_root) + "/" + delta::CommitFileName(v);
    if (commits.count(v) == 0) {
      return Status::Corrupt(path + ": version " + std::to_string(v) +
                             " has no commit file, though the log goes on to version " +
                             std::to_string(latest) +
                             "; the check judges every winner by its actions");
    }
    RLC_ASSIGN_OR_RETURN(std::string bytes, storage.ReadFile(path));
    winners.push_back({v, std::move(bytes), path});
  }
  const StorageTableFiles storage_files(storage, std::string(table_root));
  CheckEnvironment with_files = env;
  if (with_files.files == nullptr) with_files.files = &storage_files;
  return Continue(winners, with_files);
}

Result<Verdict> CheckConflicts(const PendingTransaction& loser, const ReadTable& read_table,
                               const std::vector<WinningCommit>& winners,
                               const CheckEnvironment& env) {
  RLC_ASSIGN_OR_RETURN(ConflictCheck check, ConflictCheck::Begin(loser, read_table));
  return std::move(check).Finish(winners, env);
}

Result<ConflictCheck> BeginCheck(const PendingTransaction& loser, const delta::Snapshot& snapshot,
                                 std::string_view table_root) {
  if (snapshot.version != loser.read_version) {
    return Status::InvalidArgument(delta::LogDir(table_root) + ": the snapshot given is version " +
                                   std::to_string(snapshot.version) +
                                   ", the transaction read version " +
                                   std::to_string(loser.read_version));
  }
  if (!snapshot.metadata.has_value() || !snapshot.protocol.has_value()) {
    return Status::Corrupt(delta::LogDir(table_root) + ": version " +
                           std::to_string(loser.read_version) + " has no metaData or protocol");
  }
  return ConflictCheck::Begin(loser,
                              ReadTable{*snapshot.metadata, *snapshot.protocol, snapshot.files});
}

Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const PendingTransaction& loser,
                                         const CheckEnvironment& env) {
  RLC_ASSIGN_OR_RETURN(const delta::Snapshot snapshot,
                       delta::ReplayLog(storage, table_root, loser.read_version));
  return CheckConflictsAgainstLog(storage, table_root, loser, snapshot, env);
}

Result<Verdict> CheckConflictsAgainstLog(const storage::Storage& storage,
                                         std::string_view table_root,
                                         const PendingTransaction& loser,
                                         const delta::Snapshot& snapshot,
                                         const CheckEnvironment& env) {
  RLC_ASSIGN_OR_RETURN(ConflictCheck check, BeginCheck(loser, snapshot, table_root));
  return check.ContinueAgainstLog(storage, table_root, env);
}

}  // namespace rlc::conflict
