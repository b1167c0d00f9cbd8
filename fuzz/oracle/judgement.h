// The oracle's verdict on one committed history run against a real table: checks (a)-(c) together,
// as the scenario runner and the explorer apply them.
//
// Concern: joining final_rows.h (a), the model's dependency graph (b) and invariants.h (c) into one
// result a report can print. (d), the documented contract, needs the losers too: contract.h.
//   (a) the rows the oracle's own reader sees equal the serial result of the committed
//       transactions in some order the isolation level allows. A commit `by_rows` names (a
//       foreign writer's raw actions, or a writer whose lies change what its rows are) is judged
//       by what it did to the rows: its operation is the model::RowDelta between the rows the
//       reader sees at its version and at the version before. When one of those versions cannot
//       be read, the history is inconclusive (counted apart, never passed);
//   (b) the committed history has no dependency cycle the level forbids (model/graph), each one
//       explained edge by edge (model/explain);
//   (c) every commit of the log keeps the invariants of invariants.h, except the commits of writers
//       declared to break them (a scenario's `writer` quirks): what those break is their engine's
//       doing, kept apart (declared_writer_findings); what the others commit on top is judged.
//
// Thread-safety: stateless function.
#ifndef RLC_FUZZ_ORACLE_JUDGEMENT_H_
#define RLC_FUZZ_ORACLE_JUDGEMENT_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fuzz/oracle/invariants.h"
#include "model/isolation/history.h"
#include "model/semantics/table.h"

namespace rlc::oracle {

struct Judgement {
  // "holds"; or "wrong data: ...", "unknown: ...", "unreadable: ...", "inconclusive: ...",
  // "not judged: ..." (not run).
  std::string rows_check = "not judged: not run";
  std::vector<std::vector<model::Value>> actual_rows;  // sorted, as the oracle's reader sees them
  std::vector<std::vector<model::Value>> serial_rows;  // when (a) fails: the commit-order result
  std::vector<std::string> cycles;                     // (b), each rendered as Let / Then / However
  std::vector<std::string> invariant_findings;         // (c), "version V, PATH: RULE: DETAIL"
  std::vector<int64_t> invariant_versions;             // V of each of invariant_findings, or -1
  std::vector<std::string> declared_writer_findings;   // (c) at the versions of declared writers
  std::optional<ReferenceSnapshot> final_snapshot;     // the table read for (a), when readable

  bool rows_hold() const { return rows_check == "holds" || rows_check.rfind("not judged", 0) == 0; }
  bool inconclusive() const { return rows_check.rfind("inconclusive", 0) == 0; }
  bool holds() const { return rows_hold() && cycles.empty() && invariant_findings.empty(); }
};

// `files`: where the table's bytes are read from (reference_reader.h). `max_orders`: how many
// serial orders the row check may try.
inline constexpr size_t kDefaultMaxOrders = 5000;
// `by_rows`: indices of history.commits judged by their rows (their op is replaced).
// `declared_writers`: the versions whose writer was declared to break the protocol.
// `judged`: when set, (a) compares only the rows it keeps (the history's initial table holds only
// those: a race on a large table models the rows its operations can reach, and checks the others
// itself); the final snapshot is still read whole.
using RowScope = std::function<bool(const std::vector<model::Value>&)>;
Judgement JudgeHistory(const std::string& table_dir, const model::CommittedHistory& history,
                       model::IsolationLevel level, const std::set<size_t>& by_rows = {},
                       size_t max_orders = kDefaultMaxOrders,
                       const ByteSource& files = LocalFiles(),
                       const std::set<int64_t>& declared_writers = {},
                       const RowScope& judged = nullptr);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_JUDGEMENT_H_
