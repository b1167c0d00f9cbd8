// The version order of each row, as the table's history shows it.
//
// Concern: for every row, the writes committed transactions made to it, in the order their
// versions were installed. Rows are identified by their stable RowId, never by values.
//
// Rules:
//   1. A write takes effect at version k when the table at k-1 and at k shows it: an insert
//      adds the row with its after-image; an update finds the row and leaves the after-image;
//      a delete removes the row.
//   2. A write is installed at its transaction's commit version when it takes effect there
//      (always so for histories built by Observe(), unless the write was lost). A transaction
//      that reports lost writes has the others lost: visible == false, ordered at the commit
//      version. Otherwise (a hand-built history whose writes were installed out of commit
//      order) the write is installed at the first version where it takes effect, and lost if
//      there is none.
//   3. Writes to one row are ordered by installed version, then by commit order.
//   4. Transactions with data_change == false (OPTIMIZE) write no rows and are skipped.
//
// Thread-safety: stateless functions; the result points into `observed`, which must outlive it.
#ifndef RLC_MODEL_GRAPH_VERSION_ORDER_H_
#define RLC_MODEL_GRAPH_VERSION_ORDER_H_

#include <cstdint>
#include <map>
#include <vector>

#include "model/isolation/history.h"
#include "model/semantics/serial.h"
#include "model/semantics/table.h"

namespace rlc::model {

struct InstalledWrite {
  size_t txn = 0;                   // index into ObservedHistory::txns
  const RowWrite* write = nullptr;  // into that transaction's effect.writes
  int64_t version = 0;              // where it was installed (rule 2)
  bool visible = true;              // false for a lost write
};

using VersionOrder = std::map<RowId, std::vector<InstalledWrite>>;

VersionOrder BuildVersionOrder(const ObservedHistory& observed);

// The table at `version`, or nullptr when the history does not hold it.
const LogicalTable* TableAt(const ObservedHistory& observed, int64_t version);

// "inserted", "updated", "deleted".
const char* WriteAction(RowWrite::Kind kind);

}  // namespace rlc::model

#endif  // RLC_MODEL_GRAPH_VERSION_ORDER_H_
