// TableView: the table as one conflict check has seen it so far: the loser's read snapshot, with
// every winner checked so far applied on top.
//
// Concern: where a winner's remove is judged, what it removed is the file version active just
// before it, as the log says: the add of the same (path, DV). A remove's own statistics,
// partition values and row count are the remover's claims about a file someone else wrote; a
// foreign engine may copy them wrongly or leave them out. So the cases take them from the active
// add, and a remove that names no active version, or whose own statistics disagree with that
// add's (numRecords, bounds, null counts), is doubt: the case does not reconcile on it.
//
// Thread-safety: one check, one thread.
#ifndef RLC_IMPL_CONFLICT_TABLE_VIEW_H_
#define RLC_IMPL_CONFLICT_TABLE_VIEW_H_

#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "impl/conflict/winner_summary.h"
#include "impl/delta/actions.h"

namespace rlc::conflict {

class TableView {
 public:
  // `read_files`: the read snapshot's active adds by decoded path; must outlive the view.
  explicit TableView(const std::map<std::string, delta::AddFile>& read_files) : read_files_(read_files) {}

  // The active add of this decoded path, or nullptr.
  const delta::AddFile* Active(const std::string& decoded_path) const;
  // The active add of exactly this (decoded path, DV), or nullptr.
  const delta::AddFile* ActiveVersion(const std::string& decoded_path, const std::optional<dv::DvDescriptor>& dv) const;
  // What a remove removed, as the log says: statistics and partition values of its active
  // version; nullopt (doubt) when it names no active version or its own statistics (if any)
  // disagree with that version's.
  struct Removed {
    std::optional<std::string> stats;
    delta::StringMap partition_values;
    int64_t size_bytes = 0;
  };
  std::optional<Removed> RemovedFile(const delta::RemoveFile& remove) const;

  // Applies a checked winner: its removes, then its adds.
  void Apply(const WinnerSummary& winner);

 private:
  const std::map<std::string, delta::AddFile>& read_files_;
  std::unordered_map<std::string, std::optional<delta::AddFile>> changed_;  // nullopt: removed
};

// Whether two statistics strings describe the same rows: equal numRecords, bounds and null counts
// (tightBounds aside; unparsable statistics agree with nothing).
bool SameStatistics(const std::string& a, const std::string& b);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_TABLE_VIEW_H_
