#include "fuzz/oracle/judgement.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>
#include <utility>

#include "fuzz/oracle/final_rows.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_reader.h"
#include "model/explain/explanation.h"
#include "model/graph/isolation_check.h"
#include "model/isolation/isolation.h"

namespace rlc::oracle {
namespace {

using Rows = std::vector<std::vector<model::Value>>;

// The rows the oracle's reader sees at `version` of a log already read (sorted); nullopt and why
// when that version cannot be read.
std::optional<Rows> RowsAt(const ReferenceLog& log, int64_t version, const std::string& table_dir,
                           const ByteSource& files, const model::LogicalTable& table,
                           std::string* why) {
  ReferenceLog prefix;
  if (version < 0 || static_cast<size_t>(version) >= log.commits.size()) {
    *why = "version " + std::to_string(version) + " is not in the log";
    return std::nullopt;
  }
  prefix.commits.assign(log.commits.begin(), log.commits.begin() + version + 1);
  ReferenceResult read = SnapshotOfLog(prefix, table_dir, "", files);
  if (!read.snapshot) {
    *why = "version " + std::to_string(version) + ": " + read.error;
    return std::nullopt;
  }
  std::optional<Rows> rows = ReferenceContents(*read.snapshot, table, why);
  if (!rows) *why = "version " + std::to_string(version) + ": " + *why;
  return rows;
}

// The commits judged by their rows, each as the model::RowDelta its version makes of the rows
// the oracle's reader sees: what it removed (rows at the version before, less those at its own)
// and what it added (the reverse), as multisets of values. nullopt and why when a version
// cannot be read.
std::optional<model::CommittedHistory> WithRowDeltas(const model::CommittedHistory& history,
                                                     const std::set<size_t>& by_rows,
                                                     const ReferenceLog& log,
                                                     const std::string& table_dir,
                                                     const ByteSource& files, std::string* why) {
  model::CommittedHistory out = history;
  for (size_t i : by_rows) {
    const int64_t version = history.CommitVersion(i);
    const std::optional<Rows> before =
        RowsAt(log, version - 1, table_dir, files, history.initial, why);
    if (!before) return std::nullopt;
    const std::optional<Rows> after = RowsAt(log, version, table_dir, files, history.initial, why);
    if (!after) return std::nullopt;
    model::RowDelta delta;
    std::set_difference(before->begin(), before->end(), after->begin(), after->end(),
                        std::back_inserter(delta.removed));
    std::set_difference(after->begin(), after->end(), before->begin(), before->end(),
                        std::back_inserter(delta.added));
    out.commits.at(i).op = std::move(delta);
  }
  return out;
}

// The version that wrote what an error of the oracle's reader names: for "version N, PATH: ..."
// the last commit at or before N that adds PATH (the add the reader could not read), else N;
// nullopt for an error that names no version.
std::optional<int64_t> VersionNamed(const std::string& error, const ReferenceLog& log) {
  constexpr std::string_view kVersion = "version ";
  if (error.rfind(kVersion, 0) != 0) return std::nullopt;
  int64_t n = 0;
  const char* begin = error.data() + kVersion.size();
  const auto [end, ec] = std::from_chars(begin, error.data() + error.size(), n);
  if (ec != std::errc() || end == begin || *end != ',') return std::nullopt;
  // The reader names a file by its decoded path, which may hold "%" and ": " itself (a partition
  // value's escapes, decoded once): the add whose path the error spells, followed by ": ".
  const size_t path_at = static_cast<size_t>(end - error.data()) + 2;
  const auto names = [&](const std::string& path) {
    return error.compare(path_at, path.size(), path) == 0 &&
           error.compare(path_at + path.size(), 2, ": ") == 0;
  };
  for (int64_t v = std::min<int64_t>(n, static_cast<int64_t>(log.commits.size()) - 1); v >= 0;
       --v) {
    for (const ReferenceFileAction& a : log.commits[static_cast<size_t>(v)].file_actions) {
      if (a.is_add && names(a.path)) return v;
    }
  }
  return n;
}

// The rows check when a commit the oracle judges by its rows cannot be read. `why` is "version
// N: <the reader's error>"; when the file the error names is a declared writer's own add (a row
// count it contradicts), the rows after it are nobody's to judge: that writer's doing.
std::string UnreadableByRows(const std::string& why, const ReferenceLog& log,
                             const std::set<int64_t>& declared_writers) {
  const size_t inner = why.find(": ");
  const std::optional<int64_t> unread_by =
      inner == std::string::npos ? std::nullopt : VersionNamed(why.substr(inner + 2), log);
  if (unread_by && declared_writers.count(*unread_by) != 0)
    return "inconclusive: the table cannot be read past version " + std::to_string(*unread_by) +
           ", a declared writer's own commit: " + why;
  return "inconclusive: a commit judged by its rows cannot be read: " + why;
}

// The final rows (a) and the dependency graph's cycles, judged on `history` (its commits judged
// by their rows already derived). REQUIRES: j.actual_rows holds the rows read.
void JudgeRows(const model::CommittedHistory& history, model::IsolationLevel level,
               size_t max_orders, Judgement& j) {
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

}  // namespace

Judgement JudgeHistory(const std::string& table_dir, const model::CommittedHistory& history,
                       model::IsolationLevel level, const std::set<size_t>& by_rows,
                       size_t max_orders, const ByteSource& files,
                       const std::set<int64_t>& declared_writers, const RowScope& judged) {
  Judgement j;
  // One read of the log serves the final rows (a), the commits judged by their rows and the
  // invariants (c).
  const ReferenceLog log = ReadReferenceLog(table_dir, -1, files);
  ReferenceResult read = SnapshotOfLog(log, table_dir, "", files);
  std::string why;
  std::optional<std::vector<std::vector<model::Value>>> actual;
  if (read.snapshot) actual = ReferenceContents(*read.snapshot, history.initial, &why);
  if (actual && judged) std::erase_if(*actual, [&](const auto& row) { return !judged(row); });
  std::string delta_why;
  const std::optional<model::CommittedHistory> derived =
      by_rows.empty() ? std::optional<model::CommittedHistory>()
                      : WithRowDeltas(history, by_rows, log, table_dir, files, &delta_why);
  const std::optional<int64_t> broken_by = VersionNamed(read.snapshot ? why : read.error, log);
  if ((!read.snapshot || !actual) && broken_by && declared_writers.count(*broken_by) != 0) {
    // A declared writer's own commit cannot be read (a DV it misdescribed, a path it added
    // twice): its writer's doing, and the rows after it are nobody's to judge.
    j.rows_check = "inconclusive: the table cannot be read past version " +
                   std::to_string(*broken_by) +
                   ", a declared writer's own commit: " + (read.snapshot ? why : read.error);
  } else if (!read.snapshot || !actual) {
    j.rows_check = "unreadable: the oracle's reader cannot read the final table: " +
                   (read.snapshot ? why : read.error);
  } else if (!by_rows.empty() && !derived) {
    j.actual_rows = std::move(*actual);
    j.rows_check = UnreadableByRows(delta_why, log, declared_writers);
  } else {
    j.actual_rows = std::move(*actual);
    JudgeRows(derived ? *derived : history, level, max_orders, j);
  }
  j.final_snapshot = std::move(read.snapshot);
  std::string invariants_error;
  for (const InvariantFinding& f :
       CheckLogInvariants(log, table_dir, &invariants_error, "", files)) {
    const bool declared = declared_writers.count(f.version) != 0;
    (declared ? j.declared_writer_findings : j.invariant_findings)
        .push_back("version " + std::to_string(f.version) + ", " + f.path + ": " + f.rule + ": " +
                   f.detail);
    if (!declared) j.invariant_versions.push_back(f.version);
  }
  if (!invariants_error.empty()) {
    const std::optional<int64_t> at = VersionNamed(invariants_error, log);
    if (at && declared_writers.count(*at) != 0) {
      j.declared_writer_findings.push_back("the log cannot be read: " + invariants_error);
    } else {
      j.invariant_findings.push_back("the log cannot be read: " + invariants_error);
      j.invariant_versions.push_back(-1);
    }
  }
  return j;
}

}  // namespace rlc::oracle
