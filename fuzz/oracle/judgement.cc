#include "fuzz/oracle/judgement.h"

#include <utility>

#include "fuzz/oracle/final_rows.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_reader.h"
#include "model/explain/explanation.h"
#include "model/graph/isolation_check.h"
#include "model/isolation/isolation.h"

namespace rlc::oracle {

Judgement JudgeHistory(const std::string& table_dir, const model::CommittedHistory& history,
                       model::IsolationLevel level, bool replayable, size_t max_orders,
                       const ByteSource& files, const std::set<int64_t>& declared_writers,
                       const RowScope& judged) {
  Judgement j;
  // One read of the log serves the final rows (a) and the invariants (c).
  const ReferenceLog log = ReadReferenceLog(table_dir, -1, files);
  ReferenceResult read = SnapshotOfLog(log, table_dir, "", files);
  std::string why;
  std::optional<std::vector<std::vector<model::Value>>> actual;
  if (read.snapshot) actual = ReferenceContents(*read.snapshot, history.initial.schema, &why);
  if (actual && judged) std::erase_if(*actual, [&](const auto& row) { return !judged(row); });
  if (!read.snapshot || !actual) {
    j.rows_check = "unreadable: the oracle's reader cannot read the final table: " +
                   (read.snapshot ? why : read.error);
  } else if (!replayable) {
    j.actual_rows = std::move(*actual);
    j.rows_check = "not judged: a raw transaction committed (the model cannot replay raw actions)";
  } else {
    j.actual_rows = std::move(*actual);
    const model::ObservedHistory observed = model::Observe(history);
    const model::OracleResult rows =
        model::CheckFinalRows(history, observed, level, j.actual_rows, max_orders);
    if (rows.verdict == model::OracleVerdict::kValid) {
      j.rows_check = "holds";
    } else {
      j.rows_check = rows.verdict == model::OracleVerdict::kInvalid
                         ? "wrong data: no serial order the level allows explains the rows"
                         : "unknown: the orders to try were cut before one matched";
      std::vector<size_t> commit_order(history.commits.size());
      for (size_t i = 0; i < commit_order.size(); ++i) commit_order[i] = i;
      j.serial_rows = model::RunSerially(history, commit_order).SortedContents();
    }
    const model::GraphResult graph = model::CheckIsolation(observed, level);
    for (const model::Anomaly& anomaly : graph.anomalies) {
      j.cycles.push_back(
          model::RenderCycle(model::LabelCycle(anomaly.cycle, history), anomaly.cycle));
    }
  }
  j.final_snapshot = std::move(read.snapshot);
  std::string invariants_error;
  for (const InvariantFinding& f :
       CheckLogInvariants(log, table_dir, &invariants_error, "", files)) {
    (declared_writers.count(f.version) != 0 ? j.declared_writer_findings : j.invariant_findings)
        .push_back("version " + std::to_string(f.version) + ", " + f.path + ": " + f.rule + ": " +
                   f.detail);
  }
  if (!invariants_error.empty())
    j.invariant_findings.push_back("the log cannot be read: " + invariants_error);
  return j;
}

}  // namespace rlc::oracle
