// TableView: the table as one conflict check has seen it so far: the loser's read snapshot, with
// every winner checked so far applied on top.
//
// Concern: where a winner's remove is judged, what it removed is the file version active just
// before it, as the log says: the add of the same (path, DV). A remove's own statistics,
// partition values and row count are the remover's claims about a file someone else wrote; a
// foreign engine may copy them wrongly or leave them out. So the cases take them from the active
// add, and a remove that names no active version, or whose own statistics contradict that add's
// (a numRecords, bound or null count of another value), is doubt: the case does not reconcile on
// it.
//
// The winners are kept, not copied (a winner may add a million files), and applied only when
// the view is first asked about a file after them: with every flag off nothing asks.
//
// Thread-safety: one check, one thread (a const view settles its pending winners on first use).
#ifndef RLC_IMPL_CONFLICT_TABLE_VIEW_H_
#define RLC_IMPL_CONFLICT_TABLE_VIEW_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "impl/conflict/winner_summary.h"
#include "impl/delta/actions.h"
#include "impl/delta/file_table.h"

namespace rlc::conflict {

class TableView {
 public:
  // `read_files`: the read snapshot's active adds by decoded path; must outlive the view.
  explicit TableView(const delta::FileTable& read_files) : read_files_(read_files) {}

  // The active add of this decoded path, or nullptr.
  const delta::AddFile* Active(const std::string& decoded_path) const;
  // The active add of exactly this (decoded path, DV), or nullptr.
  const delta::AddFile* ActiveVersion(const std::string& decoded_path,
                                      const std::optional<dv::DvDescriptor>& dv) const;
  // What a remove removed, as the log says: statistics and partition values of its active
  // version; nullopt (doubt) when it names no active version or its own statistics (if any)
  // contradict that version's.
  struct Removed {
    std::optional<delta::StatsJson> stats;
    delta::StringMap partition_values;
    int64_t size_bytes = 0;
  };
  std::optional<Removed> RemovedFile(const delta::RemoveFile& remove) const;

  // Applies a checked winner: its removes, then its adds (kept: the view holds the winner).
  void Apply(std::shared_ptr<const WinnerSummary> winner);

 private:
  // Applies the winners not yet applied, in order.
  void Settle() const;
  // The active add of this decoded path as the winners applied so far leave it.
  const delta::AddFile* Lookup(const std::string& decoded_path) const;

  const delta::FileTable& read_files_;
  std::vector<std::shared_ptr<const WinnerSummary>> winners_;  // every winner applied
  mutable size_t settled_ = 0;                                 // winners_[0, settled_) in changed_
  // Decoded path -> its active add in a winner, or nullptr where a winner removed it.
  mutable std::unordered_map<std::string, const delta::AddFile*> changed_;
};

// Whether a remove's statistics agree with its add's: every field the remove states (numRecords,
// each bound, each null count) has the add's value. Engines often copy only part of them (a
// Databricks remove carries numRecords alone); leaving a field out is no disagreement, stating
// another value is. tightBounds aside; unparsable statistics agree with nothing.
bool StatisticsAgree(const delta::StatsJson& remove, const delta::StatsJson& add);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_TABLE_VIEW_H_
