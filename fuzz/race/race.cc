#include "fuzz/race/race.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "fuzz/oracle/judgement.h"
#include "fuzz/oracle/reference_reader.h"
#include "fuzz/scenario/operation_text.h"
#include "fuzz/simulator/checkpoint_check.h"
#include "fuzz/simulator/engine.h"
#include "impl/audit/log_audit.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/delta/log.h"
#include "impl/storage/storage.h"
#include "model/isolation/isolation.h"

namespace rlc::race {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int64_t kRows = 64;
constexpr int64_t kCopyIds = 1000;  // ids of rows the race adds in cases 3 and mixed
int FilesFor(const std::string& race_case) { return race_case == "2" ? 4 : 16; }
constexpr auto kBarrierWait = std::chrono::milliseconds(500);
// Delta's default: a checkpoint every 10 commits, which processes starting afresh read from.
constexpr int kCheckpointInterval = 10;

model::LogicalTable StartingTable(model::IsolationLevel level) {
  model::LogicalTable t = model::MakeTable(false);
  // Serializable by default: the oracle then has one order to replay. Under WriteSerializable the
  // commit order is tried first and explains a sound race; only if it does not are the orders in
  // which blind appends move enumerated (bounded: too many make the check "unknown", a problem).
  t.properties.isolation_level = level;
  for (int64_t id = 1; id <= kRows; ++id) t.Insert({id, "v" + std::to_string(id)});
  return t;
}

model::Operation OpFor(const std::string& race_case, int proc, int procs, int64_t seq,
                       std::mt19937_64& rng) {
  using model::Predicate;
  auto id = [&] { return static_cast<int64_t>(rng() % kRows) + 1; };
  auto by_id = [&] { return Predicate::Compare("id", Predicate::Op::kEq, id()); };
  auto update = [&] {
    return model::Update{by_id(),
                         {{"value", "u" + std::to_string(proc) + "-" + std::to_string(seq)}}};
  };
  // UPDATEs: each deletes the old image by DV and keeps the row as a new image, so a long race
  // never runs dry; now and then process 0 compacts the one-row images back into shared files,
  // where two UPDATEs can meet again.
  if (race_case == "2")
    return proc == 0 && seq % 8 == 7 ? model::Operation{model::Optimize{}}
                                     : model::Operation{update()};
  // An INSERT ... SELECT copies one original row under an id of the copies' range; now and then
  // the copies are deleted. (Copying rows under their own id would double them at every copy:
  // a long race would outgrow memory.)
  auto copy = [&] {
    return model::InsertSelect{
        by_id(),
        {{"id", kCopyIds + static_cast<int64_t>(rng() % kRows)}, {"value", std::string("copy")}}};
  };
  auto drop_copies = [&] {
    return model::Delete{Predicate::Compare("id", Predicate::Op::kGe, kCopyIds)};
  };
  if (race_case == "3") {
    if (proc == 0) return model::Optimize{};
    return rng() % 4 == 0 ? model::Operation{drop_copies()} : model::Operation{copy()};
  }
  if (race_case == "1") {
    if (proc == 0) return model::BlindInsert{{{100000 + seq * procs + proc, std::string("new")}}};
    return update();
  }
  if (race_case == "4a" || race_case == "4b") {
    if (proc == 0) return model::Optimize{};
    return update();
  }
  switch (rng() % 7) {  // mixed
    case 0:
      return rng() % 3 == 0 ? model::Operation{model::Delete{by_id()}} : model::Operation{update()};
    case 1:
      return update();
    case 2:
      return model::BlindInsert{
          {{kCopyIds + static_cast<int64_t>(rng() % kRows), std::string("new")}}};
    case 3:
      return copy();
    case 4:
      return drop_copies();
    default:
      return proc == 0 || rng() % 3 == 0 ? model::Operation{model::Optimize{}}
                                         : model::Operation{model::Delete{by_id()}};
  }
}

std::string RaceDir(const std::string& dir) { return dir + "/_race"; }

// Waits until every process has reached `round` (or the wait runs out: a process may be gone).
void Barrier(const std::string& dir, int round, int proc, int procs) {
  const std::string folder = RaceDir(dir) + "/barrier";
  std::ofstream(folder + "/r" + std::to_string(round) + "-p" + std::to_string(proc)).put('.');
  const auto until = Clock::now() + kBarrierWait;
  while (Clock::now() < until) {
    int here = 0;
    for (int p = 0; p < procs; ++p)
      here += fs::exists(folder + "/r" + std::to_string(round) + "-p" + std::to_string(p)) ? 1 : 0;
    if (here == procs) return;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

void SetTxnId(simulator::Transaction& t, const std::string& txn_id) {
  for (delta::Action& a : t.pending.actions) {
    if (auto* info = std::get_if<delta::CommitInfo>(&a))
      info->unknown_fields.push_back({"txnId", nlohmann::json(txn_id).dump()});
  }
}

// One process's loop; returns its exit status.
int Worker(const RaceOptions& o, int proc, Clock::time_point deadline) {
  auto storage = storage::NewLocalStorage();
  simulator::TableOptions options;
  options.file_prefix = "p" + std::to_string(proc) + "-";
  options.row_id_base = static_cast<uint64_t>(proc + 1) * 1000000000ull;
  options.foreign = o.foreign && proc == o.procs - 1;
  options.data_files = simulator::DataFileFormat::kParquet;
  options.checkpoint_interval = kCheckpointInterval;
  simulator::Simulator sim(*storage, o.dir, StartingTable(o.isolation), options);
  std::ofstream journal(RaceDir(o.dir) + "/journal-" + std::to_string(proc) + ".jsonl",
                        std::ios::app);
  std::mt19937_64 rng(o.seed * 1000003 + static_cast<uint64_t>(proc));
  for (int64_t seq = 0; Clock::now() < deadline; ++seq) {
    const model::Operation op = OpFor(o.race_case, proc, o.procs, seq, rng);
    Result<int64_t> latest = sim.LatestVersion();
    if (!latest.ok()) return 3;
    Result<simulator::Transaction> t = sim.Prepare(op, *latest, conflict::Flags::Every());
    if (!t.ok()) return 3;
    const std::string txn_id = "p" + std::to_string(proc) + "-" + std::to_string(seq);
    SetTxnId(*t, txn_id);
    journal << nlohmann::json{{"txnId", txn_id},
                              {"proc", proc},
                              {"op", model::Describe(op)},
                              {"readVersion", *latest}}
                   .dump()
            << "\n"
            << std::flush;
    Barrier(o.dir, static_cast<int>(seq), proc, o.procs);
    Result<simulator::CommitOutcome> c = sim.Commit(*t);
    if (!c.ok()) return 3;
    nlohmann::json outcome = {{"txnId", txn_id},
                              {"committed", c->committed},
                              {"version", c->version},
                              {"nothing", t->commits_nothing},
                              {"retries", c->optimize_retries}};
    if (c->abort)
      outcome["abort"] = {{"kind", conflict::ExceptionName(c->abort->kind)},
                          {"winnerOperation", c->abort->winner_operation}};
    nlohmann::json events = nlohmann::json::array();
    for (const conflict::Event& e : c->events)
      events.push_back({{"name", e.name}, {"winnerVersion", e.winner_version}});
    outcome["events"] = events;
    journal << outcome.dump() << "\n" << std::flush;
  }
  return 0;
}

struct Intent {
  int proc = 0;
  std::string op;
  int64_t read_version = 0;
};

std::string TxnIdOf(const delta::Commit& commit) {
  const delta::CommitInfo* info = commit.commit_info();
  if (info == nullptr) return "";
  for (const delta::UnknownField& f : info->unknown_fields) {
    if (f.key == "txnId") {
      const nlohmann::json v = nlohmann::json::parse(f.raw_json, nullptr, false);
      if (v.is_string()) return v.get<std::string>();
    }
  }
  return "";
}

// The journals: intents and outcomes by transaction id (a killed process may leave half a line).
struct Journals {
  std::map<std::string, Intent> intents;
  std::map<std::string, nlohmann::json> outcomes;
};

Journals ReadJournals(const std::string& dir, int procs) {
  Journals out;
  for (int p = 0; p < procs; ++p) {
    std::ifstream in(RaceDir(dir) + "/journal-" + std::to_string(p) + ".jsonl");
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_object()) continue;
      const std::string id = j.value("txnId", "");
      if (j.contains("op")) {
        out.intents[id] = {j.value("proc", 0), j.value("op", ""),
                           j.value("readVersion", int64_t{0})};
      } else {
        out.outcomes[id] = j;
      }
    }
  }
  return out;
}

// Forks the processes, kills process 0 if asked, and waits for every one.
Status RunProcesses(const RaceOptions& o, Clock::time_point deadline, RaceSummary& s) {
  std::vector<pid_t> children;
  for (int p = 0; p < o.procs; ++p) {
    const pid_t pid = ::fork();
    if (pid < 0) return Status::IoError("fork failed");
    if (pid == 0) ::_exit(Worker(o, p, deadline));
    children.push_back(pid);
  }
  bool killed = false;
  if (o.kill_after_ms >= 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(o.kill_after_ms));
    killed = ::kill(children[0], SIGKILL) == 0;
  }
  for (int p = 0; p < o.procs; ++p) {
    int status = 0;
    ::waitpid(children[static_cast<size_t>(p)], &status, 0);
    ProcessSummary ps;
    ps.proc = p;
    ps.killed = p == 0 && killed;
    if (!ps.killed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      s.problems.push_back("process " + std::to_string(p) + " failed (status " +
                           std::to_string(status) + ")");
    }
    s.processes.push_back(ps);
  }
  return Status::Ok();
}

// The log read back, version by version, as the committed history the oracle judges.
struct ReplayedLog {
  model::CommittedHistory history;
  std::map<int64_t, std::string> operation_at;  // version -> commitInfo.operation
  std::set<std::string> committed_ids;
};

Result<ReplayedLog> ReplayLog(const storage::Storage& storage, const std::string& dir,
                              const model::LogicalTable& start, const Journals& journals,
                              RaceSummary& s) {
  RLC_ASSIGN_OR_RETURN(delta::LogListing listing, delta::ListLog(storage, dir));
  s.versions = listing.latest_version();
  ReplayedLog out;
  out.history.initial = start;
  for (int64_t v = 1; v <= s.versions; ++v) {
    RLC_ASSIGN_OR_RETURN(delta::Commit commit, delta::ReadCommit(storage, dir, v));
    const delta::CommitInfo* info = commit.commit_info();
    out.operation_at[v] = info && info->operation ? *info->operation : "UNKNOWN";
    const std::string id = TxnIdOf(commit);
    const auto intent = journals.intents.find(id);
    if (intent == journals.intents.end()) {
      s.problems.push_back("version " + std::to_string(v) + " holds transaction '" + id +
                           "', which no journal names");
      continue;
    }
    out.committed_ids.insert(id);
    Result<model::Operation> op = scenario::ParseOperation(intent->second.op, start.schema);
    if (!op.ok()) return Status::Corrupt("journal: " + id + ": " + op.status().message());
    out.history.commits.push_back({id, intent->second.read_version, *op});
    // Case 3: an INSERT ... SELECT that committed past an OPTIMIZE.
    if (std::holds_alternative<model::InsertSelect>(*op)) {
      for (int64_t w = intent->second.read_version + 1; w < v; ++w) {
        if (out.operation_at[w] == "OPTIMIZE") {
          ++s.case3_commits;
          break;
        }
      }
    }
  }
  return out;
}

// Each process's attempts, commits, aborts and events; a commit the log does not hold is lost.
void CountOutcomes(Journals& journals, ReplayedLog& log, RaceSummary& s) {
  for (const auto& [id, j] : journals.outcomes) {
    ProcessSummary& ps = s.processes[static_cast<size_t>(journals.intents[id].proc)];
    ++ps.attempts;
    if (j.value("nothing", false)) ++ps.nothing_to_commit;
    if (j.value("committed", false)) {
      ++ps.commits;
      if (!log.committed_ids.count(id)) {
        ++s.lost_commits;
        s.problems.push_back("transaction " + id + " was told it committed at version " +
                             std::to_string(j.value("version", int64_t{-1})) +
                             ", which holds another");
      }
    }
    if (j.contains("abort")) {
      const std::string kind = j["abort"].value("kind", "");
      ++ps.aborts[kind];
      ++s.by_winning_operation[j["abort"].value("winnerOperation", "UNKNOWN")]["aborts " + kind];
    }
    for (const nlohmann::json& e : j.value("events", nlohmann::json::array())) {
      const std::string name = e.value("name", "");
      ++ps.events[name];
      ++s.by_winning_operation[log.operation_at[e.value("winnerVersion", int64_t{0})]][name];
    }
  }
}

// The oracle, the audit and duplicated rows.
void JudgeTable(const storage::Storage& storage, const std::string& dir,
                const model::LogicalTable& start, const model::CommittedHistory& history,
                RaceSummary& s) {
  const oracle::Judgement judgement =
      oracle::JudgeHistory(dir, history, start.properties.isolation_level);
  s.rows_check = judgement.rows_check;
  s.final_rows = static_cast<int64_t>(judgement.actual_rows.size());
  if (!judgement.rows_hold()) s.problems.push_back("(a) rows: " + judgement.rows_check);
  for (const std::string& c : judgement.cycles) s.problems.push_back("(b) forbidden cycle:\n" + c);
  for (const std::string& f : judgement.invariant_findings) s.problems.push_back("(c) " + f);
  Result<audit::AuditReport> audit = audit::AuditLog(storage, dir, {});
  if (!audit.ok()) {
    s.problems.push_back("rlc audit cannot read the table: " + audit.status().ToString());
  } else {
    for (const audit::Finding& f : audit->findings) {
      s.problems.push_back("audit: version " + std::to_string(f.version) + ": " + f.rule + ": " +
                           f.path + ": " + f.detail);
    }
  }
  Result<int64_t> checkpoints = simulator::CheckCheckpointReplay(storage, dir);
  if (!checkpoints.ok()) {
    s.problems.push_back("checkpoints: " + checkpoints.status().ToString());
  } else {
    s.checkpoints = *checkpoints;
  }
  const oracle::ReferenceResult read = oracle::ReadReferenceSnapshot(dir, -1);
  if (!read.snapshot) return;
  std::set<int64_t> seen;
  for (const std::string& row : oracle::LiveRows(*read.snapshot)) {
    const nlohmann::json j = nlohmann::json::parse(row, nullptr, false);
    if (j.is_object() && j.contains("_rid") && !seen.insert(j["_rid"].get<int64_t>()).second)
      ++s.duplicated_rows;
  }
  if (s.duplicated_rows > 0)
    s.problems.push_back(std::to_string(s.duplicated_rows) + " physical row(s) live twice");
}

// Data files no version ever added: left by a writer that died before its commit landed (they
// are never read: nothing names them).
int64_t UnreferencedFiles(const storage::Storage& storage, const std::string& dir, int64_t latest) {
  std::set<std::string> referenced;
  for (int64_t v = 0; v <= latest; ++v) {
    Result<delta::Commit> commit = delta::ReadCommit(storage, dir, v);
    if (!commit.ok()) continue;
    for (const delta::Action& a : commit->actions) {
      if (const auto* add = std::get_if<delta::AddFile>(&a)) referenced.insert(add->path);
    }
  }
  int64_t unreferenced = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    const std::string relative = fs::relative(entry.path(), dir).string();
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || relative.rfind("_delta_log/", 0) == 0 ||
        (extension != ".parquet" && extension != ".rows"))
      continue;  // the log's own files (checkpoints among them) are not data files
    if (!referenced.count(relative)) ++unreferenced;
  }
  return unreferenced;
}

}  // namespace

int64_t RaceSummary::CaseReconciles() const {
  auto events = [&](std::string_view name) {
    int64_t n = 0;
    for (const ProcessSummary& p : processes) {
      const auto it = p.events.find(std::string(name));
      n += it == p.events.end() ? 0 : it->second;
    }
    return n;
  };
  for (const conflict::CaseEntry& c : conflict::kCases) {
    if (c.id != race_case) continue;
    return c.event.empty() ? case3_commits : events(c.event);  // Case 3 reports no event of its own
  }
  int64_t all = case3_commits;
  for (const ProcessSummary& p : processes) {
    for (const auto& [name, n] : p.events) all += n;
  }
  return all;
}

Result<RaceSummary> RunRace(const RaceOptions& o) {
  static const std::set<std::string> kRaceCases = {"2", "3", "1", "4a", "4b", "mixed"};
  if (!kRaceCases.count(o.race_case)) {
    return Status::InvalidArgument("--case " + o.race_case + ": one of 2, 3, 1, 4a, 4b, mixed");
  }
  if (o.procs < 2 || o.procs > 64) return Status::InvalidArgument("--procs must be 2..64");
  std::error_code ec;
  if (fs::exists(o.dir, ec) && !fs::is_empty(o.dir, ec)) {
    return Status::InvalidArgument(o.dir + ": the folder must be empty or absent");
  }
  fs::create_directories(RaceDir(o.dir) + "/barrier", ec);
  if (ec) return Status::IoError(o.dir + ": " + ec.message());
  const model::LogicalTable start = StartingTable(o.isolation);
  auto storage = storage::NewLocalStorage();
  {
    simulator::TableOptions options;
    options.file_prefix = "init-";
    options.data_files = simulator::DataFileFormat::kParquet;
    simulator::Simulator creator(*storage, o.dir, start, options);
    RLC_RETURN_IF_ERROR(creator.Create(FilesFor(o.race_case)));
  }
  RaceSummary s;
  s.race_case = o.race_case;
  s.isolation = model::IsolationLevelName(o.isolation);
  s.procs = o.procs;
  const auto started = Clock::now();
  RLC_RETURN_IF_ERROR(RunProcesses(
      o, started + std::chrono::milliseconds(static_cast<int64_t>(o.seconds * 1000)), s));
  s.seconds = std::chrono::duration<double>(Clock::now() - started).count();

  Journals journals = ReadJournals(o.dir, o.procs);
  RLC_ASSIGN_OR_RETURN(ReplayedLog log, ReplayLog(*storage, o.dir, start, journals, s));
  CountOutcomes(journals, log, s);
  JudgeTable(*storage, o.dir, start, log.history, s);
  s.unreferenced_files = UnreferencedFiles(*storage, o.dir, s.versions);
  return s;
}

std::string RaceSummaryJson(const RaceSummary& s) {
  nlohmann::ordered_json j;
  j["case"] = s.race_case;
  j["isolation"] = s.isolation;
  j["procs"] = s.procs;
  j["seconds"] = s.seconds;
  j["versions"] = s.versions;
  nlohmann::ordered_json procs = nlohmann::ordered_json::array();
  for (const ProcessSummary& p : s.processes) {
    procs.push_back({{"proc", p.proc},
                     {"killed", p.killed},
                     {"attempts", p.attempts},
                     {"commits", p.commits},
                     {"nothingToCommit", p.nothing_to_commit},
                     {"aborts", p.aborts},
                     {"events", p.events}});
  }
  j["processes"] = procs;
  j["byWinningOperation"] = s.by_winning_operation;
  j["case3Commits"] = s.case3_commits;
  j["caseReconciles"] = s.CaseReconciles();
  j["finalRows"] = s.final_rows;
  j["duplicatedRows"] = s.duplicated_rows;
  j["lostCommits"] = s.lost_commits;
  j["unreferencedFiles"] = s.unreferenced_files;
  j["checkpoints"] = s.checkpoints;
  j["rowsCheck"] = s.rows_check;
  j["problems"] = s.problems;
  return j.dump();
}

}  // namespace rlc::race
