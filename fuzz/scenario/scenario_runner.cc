#include "fuzz/scenario/scenario_runner.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <utility>

#include "fuzz/oracle/final_rows.h"
#include "fuzz/oracle/judgement.h"
#include "fuzz/oracle/reference_reader.h"
#include "impl/storage/storage.h"
#include "model/isolation/isolation.h"

namespace rlc::scenario {
namespace {

// The oracle reads an in-memory table's bytes through this; it decodes them on its own.
class StorageBytes final : public oracle::ByteSource {
 public:
  explicit StorageBytes(const storage::Storage& storage) : storage_(storage) {}
  std::optional<std::string> Read(const std::string& path) const override {
    Result<std::string> bytes = storage_.ReadFile(path);
    if (!bytes.ok()) return std::nullopt;
    return std::move(*bytes);
  }

 private:
  const storage::Storage& storage_;
};

namespace fs = std::filesystem;

std::string RowsOrNone(const std::vector<std::vector<model::Value>>& rows) {
  return rows.empty() ? "none" : RowsText(rows);
}

std::string Numbers(const std::vector<int64_t>& numbers) {
  std::string s;
  for (int64_t n : numbers) s += (s.empty() ? "" : " ") + std::to_string(n);
  return s.empty() ? "(none)" : s;
}

bool EveryFlagOn(const conflict::Flags& f) {
  return f.row_level_concurrency && f.exclude_no_data_change_files && f.data_skipping && f.value_exact &&
         f.optimize_reconcile && f.optimize_reconcile_reverse;
}

std::optional<bool> DataChangeOf(const std::vector<delta::Action>& actions) {
  std::optional<bool> all;
  for (const delta::Action& a : actions) {
    std::optional<bool> one;
    if (const auto* add = std::get_if<delta::AddFile>(&a)) one = add->data_change;
    if (const auto* remove = std::get_if<delta::RemoveFile>(&a)) one = remove->data_change;
    if (!one) continue;
    if (all && *all != *one) return std::nullopt;
    all = one;
  }
  return all;
}

// One committed action as a reviewer reads it: kind, path, DV size, dataChange, composition tags.
std::string ActionLine(const delta::Action& a) {
  if (const auto* add = std::get_if<delta::AddFile>(&a)) {
    std::string s = "add " + add->path;
    if (add->deletion_vector) s += " with a DV of " + std::to_string(add->deletion_vector->cardinality) + " row(s)";
    if (!add->data_change) s += " (dataChange=false)";
    return s;
  }
  if (const auto* remove = std::get_if<delta::RemoveFile>(&a)) {
    std::string s = "remove " + remove->path;
    if (remove->deletion_vector) {
      s += " with a DV of " + std::to_string(remove->deletion_vector->cardinality) + " row(s)";
    }
    if (!remove->data_change) s += " (dataChange=false)";
    for (const auto& [key, value] : remove->tags.value_or(delta::StringMap{})) {
      if (key == "compactedInto" && value) s += ", compactedInto " + *value;
    }
    return s;
  }
  if (const auto* txn = std::get_if<delta::Txn>(&a)) return "txn " + txn->app_id + " version " + std::to_string(txn->version);
  if (std::holds_alternative<delta::CommitInfo>(a)) return "commitInfo";
  if (std::holds_alternative<delta::Metadata>(a)) return "metaData";
  if (std::holds_alternative<delta::Protocol>(a)) return "protocol";
  return "other action";
}

std::string Outcome(const TxnReport& t) {
  if (t.read_version < 0) return "never started";
  if (!t.attempted) return "never tried to commit";
  if (t.skipped) return "skips (nothing to commit)";
  if (t.committed) return "commits at version " + std::to_string(t.version);
  return "aborts with " + t.abort;
}

struct Running {
  simulator::Transaction prepared;
  TxnReport report;
  int64_t abort_winner_version = -1;
};

}  // namespace

bool ScenarioReport::oracle_holds() const {
  const bool rows_ok = rows_check == "holds" || rows_check.rfind("not judged", 0) == 0;  // as oracle::Judgement
  return rows_ok && cycles.empty() && invariant_findings.empty() && (missed_reconciles == 0 || missed_reconcile_expected);
}

bool ScenarioReport::passed() const { return oracle_holds() && mismatches.empty(); }

Result<ScenarioReport> RunScenario(const Scenario& sc, const std::string& work_dir, const RunOptions& run) {
  std::unique_ptr<storage::Storage> storage;
  std::unique_ptr<oracle::ByteSource> memory_bytes;
  if (run.store == TableStore::kDirectory) {
    std::error_code ec;
    fs::remove_all(work_dir, ec);
    fs::create_directories(work_dir, ec);
    if (ec) return Status::IoError(work_dir + ": cannot create the table directory: " + ec.message());
    storage = storage::NewLocalStorage();
  } else {
    auto memory = std::make_unique<storage::InMemoryStorage>();
    memory_bytes = std::make_unique<StorageBytes>(*memory);
    storage = std::move(memory);
  }
  const oracle::ByteSource& table_bytes = memory_bytes ? *memory_bytes : oracle::LocalFiles();
  ScenarioReport r;
  r.file = sc.file;
  r.title = sc.title;
  const model::LogicalTable start = sc.StartingTable();
  r.level = start.properties.isolation_level;
  simulator::TableOptions options;
  options.merge_on_read = sc.table.merge_on_read;
  options.statistics = sc.table.statistics;
  options.optimize_target_rows = sc.table.optimize_target;
  options.verify_own_commits = run.verify_own_commits;
  options.checker_reads_rows = sc.table.rows_readable;
  options.checker_faults = sc.table.checker_faults;
  simulator::Simulator sim(*storage, work_dir, start, options);
  RLC_RETURN_IF_ERROR(sim.Create(sc.table.files));

  model::CommittedHistory history;
  history.initial = start;
  for (const auto& [op, line] : sc.setup) {
    RLC_ASSIGN_OR_RETURN(const int64_t latest, sim.LatestVersion());
    RLC_ASSIGN_OR_RETURN(simulator::Transaction t, sim.Prepare(op, latest, conflict::Flags{}));
    RLC_ASSIGN_OR_RETURN(simulator::CommitOutcome c, sim.Commit(t));
    if (t.commits_nothing) {
      r.timeline.push_back("setup " + model::Describe(op) + ": nothing to commit");
      continue;
    }
    if (!c.committed) {
      return Status::InvalidArgument(sc.file + ":" + std::to_string(line) + ": the setup step did not commit");
    }
    history.commits.push_back({"setup" + std::to_string(history.commits.size() + 1), latest, op});
    r.timeline.push_back("setup " + model::Describe(op) + ": commits at version " + std::to_string(c.version));
  }

  if (run.read_table_before) {  // the table before the transactions, as the oracle's reader sees it
    const oracle::ReferenceResult before = oracle::ReadReferenceSnapshot(work_dir, -1, "", table_bytes);
    std::optional<std::vector<std::vector<model::Value>>> rows;
    if (before.snapshot) rows = oracle::ReferenceContents(*before.snapshot, start.schema, &r.initial_rows_error);
    if (!before.snapshot) r.initial_rows_error = before.error;
    if (rows) r.initial_rows = std::move(*rows);
  } else {
    r.initial_rows_error = "not read in this run";
  }

  std::map<std::string, Running> running;
  std::map<int64_t, std::string> committed_at;  // version -> transaction name
  bool raw_committed = false;
  std::set<int64_t> declared_writers;  // versions committed by a transaction with writer quirks
  for (const TxnSpec& spec : sc.txns) {
    Running& run = running[spec.name];
    run.report.name = spec.name;
    run.report.operation = spec.operation ? model::Describe(*spec.operation) : "raw actions";
  }
  for (const Step& step : sc.steps) {
    const TxnSpec& spec = *sc.Find(step.txn);
    Running& run = running.at(step.txn);
    TxnReport& report = run.report;
    if (step.kind == Step::Kind::kStart) {
      RLC_ASSIGN_OR_RETURN(const int64_t latest, sim.LatestVersion());
      if (spec.operation) {
        RLC_ASSIGN_OR_RETURN(run.prepared, sim.Prepare(*spec.operation, latest, spec.flags, spec.optimize, spec.writer));
      } else {
        run.prepared = simulator::Transaction{};
        run.prepared.raw_actions = true;
        run.prepared.read_version = latest;
        run.prepared.pending.read_version = latest;
        run.prepared.pending.actions = spec.raw_actions;
        run.prepared.pending.flags = spec.flags;
      }
      std::vector<model::Predicate> reads = spec.extra_reads;
      if (spec.reads_whole_table) reads.push_back(model::Predicate::True());
      if (!run.prepared.commits_nothing) RLC_RETURN_IF_ERROR(sim.AddReads(run.prepared, reads));
      report.read_version = latest;
      r.timeline.push_back(step.txn + " starts: reads version " + std::to_string(latest) + ", " + report.operation);
      continue;
    }
    if (step.kind == Step::Kind::kRebase) {
      RLC_ASSIGN_OR_RETURN(const simulator::CommitOutcome c, sim.Rebase(run.prepared));
      ++report.rebases;
      std::string line = step.txn + (c.checked_through_version < 0 ? " rebases: no commit to check yet"
                                                                    : " rebases: checked through version " +
                                                                          std::to_string(c.checked_through_version));
      line += c.abort ? ", aborts there: " + conflict::Describe(*c.abort) : ", loses its race again";
      r.timeline.push_back(line);
      continue;
    }
    RLC_ASSIGN_OR_RETURN(simulator::CommitOutcome c, sim.Commit(run.prepared));
    report.attempted = true;
    report.skipped = run.prepared.commits_nothing;
    report.committed = c.committed;
    report.version = c.version;
    report.retries = c.optimize_retries;
    for (const conflict::Event& e : c.events) {
      report.events.push_back(e.name);
      const auto winner = committed_at.find(e.winner_version);
      const TxnSpec* winner_spec = winner == committed_at.end() ? nullptr : sc.Find(winner->second);
      report.event_winners.push_back(winner_spec == nullptr ? "?"
                                     : winner_spec->operation ? model::OperationName(*winner_spec->operation)
                                                              : "raw");
    }
    if (c.abort) {
      report.abort = conflict::ExceptionName(c.abort->kind);
      report.abort_detail = conflict::Describe(*c.abort);
      run.abort_winner_version = c.abort->winner_version;
      report.abort_winner_version = c.abort->winner_version;
      report.abort_reason = c.abort->reason;
    }
    if (c.committed) {
      report.data_change = DataChangeOf(c.actions);
      for (const delta::Action& a : c.actions) report.actions.push_back(ActionLine(a));
      committed_at[c.version] = step.txn;
      if (spec.writer.any()) declared_writers.insert(c.version);
      if (spec.operation) {
        std::vector<model::Predicate> reads = spec.extra_reads;  // the oracle judges every read
        if (spec.reads_whole_table) reads.push_back(model::Predicate::True());
        history.commits.push_back({step.txn, run.prepared.read_version, *spec.operation, std::move(reads)});
      } else {
        raw_committed = true;
      }
    }
    std::string line = step.txn + " " + Outcome(report);
    for (const std::string& e : report.events) line += "; event " + e;
    if (report.retries > 0) line += "; retried " + std::to_string(report.retries) + " time(s) (B5)";
    if (c.abort) line += ": " + report.abort_detail;
    r.timeline.push_back(line);
  }
  for (const TxnSpec& spec : sc.txns) r.txns.push_back(running.at(spec.name).report);

  // The oracle.
  oracle::Judgement judgement =
      oracle::JudgeHistory(work_dir, history, r.level, !raw_committed, oracle::kDefaultMaxOrders, table_bytes,
                           declared_writers);
  r.rows_check = std::move(judgement.rows_check);
  r.final_rows = std::move(judgement.actual_rows);
  r.serial_rows = std::move(judgement.serial_rows);
  r.cycles = std::move(judgement.cycles);
  r.invariant_findings = std::move(judgement.invariant_findings);
  r.declared_writer_findings = std::move(judgement.declared_writer_findings);
  const std::optional<oracle::ReferenceSnapshot>& final_snapshot = judgement.final_snapshot;

  const bool rlc_preconditions = !sc.table.partitioned && sc.table.merge_on_read &&
                                 sc.table.deletion_vectors == DeletionVectors::kOn;
  for (const TxnSpec& spec : sc.txns) {
    const Running& loser = running.at(spec.name);
    if (!loser.report.attempted || loser.report.committed || loser.report.skipped || !spec.operation) continue;
    const auto winner_name = committed_at.find(loser.abort_winner_version);
    if (winner_name == committed_at.end()) continue;
    const TxnSpec& winner_spec = *sc.Find(winner_name->second);
    if (!winner_spec.operation) continue;
    const Running& winner = running.at(winner_name->second);
    auto party = [](const TxnSpec& spec, const Running& run) {
      oracle::ContractParty p;
      p.operation = &*spec.operation;
      p.effect = &run.prepared.effect;
      for (const auto& [path, dv] : run.prepared.compacted) p.compacted_sources.insert(path);
      p.every_flag_on = EveryFlagOn(spec.flags);
      p.extra_reads = spec.extra_reads;
      if (spec.reads_whole_table) p.extra_reads.push_back(model::Predicate::True());
      return p;
    };
    // The matrix promises commits to honest writers only: a quirk other than adds-first (legal)
    // may cost the pair a reconcile, never data.
    auto honest = [](const simulator::WriterQuirks& q) {
      simulator::WriterQuirks legal;
      legal.adds_first = q.adds_first;
      return q == legal;
    };
    oracle::ContractCheck check =
        oracle::CheckContract(party(winner_spec, winner), party(spec, loser), false, r.level,
                              rlc_preconditions && honest(winner_spec.writer) && honest(spec.writer), start);
    check.explanation = spec.name + " lost to " + winner_spec.name + ": " + check.explanation;
    if (check.verdict == oracle::ContractVerdict::kMissedReconcile) ++r.missed_reconciles;
    if (check.verdict == oracle::ContractVerdict::kDeferred) ++r.deferred_cells;
    r.contract.push_back(std::move(check));
  }

  // The expectations.
  std::vector<int64_t> cardinalities;
  std::map<int64_t, std::vector<int64_t>> dv_of_row;  // id column value -> the DV of its file
  // Only a `dv` expectation reads dv_of_row, and parsing every live row costs more than the rest
  // of this step: generated histories carry no expectation.
  const bool wants_dv_of_row = std::any_of(sc.expectations.begin(), sc.expectations.end(),
                                           [](const Expectation& e) { return e.kind == Expectation::Kind::kDv; });
  if (final_snapshot) {
    for (const oracle::ReferenceFile& f : final_snapshot->files) {
      cardinalities.push_back(static_cast<int64_t>(f.deleted.size()));
      for (size_t position = 0; position < f.physical_values.size(); ++position) {
        if (!wants_dv_of_row || f.deleted.count(position)) continue;
        const nlohmann::json row = nlohmann::json::parse(oracle::RowText(f, position), nullptr, false);
        if (!row.is_object() || !row.contains("id") || !row["id"].is_number_integer()) continue;
        dv_of_row[row["id"].get<int64_t>()] = std::vector<int64_t>(f.deleted.begin(), f.deleted.end());
      }
    }
    std::sort(cardinalities.begin(), cardinalities.end());
  }
  using K = Expectation::Kind;
  for (const Expectation& e : sc.expectations) {
    const TxnReport* t = nullptr;
    if (!e.txn.empty()) t = &running.at(e.txn).report;
    bool holds = true;
    std::string actual;
    switch (e.kind) {
      case K::kCommits: holds = t->committed; actual = Outcome(*t); break;
      case K::kAborts:
        holds = t->attempted && !t->committed && !t->skipped && (e.name.empty() || e.name == t->abort);
        actual = Outcome(*t);
        break;
      case K::kSkips: holds = t->skipped; actual = Outcome(*t); break;
      case K::kAny: holds = true; break;
      case K::kEvent: {
        holds = std::find(t->events.begin(), t->events.end(), e.name) != t->events.end();
        actual = t->events.empty() ? "no events" : "events:";
        for (const std::string& name : t->events) actual += " " + name;
        break;
      }
      case K::kNoEvents:
        holds = t->events.empty();
        actual = "events:";
        for (const std::string& name : t->events) actual += " " + name;
        break;
      case K::kRetries: holds = t->retries == e.number; actual = std::to_string(t->retries) + " retries"; break;
      case K::kDataChange:
        holds = t->data_change == e.flag;
        actual = !t->committed ? Outcome(*t)
                 : t->data_change ? "dataChange=" + std::string(*t->data_change ? "true" : "false")
                                  : "its file actions disagree on dataChange (or it has none)";
        break;
      case K::kRows: {
        std::vector<std::vector<model::Value>> expected = e.rows;
        std::sort(expected.begin(), expected.end());
        holds = expected == r.final_rows;
        actual = "rows " + RowsOrNone(r.final_rows);
        break;
      }
      case K::kRowCount:
        holds = static_cast<int64_t>(r.final_rows.size()) == e.number;
        actual = std::to_string(r.final_rows.size()) + " rows";
        break;
      case K::kFiles:
        holds = static_cast<int64_t>(cardinalities.size()) == e.number;
        actual = std::to_string(cardinalities.size()) + " files";
        break;
      case K::kDvCardinalities:
        holds = cardinalities == e.numbers;
        actual = "dv-cardinalities " + Numbers(cardinalities);
        break;
      case K::kDv: {
        const auto it = dv_of_row.find(e.number);
        holds = it != dv_of_row.end() && it->second == e.numbers;
        actual = it == dv_of_row.end() ? "no live row has id " + std::to_string(e.number)
                                       : "dv " + std::to_string(e.number) + ": " + Numbers(it->second);
        break;
      }
      case K::kMissedReconcile:
        r.missed_reconcile_expected = true;
        holds = r.missed_reconciles > 0;
        actual = "no missed reconcile";
        break;
    }
    if (!holds) r.mismatches.push_back({e.line, e.text, actual});
  }
  return r;
}

std::string RenderReport(const ScenarioReport& r, bool verbose) {
  std::string out = std::string(r.passed() ? "PASS " : "FAIL ") + r.file + (r.title.empty() ? "" : " (" + r.title + ")") + "\n";
  if (r.passed() && !verbose) return out;
  out += "  isolation " + model::IsolationLevelName(r.level) + "\n";
  out += "  table before: " + (r.initial_rows_error.empty() ? RowsOrNone(r.initial_rows) : r.initial_rows_error) + "\n";
  for (const std::string& line : r.timeline) {
    out += "  | " + line + "\n";
    if (!verbose) continue;
    for (const TxnReport& t : r.txns) {  // a commit line starts with its transaction's name
      if (t.committed && line.rfind(t.name + " commits", 0) == 0) {
        for (const std::string& a : t.actions) out += "  |     " + a + "\n";
      }
    }
  }
  out += "  final rows: " + RowsOrNone(r.final_rows) + "\n";
  out += "  (a) rows: " + r.rows_check + "\n";
  if (!r.serial_rows.empty() || r.rows_check.rfind("wrong", 0) == 0) {
    out += "      serial result in commit order: " + RowsOrNone(r.serial_rows) + "\n";
  }
  for (const std::string& cycle : r.cycles) {
    out += "  (b) forbidden dependency cycle:\n";
    for (size_t start = 0; start < cycle.size();) {
      const size_t end = cycle.find('\n', start);
      out += "      " + cycle.substr(start, end - start) + "\n";
      start = end == std::string::npos ? cycle.size() : end + 1;
    }
  }
  for (const std::string& f : r.invariant_findings) out += "  (c) " + f + "\n";
  for (const std::string& f : r.declared_writer_findings) out += "  (c, its writer's own) " + f + "\n";
  for (const oracle::ContractCheck& c : r.contract) {
    out += "  (d) " + oracle::ContractVerdictName(c.verdict) + ": " + c.cell + "; " + c.explanation + "\n";
  }
  if (r.missed_reconciles > 0 && r.missed_reconcile_expected) out += "      (the file expects the missed reconcile)\n";
  for (const Mismatch& m : r.mismatches) {
    out += "  " + r.file + ":" + std::to_string(m.line) + ": expected: " + m.expected + "\n      actual: " + m.actual + "\n";
  }
  return out;
}

}  // namespace rlc::scenario
