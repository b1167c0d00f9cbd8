#include "impl/conflict/row_level_concurrency.h"

#include <algorithm>
#include <map>

#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/conflict/data_skipping.h"
#include "impl/kernel/dv_merge.h"

namespace rlc::conflict {
namespace {

// Merges one file both updated by DV: the loser's add gets the union of the two DVs, its remove
// becomes "remove from" the winner's add. False (nothing changed) on any doubt, said in the
// decline log.
bool MergeOneFile(const std::string& path, const delta::AddFile& winner_add,
                  const delta::RemoveFile& winner_remove, size_t add_index, size_t remove_index,
                  int64_t winner_version, RewriteInputs& in, PendingTransaction& loser) {
  const auto decline = [&](std::string reason) {
    Declined(in.declines, "2", winner_version, path, std::move(reason));
    return false;
  };
  const auto& loser_add = std::get<delta::AddFile>(loser.actions[add_index]);
  const auto& loser_remove = std::get<delta::RemoveFile>(loser.actions[remove_index]);
  if (!SameDv(winner_remove.deletion_vector, loser_remove.deletion_vector))
    return decline(
        "the two writers removed different versions of the file");  // doubt: other pre-images
  // A DV update deletes rows: written with dataChange=false it breaks the protocol (and made the
  // loser's commit look like a relocation under SnapshotIsolation). No merge builds on it.
  if (!loser_add.data_change || !loser_remove.data_change)
    return decline(
        "the loser's DV update says dataChange=false");  // doubt: a deletion as no change
  // Readers take a file's partition values from its add: a winner's DV update under other
  // values than the loser's moves the file's rows, which the loser's add would move back.
  // (The checker aborts such a loser on the move as well, once Delta's rules abort it, as they
  // do on every concurrent DV update of one file: checker.cc CheckMovedFile. So no mutant of
  // this guard shows in a history.)
  if (winner_add.partition_values != loser_add.partition_values)
    return decline("the winner's DV update names other partition values than the loser's");
  Result<dv::RowBitmap> base = in.dvs.Read(loser_remove.deletion_vector);
  Result<dv::RowBitmap> winner_dv = in.dvs.Read(winner_add.deletion_vector);
  Result<dv::RowBitmap> loser_dv = in.dvs.Read(loser_add.deletion_vector);
  if (!base.ok() || !winner_dv.ok() || !loser_dv.ok()) {  // doubt: a DV unreadable
    return decline(
        !base.ok()        ? "the file's DV before both is unreadable: " + base.status().message()
        : !winner_dv.ok() ? "the winner's DV is unreadable: " + winner_dv.status().message()
                          : "the loser's DV is unreadable: " + loser_dv.status().message());
  }
  const kernel::DvMerge<ConcreteDomain> merge =
      kernel::MergeDeletionVectors(ConcreteDomain{}, *base, *winner_dv, *loser_dv);
  if (!merge.resolved)  // doubt: a row both deleted, or revived
    return decline("a row is deleted by both writers, or a DV brings back a deleted row");
  // The loser read the file: a row the winner newly deleted there, and the loser did not (rows
  // both deleted are the kernel's to refuse), may be one it read. Then it must abort, as Delta
  // would.
  const SkippingInputs reads{loser, in.read_metadata, in.matcher, in.files, in.read_files, in.view};
  const delta::AddFile* pre_image = in.view.ActiveVersion(path, loser_remove.deletion_vector);
  if (pre_image == nullptr) return false;  // invariant: both removed the active version
  const bool read_by_loser =
      WinnerDeletedRowsMayMatch(reads, pre_image->path, *base, *winner_dv, *loser_dv,
                                pre_image->stats, pre_image->partition_values);
  if (read_by_loser &&
      !RLC_MUTANT("case2-forgets-reads"))  // doubt: the loser read a row the winner deleted
    return decline("a row the winner deleted may be one the loser's read matched");
  const std::optional<dv::DvDescriptor> written = in.dvs.Write(merge.merged);
  if (!written) return decline("the merged DV could not be written");  // doubt: the DV not written
  std::optional<delta::AddFile> rebased = WithDeletionVector(loser_add, *written);
  if (!rebased)
    return decline(
        "the loser's statistics do not parse or give no numRecords");  // doubt: no row count
  rebased->data_change = true;
  loser.actions[remove_index] = RemoveFrom(winner_add, in.now_ms, /*data_change=*/true);
  loser.actions[add_index] = std::move(*rebased);
  return true;
}

}  // namespace

CaseResolution ResolveRowLevelConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                        PendingTransaction& loser) {
  CaseResolution out;
  if (!DeletionVectorsWritable(in.read_metadata, in.read_protocol) ||
      !in.dvs.can_write()) {  // doubt: DVs not writable
    if (in.declines != nullptr &&
        std::any_of(winner.added_files.begin(), winner.added_files.end(),
                    [](const delta::AddFile& a) { return a.deletion_vector.has_value(); }))
      Declined(in.declines, "2", winner.version, "", "no DV can be written to this table here");
    return out;
  }
  // The winner's DV updates: an add with a DV of a path the winner removed (last one wins).
  std::map<std::string, const delta::RemoveFile*> winner_removes;
  for (const delta::RemoveFile& r : winner.removed_files) winner_removes[DecodedPath(r.path)] = &r;
  std::map<std::string, const delta::AddFile*> winner_updates;
  for (const delta::AddFile& a : winner.added_files) {
    const std::string path = DecodedPath(a.path);
    if (a.deletion_vector.has_value() && winner_removes.count(path) != 0) winner_updates[path] = &a;
  }
  if (winner_updates.empty()) return out;  // doubt: no DV update by the winner
  // The loser's adds with a DV and its removes, as positions in its actions (last one wins).
  std::map<std::string, size_t> loser_adds, loser_removes;
  for (size_t i = 0; i < loser.actions.size(); ++i) {
    if (const auto* a = std::get_if<delta::AddFile>(&loser.actions[i]);
        a && a->deletion_vector.has_value()) {
      loser_adds[DecodedPath(a->path)] = i;
    } else if (const auto* r = std::get_if<delta::RemoveFile>(&loser.actions[i])) {
      loser_removes[DecodedPath(r->path)] = i;
    }
  }
  std::set<std::string> merged_paths;
  for (const auto& [path, winner_add] : winner_updates) {
    auto add_it = loser_adds.find(path);
    auto remove_it = loser_removes.find(path);
    if (add_it == loser_adds.end() || remove_it == loser_removes.end())
      continue;  // doubt: the loser did not update it
    if (MergeOneFile(path, *winner_add, *winner_removes.at(path), add_it->second, remove_it->second,
                     winner.version, in, loser)) {
      merged_paths.insert(path);
    }
  }
  if (merged_paths.empty()) return out;  // doubt: nothing merged
  out.resolved.insert(merged_paths.begin(), merged_paths.end());
  // The file stays among the loser's reads: a later winner's deletions there are judged too.
  if (RLC_MUTANT("case2-forgets-reads")) DropReadFiles(merged_paths, loser);
  Event e;
  e.name = kDeletionVectorsMergedEvent;
  e.winner_version = winner.version;
  e.data = {{"winningCommitVersion", std::to_string(winner.version)},
            {"resolvedPaths", std::to_string(merged_paths.size())},
            {"winningOperation", winner.operation}};
  out.events.push_back(std::move(e));
  return out;
}

}  // namespace rlc::conflict
