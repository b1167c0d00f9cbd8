#include "fuzz/scenario/scenario_runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "fuzz/oracle/final_rows.h"
#include "fuzz/oracle/judgement.h"
#include "fuzz/oracle/reference_reader.h"
#include "fuzz/simulator/checkpoint_check.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/deletion_vector_loader.h"
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

// A DV's deleted positions, as a reviewer reads them: the first kShownPositions in order, then how
// many more; nullopt when the DV cannot be loaded.
using DvPositions = std::function<std::optional<std::vector<uint64_t>>(const dv::DvDescriptor&)>;
constexpr size_t kShownPositions = 16;

std::string DvText(const dv::DvDescriptor& dv, const DvPositions& positions) {
  std::string s = " with a DV of " + std::to_string(dv.cardinality) + " row(s)";
  const std::optional<std::vector<uint64_t>> rows = positions ? positions(dv) : std::nullopt;
  if (!rows) return s;
  s += " at position" + std::string(rows->size() == 1 ? " " : "s ");
  for (size_t i = 0; i < rows->size() && i < kShownPositions; ++i)
    s += (i == 0 ? "" : ", ") + std::to_string((*rows)[i]);
  if (rows->size() > kShownPositions)
    s += " and " + std::to_string(rows->size() - kShownPositions) + " more";
  return s;
}

// One committed action as a reviewer reads it: kind, path, DV (its positions where it loads),
// dataChange, composition tags.
std::string ActionLine(const delta::Action& a, const DvPositions& positions) {
  if (const auto* add = std::get_if<delta::AddFile>(&a)) {
    std::string s = "add " + add->path;
    if (add->deletion_vector) s += DvText(*add->deletion_vector, positions);
    if (!add->data_change) s += " (dataChange=false)";
    return s;
  }
  if (const auto* remove = std::get_if<delta::RemoveFile>(&a)) {
    std::string s = "remove " + remove->path;
    if (remove->deletion_vector) s += DvText(*remove->deletion_vector, positions);
    if (!remove->data_change) s += " (dataChange=false)";
    for (const auto& [key, value] : remove->tags.value_or(delta::StringMap{})) {
      if (key == "compactedInto" && value) s += ", compactedInto " + *value;
    }
    return s;
  }
  if (const auto* txn = std::get_if<delta::Txn>(&a))
    return "txn " + txn->app_id + " version " + std::to_string(txn->version);
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
  if (!t.refused.empty()) return "refuses the log: " + t.refused;
  return "aborts with " + t.abort;
}

struct Running {
  simulator::Transaction prepared;
  TxnReport report;
  int64_t abort_winner_version = -1;
  int64_t checked_through_version = -1;  // at the abort
};

// Where the table lives: a directory (the oracle reads its files) or memory (through StorageBytes).
struct Store {
  std::unique_ptr<storage::Storage> storage;
  std::unique_ptr<oracle::ByteSource> memory_bytes;
  const oracle::ByteSource& bytes() const {
    return memory_bytes ? *memory_bytes : oracle::LocalFiles();
  }
};

Result<Store> OpenStore(TableStore kind, const std::string& work_dir) {
  Store s;
  if (kind == TableStore::kDirectory) {
    std::error_code ec;
    fs::remove_all(work_dir, ec);
    fs::create_directories(work_dir, ec);
    if (ec)
      return Status::IoError(work_dir + ": cannot create the table directory: " + ec.message());
    s.storage = storage::NewLocalStorage();
  } else {
    auto memory = std::make_unique<storage::InMemoryStorage>();
    s.memory_bytes = std::make_unique<StorageBytes>(*memory);
    s.storage = std::move(memory);
  }
  return s;
}

simulator::TableOptions OptionsOf(const TableSpec& table, const RunOptions& run) {
  simulator::TableOptions options;
  options.merge_on_read = table.merge_on_read;
  options.statistics = table.statistics;
  options.optimize_target_rows = table.optimize_target;
  options.verify_own_commits = run.verify_own_commits;
  options.checker_reads_rows = table.rows_readable;
  options.checker_faults = table.checker_faults;
  options.checkpoint_interval = table.checkpoint_interval;
  options.checkpoint_layouts = table.checkpoint_layouts;
  if (table.x_widened_from) options.type_widening = {{"x", *table.x_widened_from}};
  options.zoned_partition_timestamps = table.zoned_partition_timestamps;
  options.column_mapping = table.column_mapping;
  options.explain_declines = run.explain_declines;
  options.winner_bytes = run.winner_bytes;
  options.data_files = run.data_files.value_or(run.store == TableStore::kDirectory
                                                   ? simulator::DataFileFormat::kParquet
                                                   : simulator::DataFileFormat::kRowFile);
  return options;
}

// Every read a transaction declares besides its operation's own (the oracle judges them all).
std::vector<model::Predicate> ExtraReads(const TxnSpec& spec) {
  std::vector<model::Predicate> reads = spec.extra_reads;
  if (spec.reads_whole_table) reads.push_back(model::Predicate::True());
  return reads;
}

// One scenario's run in progress: the simulator, each transaction's state and what committed.
struct ScenarioRun {
  ScenarioRun(const Scenario& scenario, simulator::Simulator& simulator, ScenarioReport& report,
              const storage::Storage* table_storage, std::string table_root)
      : sc(scenario),
        sim(simulator),
        r(report),
        storage(table_storage),
        root(std::move(table_root)) {}

  const Scenario& sc;
  simulator::Simulator& sim;
  ScenarioReport& r;
  model::CommittedHistory history;
  std::map<std::string, Running> running;
  std::map<int64_t, std::string> committed_at;  // version -> transaction name
  std::set<size_t> by_rows;            // history.commits judged by their rows (raw actions)
  std::set<int64_t> declared_writers;  // versions committed by a transaction with writer quirks
  // The table's, for the DV positions a report shows; nullptr in a campaign's fast runs, which
  // render no report (no DV read per committed action on that path).
  const storage::Storage* storage = nullptr;
  std::string root;
};

Status RunSetup(ScenarioRun& s) {
  for (const auto& [op, line] : s.sc.setup) {
    RLC_ASSIGN_OR_RETURN(const int64_t latest, s.sim.LatestVersion());
    RLC_ASSIGN_OR_RETURN(simulator::Transaction t, s.sim.Prepare(op, latest, conflict::Flags{}));
    RLC_ASSIGN_OR_RETURN(simulator::CommitOutcome c, s.sim.Commit(t));
    if (t.commits_nothing) {
      s.r.timeline.push_back("setup " + model::Describe(op) + ": nothing to commit");
      continue;
    }
    if (!c.committed) {
      return Status::InvalidArgument(s.sc.file + ":" + std::to_string(line) +
                                     ": the setup step did not commit");
    }
    s.history.commits.push_back(
        {"setup" + std::to_string(s.history.commits.size() + 1), latest, op});
    s.r.timeline.push_back("setup " + model::Describe(op) + ": commits at version " +
                           std::to_string(c.version));
  }
  return Status::Ok();
}

// The table before the transactions, as the oracle's reader sees it.
void ReadTableBefore(const std::string& work_dir, const model::LogicalTable& start,
                     const oracle::ByteSource& bytes, ScenarioReport& r) {
  const oracle::ReferenceResult before = oracle::ReadReferenceSnapshot(work_dir, -1, "", bytes);
  std::optional<std::vector<std::vector<model::Value>>> rows;
  if (before.snapshot)
    rows = oracle::ReferenceContents(*before.snapshot, start, &r.initial_rows_error);
  if (!before.snapshot) r.initial_rows_error = before.error;
  if (rows) r.initial_rows = std::move(*rows);
}

Status StartStep(ScenarioRun& s, const TxnSpec& spec, Running& run) {
  RLC_ASSIGN_OR_RETURN(const int64_t latest, s.sim.LatestVersion());
  if (spec.operation) {
    RLC_ASSIGN_OR_RETURN(run.prepared, s.sim.Prepare(*spec.operation, latest, spec.flags,
                                                     spec.optimize, spec.writer));
  } else {
    run.prepared = simulator::Transaction{};
    run.prepared.raw_actions = true;
    run.prepared.read_version = latest;
    run.prepared.pending.read_version = latest;
    run.prepared.pending.actions = spec.raw_actions;
    run.prepared.pending.flags = spec.flags;
  }
  if (!run.prepared.commits_nothing)
    RLC_RETURN_IF_ERROR(s.sim.AddReads(run.prepared, ExtraReads(spec)));
  run.report.read_version = latest;
  s.r.timeline.push_back(spec.name + " starts: reads version " + std::to_string(latest) + ", " +
                         run.report.operation);
  return Status::Ok();
}

Status RebaseStep(ScenarioRun& s, const TxnSpec& spec, Running& run) {
  RLC_ASSIGN_OR_RETURN(const simulator::CommitOutcome c, s.sim.Rebase(run.prepared));
  ++run.report.rebases;
  std::string line =
      spec.name + (c.checked_through_version < 0 ? " rebases: no commit to check yet"
                                                 : " rebases: checked through version " +
                                                       std::to_string(c.checked_through_version));
  line += c.abort ? ", aborts there: " + conflict::Describe(*c.abort) : ", loses its race again";
  s.r.timeline.push_back(line);
  return Status::Ok();
}

// The report's record of a commit attempt: events with their winners' operations, the abort.
void RecordAttempt(const ScenarioRun& s, const simulator::CommitOutcome& c, Running& run) {
  TxnReport& report = run.report;
  report.attempted = true;
  report.skipped = run.prepared.commits_nothing;
  report.committed = c.committed;
  report.version = c.version;
  report.retries = c.optimize_retries;
  report.refused = c.refused;
  report.declines.clear();  // the last check's: a rebased commit's check covers every winner
  for (const conflict::Decline& d : c.declines) {
    report.declines.push_back("case " + d.case_id + " against version " +
                              std::to_string(d.winner_version) +
                              (d.path.empty() ? "" : ", file " + d.path) + ": " + d.reason);
  }
  for (const conflict::Event& e : c.events) {
    report.events.push_back(e.name);
    const auto winner = s.committed_at.find(e.winner_version);
    const TxnSpec* winner_spec =
        winner == s.committed_at.end() ? nullptr : s.sc.Find(winner->second);
    report.event_winners.push_back(winner_spec == nullptr ? "?"
                                   : winner_spec->operation
                                       ? model::OperationName(*winner_spec->operation)
                                       : "raw");
    report.event_winner_names.push_back(winner_spec == nullptr ? "" : winner_spec->name);
  }
  if (c.abort) {
    report.abort = conflict::ExceptionName(c.abort->kind);
    report.abort_detail = conflict::Describe(*c.abort);
    report.abort_error_class = conflict::DeltaErrorClass(c.abort->kind);
    report.abort_delta_message = conflict::DeltaErrorMessage(*c.abort);
    run.abort_winner_version = c.abort->winner_version;
    run.checked_through_version = c.checked_through_version;
    report.abort_winner_version = c.abort->winner_version;
    report.abort_reason = c.abort->reason;
  }
}

Status CommitStep(ScenarioRun& s, const TxnSpec& spec, Running& run) {
  RLC_ASSIGN_OR_RETURN(simulator::CommitOutcome c, s.sim.Commit(run.prepared));
  RecordAttempt(s, c, run);
  TxnReport& report = run.report;
  if (c.committed) {
    report.data_change = DataChangeOf(c.actions);
    const DvPositions positions = [&s](const dv::DvDescriptor& dv) {
      if (s.storage == nullptr) return std::optional<std::vector<uint64_t>>();
      Result<dv::RowBitmap> rows = delta::LoadDeletionVector(*s.storage, s.root, dv);
      return rows.ok() ? std::optional(rows->ToVector()) : std::nullopt;
    };
    for (const delta::Action& a : c.actions) report.actions.push_back(ActionLine(a, positions));
    s.committed_at[c.version] = spec.name;
    if (spec.writer.any() || spec.foreign) s.declared_writers.insert(c.version);
    // Raw actions, or a writer whose lies move rows: the oracle derives what the commit did to
    // the rows from the log (model::RowDelta).
    if (!spec.operation || spec.writer.changes_rows()) s.by_rows.insert(s.history.commits.size());
    s.history.commits.push_back({spec.name, run.prepared.read_version,
                                 spec.operation ? *spec.operation : model::RowDelta{},
                                 ExtraReads(spec)});
  }
  std::string line = spec.name + " " + Outcome(report);
  for (const std::string& e : report.events) line += "; event " + e;
  if (report.retries > 0)
    line += "; retried " + std::to_string(report.retries) + " time(s) (OPTIMIZE's own retry)";
  if (c.abort) line += ": " + report.abort_detail;
  s.r.timeline.push_back(line);
  return Status::Ok();
}

Status RunSteps(ScenarioRun& s) {
  for (const TxnSpec& spec : s.sc.txns) {
    Running& run = s.running[spec.name];
    run.report.name = spec.name;
    run.report.operation = spec.operation ? model::Describe(*spec.operation) : "raw actions";
  }
  for (const Step& step : s.sc.steps) {
    const TxnSpec& spec = *s.sc.Find(step.txn);
    Running& run = s.running.at(step.txn);
    switch (step.kind) {
      case Step::Kind::kStart:
        RLC_RETURN_IF_ERROR(StartStep(s, spec, run));
        break;
      case Step::Kind::kRebase:
        RLC_RETURN_IF_ERROR(RebaseStep(s, spec, run));
        break;
      default:
        RLC_RETURN_IF_ERROR(CommitStep(s, spec, run));
        break;
    }
  }
  for (const TxnSpec& spec : s.sc.txns) s.r.txns.push_back(s.running.at(spec.name).report);
  return Status::Ok();
}

oracle::ContractParty PartyOf(const TxnSpec& spec, const Running& run) {
  oracle::ContractParty p;
  p.operation = &*spec.operation;
  p.effect = &run.prepared.effect;
  for (const auto& [path, dv] : run.prepared.compacted) p.compacted_sources.insert(path);
  p.every_flag_on = spec.flags.EveryOn();
  p.extra_reads = ExtraReads(spec);
  p.read_version = run.prepared.pending.read_version;
  p.commit_version = run.report.committed ? run.report.version : -1;
  return p;
}

// The matrix promises commits to honest writers only: a quirk other than adds-first (legal) may
// cost the pair a reconcile, never data. A misstated commitInfo.readVersion is no such quirk:
// the check uses no read version (docs/trust.md#read-version), so it may cost nothing.
bool Honest(const simulator::WriterQuirks& q) {
  simulator::WriterQuirks legal;
  legal.adds_first = q.adds_first;
  legal.read_version = q.read_version;
  return q == legal;
}

// Each aborted loser against the documented matrix cell of it and the winner that aborted it.
void JudgeContracts(const ScenarioRun& s, const model::LogicalTable& start) {
  ScenarioReport& r = s.r;
  const bool rlc_preconditions = !s.sc.table.partitioned && s.sc.table.merge_on_read &&
                                 s.sc.table.deletion_vectors == DeletionVectors::kOn;
  for (const TxnSpec& spec : s.sc.txns) {
    const Running& loser = s.running.at(spec.name);
    if (!loser.report.attempted || loser.report.committed || loser.report.skipped ||
        !spec.operation)
      continue;
    const auto winner_name = s.committed_at.find(loser.abort_winner_version);
    if (winner_name == s.committed_at.end()) continue;
    const TxnSpec& winner_spec = *s.sc.Find(winner_name->second);
    if (!winner_spec.operation) continue;
    const Running& winner = s.running.at(winner_name->second);
    std::vector<std::pair<std::string, oracle::ContractParty>> between;
    for (auto v = s.committed_at.upper_bound(loser.abort_winner_version);
         v != s.committed_at.end() && v->first <= loser.checked_through_version; ++v) {
      const TxnSpec* other = s.sc.Find(v->second);
      if (other != nullptr && other->operation)
        between.emplace_back(other->name, PartyOf(*other, s.running.at(other->name)));
    }
    oracle::ContractCheck check = oracle::CheckContract(
        PartyOf(winner_spec, winner), PartyOf(spec, loser), false, r.level,
        rlc_preconditions && Honest(winner_spec.writer) && Honest(spec.writer), start, between);
    check.explanation = spec.name + " lost to " + winner_spec.name + ": " + check.explanation;
    check.loser_abort = loser.report.abort;
    if (check.verdict == oracle::ContractVerdict::kMissedReconcile) ++r.missed_reconciles;
    if (check.verdict == oracle::ContractVerdict::kDeferred) ++r.deferred_cells;
    r.contract.push_back(std::move(check));
  }
}

// What the expectations about files need from the final snapshot.
struct FinalFiles {
  std::vector<int64_t> cardinalities;                 // DV sizes, sorted
  std::map<int64_t, std::vector<int64_t>> dv_of_row;  // id column value -> the DV of its file
};

FinalFiles FinalFilesOf(const Scenario& sc,
                        const std::optional<oracle::ReferenceSnapshot>& snapshot) {
  FinalFiles out;
  if (!snapshot) return out;
  // Only a `dv` expectation reads dv_of_row, and parsing every live row costs more than the rest
  // of the judgement: generated histories carry no expectation.
  const bool wants_dv_of_row =
      std::any_of(sc.expectations.begin(), sc.expectations.end(),
                  [](const Expectation& e) { return e.kind == Expectation::Kind::kDv; });
  for (const oracle::ReferenceFile& f : snapshot->files) {
    out.cardinalities.push_back(static_cast<int64_t>(f.deleted.size()));
    for (size_t position = 0; position < f.physical_values.size(); ++position) {
      if (!wants_dv_of_row || f.deleted.count(position)) continue;
      const nlohmann::json row =
          nlohmann::json::parse(oracle::RowText(f, position), nullptr, false);
      if (!row.is_object() || !row.contains("id") || !row["id"].is_number_integer()) continue;
      out.dv_of_row[row["id"].get<int64_t>()] =
          std::vector<int64_t>(f.deleted.begin(), f.deleted.end());
    }
  }
  std::sort(out.cardinalities.begin(), out.cardinalities.end());
  return out;
}

std::string EventsText(const TxnReport& t) {
  std::string out = "events:";
  for (const std::string& name : t.events) out += " " + name;
  return out;
}

// Whether an expectation about one transaction holds, and what happened instead.
std::pair<bool, std::string> JudgeTxnExpectation(const Expectation& e, const TxnReport& t) {
  using K = Expectation::Kind;
  switch (e.kind) {
    case K::kCommits:
      return {t.committed, Outcome(t)};
    case K::kAborts:
      return {t.attempted && !t.committed && !t.skipped && t.refused.empty() &&
                  (e.name.empty() || e.name == t.abort),
              Outcome(t)};
    case K::kRefuses:
      return {!t.refused.empty(), Outcome(t)};
    case K::kSkips:
      return {t.skipped, Outcome(t)};
    case K::kEvent:
      return {std::find(t.events.begin(), t.events.end(), e.name) != t.events.end(),
              t.events.empty() ? "no events" : EventsText(t)};
    case K::kNoEvents:
      return {t.events.empty(), EventsText(t)};
    case K::kRetries:
      return {t.retries == e.number, std::to_string(t.retries) + " retries"};
    case K::kDataChange:
      return {t.data_change == e.flag,
              !t.committed    ? Outcome(t)
              : t.data_change ? "dataChange=" + std::string(*t.data_change ? "true" : "false")
                              : "its file actions disagree on dataChange (or it has none)"};
    default:
      return {true, ""};
  }
}

// Whether an expectation about the table holds, and what the table is instead.
std::pair<bool, std::string> JudgeTableExpectation(const Expectation& e, const FinalFiles& files,
                                                   ScenarioReport& r) {
  using K = Expectation::Kind;
  switch (e.kind) {
    case K::kRows: {
      std::vector<std::vector<model::Value>> expected = e.rows;
      std::sort(expected.begin(), expected.end());
      return {expected == r.final_rows, "rows " + RowsOrNone(r.final_rows)};
    }
    case K::kRowCount:
      return {static_cast<int64_t>(r.final_rows.size()) == e.number,
              std::to_string(r.final_rows.size()) + " rows"};
    case K::kFiles:
      return {static_cast<int64_t>(files.cardinalities.size()) == e.number,
              std::to_string(files.cardinalities.size()) + " files"};
    case K::kDvCardinalities:
      return {files.cardinalities == e.numbers, "dv-cardinalities " + Numbers(files.cardinalities)};
    case K::kDv: {
      const auto it = files.dv_of_row.find(e.number);
      return {it != files.dv_of_row.end() && it->second == e.numbers,
              it == files.dv_of_row.end()
                  ? "no live row has id " + std::to_string(e.number)
                  : "dv " + std::to_string(e.number) + ": " + Numbers(it->second)};
    }
    case K::kMissedReconcile:
      r.missed_reconcile_expected = true;
      return {r.missed_reconciles > 0, "no missed reconcile"};
    default:
      return {true, ""};
  }
}

void CheckExpectations(const ScenarioRun& s,
                       const std::optional<oracle::ReferenceSnapshot>& final_snapshot) {
  const FinalFiles files = FinalFilesOf(s.sc, final_snapshot);
  for (const Expectation& e : s.sc.expectations) {
    const auto [holds, actual] = e.txn.empty() ? JudgeTableExpectation(e, files, s.r)
                                               : JudgeTxnExpectation(e, s.running.at(e.txn).report);
    if (!holds) s.r.mismatches.push_back({e.line, e.text, actual});
  }
}

// A directory table's record of its transactions, for judges outside rlc (tests/engines): per
// transaction that tried to commit, what it read and wanted to commit as the checker saw it, and
// how it ended. `_rlc/` is a folder Delta readers ignore (its name starts with '_').
Status WriteTransactionRecords(const ScenarioRun& s, const std::string& work_dir) {
  std::string out;
  const std::vector<model::Column> schema = s.sc.StartingTable().schema;
  for (const TxnSpec& spec : s.sc.txns) {
    const Running& run = s.running.at(spec.name);
    if (!run.report.attempted) continue;
    const conflict::PendingTransaction& p = run.prepared.pending;
    nlohmann::ordered_json j;
    j["name"] = spec.name;
    j["operation"] = run.report.operation;
    // The same operation for Delta Spark to run (tests/engines' operation fidelity).
    j["sparkSql"] = spec.operation.has_value() ? model::SparkSql(*spec.operation, schema) : "";
    // Delta's own rules judge it alone: no reconcile flag, an honest writer, an operation.
    j["baseline"] = !spec.flags.AnyOn() && !spec.writer.any() && spec.operation.has_value();
    // Its commit as its engine prepared it (before any check) is an honest operation's.
    j["honestWriter"] = !spec.writer.any() && spec.operation.has_value();
    // Reads beyond its operation's own (`reads` lines), which its SQL statement does not make.
    j["extraReads"] = spec.reads_whole_table || !spec.extra_reads.empty();
    // Its engine rewrites files instead of writing DVs (`writes copy-on-write`).
    j["copyOnWrite"] = !s.sc.table.merge_on_read;
    j["readVersion"] = p.read_version;
    j["readPredicates"] = p.read_predicates;
    j["readWholeTable"] = p.read_whole_table;
    j["readFiles"] = p.read_files;
    j["readAppIds"] = p.read_app_ids;
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (const delta::Action& a : p.actions)
      actions.push_back(nlohmann::ordered_json::parse(delta::WriteActionLine(a)));
    j["actions"] = std::move(actions);
    j["nothingToCommit"] = run.report.skipped;
    // Why an honest operation commits nothing, where Delta's own statement is held to the same:
    // the model failed it (a MERGE matching a target row twice, with Delta's verdict on it), or
    // it changed no row (Delta skips such an empty commit under Serializable).
    const model::OperationEffect& effect = run.prepared.effect;
    j["operationError"] =
        effect.error.has_value() ? nlohmann::ordered_json(*effect.error) : nlohmann::ordered_json();
    j["deltaMergeVerdict"] = run.prepared.delta_merge_verdict;
    j["changesNothing"] =
        run.prepared.changes_no_row && run.report.skipped && run.prepared.refused.empty();
    j["committed"] = run.report.committed;
    j["version"] = run.report.version;
    j["exception"] = run.report.abort;
    j["winnerVersion"] = run.report.abort_winner_version;
    out += j.dump() + "\n";
  }
  std::error_code ec;
  fs::create_directories(work_dir + "/_rlc", ec);
  std::ofstream file(work_dir + "/_rlc/transactions.jsonl", std::ios::trunc);
  file << out;
  if (!file.good()) return Status::IoError(work_dir + "/_rlc/transactions.jsonl: cannot write");
  return Status::Ok();
}

}  // namespace

bool ScenarioReport::oracle_holds() const {
  const bool rows_ok =
      rows_check == "holds" || rows_check.rfind("not judged", 0) == 0;  // as oracle::Judgement
  return rows_ok && cycles.empty() && invariant_findings.empty() &&
         (missed_reconciles == 0 || missed_reconcile_expected);
}

bool ScenarioReport::passed() const { return oracle_holds() && mismatches.empty(); }

Result<ScenarioReport> RunScenario(const Scenario& sc, const std::string& work_dir,
                                   const RunOptions& run) {
  RLC_ASSIGN_OR_RETURN(Store store, OpenStore(run.store, work_dir));
  ScenarioReport r;
  r.file = sc.file;
  r.title = sc.title;
  const model::LogicalTable start = sc.StartingTable();
  r.level = start.properties.isolation_level;
  simulator::Simulator sim(*store.storage, work_dir, start, OptionsOf(sc.table, run));
  RLC_RETURN_IF_ERROR(sim.Create(sc.table.files));

  ScenarioRun s(sc, sim, r, run.read_table_before ? store.storage.get() : nullptr, work_dir);
  s.history.initial = start;
  RLC_RETURN_IF_ERROR(RunSetup(s));
  if (run.read_table_before) {
    ReadTableBefore(work_dir, start, store.bytes(), r);
  } else {
    r.initial_rows_error = "not read in this run";
  }
  RLC_RETURN_IF_ERROR(RunSteps(s));
  if (run.store == TableStore::kDirectory)
    RLC_RETURN_IF_ERROR(WriteTransactionRecords(s, work_dir));
  if (sc.table.checkpoint_interval > 0) {
    // Every version from the first checkpoint on reads the same through it as through the JSON.
    RLC_RETURN_IF_ERROR(simulator::CheckCheckpointReplay(*store.storage, work_dir).status());
  }

  oracle::Judgement judgement = oracle::JudgeHistory(
      work_dir, s.history, r.level, s.by_rows,
      run.oracle_max_orders > 0 ? run.oracle_max_orders : oracle::kDefaultMaxOrders, store.bytes(),
      s.declared_writers);
  r.rows_check = std::move(judgement.rows_check);
  r.final_rows = std::move(judgement.actual_rows);
  r.serial_rows = std::move(judgement.serial_rows);
  r.cycles = std::move(judgement.cycles);
  r.invariant_findings = std::move(judgement.invariant_findings);
  r.invariant_versions = std::move(judgement.invariant_versions);
  r.declared_writer_findings = std::move(judgement.declared_writer_findings);
  JudgeContracts(s, start);
  CheckExpectations(s, judgement.final_snapshot);
  return r;
}

std::string RenderReport(const ScenarioReport& r, bool verbose) {
  std::string out = std::string(r.passed() ? "PASS " : "FAIL ") + r.file +
                    (r.title.empty() ? "" : " (" + r.title + ")") + "\n";
  if (r.passed() && !verbose) return out;
  out += "  isolation " + model::IsolationLevelName(r.level) + "\n";
  out += "  table before: " +
         (r.initial_rows_error.empty() ? RowsOrNone(r.initial_rows) : r.initial_rows_error) + "\n";
  for (const std::string& line : r.timeline) {
    out += "  | " + line + "\n";
    if (!verbose) continue;
    for (const TxnReport& t : r.txns) {  // a commit line starts with its transaction's name
      if (t.committed && line.rfind(t.name + " commits", 0) == 0) {
        for (const std::string& a : t.actions) out += "  |     " + a + "\n";
      }
      if (!t.abort.empty() && line.rfind(t.name + " aborts", 0) == 0) {
        for (const std::string& d : t.declines) out += "  |     declined: " + d + "\n";
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
  for (const std::string& f : r.declared_writer_findings)
    out += "  (c, its writer's own) " + f + "\n";
  for (const oracle::ContractCheck& c : r.contract) {
    out += "  (d) " + oracle::ContractVerdictName(c.verdict) + ": " + c.cell + "; " +
           c.explanation + "\n";
  }
  if (r.missed_reconciles > 0 && r.missed_reconcile_expected)
    out += "      (the file expects the missed reconcile)\n";
  for (const Mismatch& m : r.mismatches) {
    out += "  " + r.file + ":" + std::to_string(m.line) + ": expected: " + m.expected +
           "\n      actual: " + m.actual + "\n";
  }
  return out;
}

}  // namespace rlc::scenario
