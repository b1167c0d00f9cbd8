#include "fuzz/race/race.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "fuzz/oracle/judgement.h"
#include "fuzz/oracle/reference_reader.h"
#include "fuzz/race/engine_race.h"
#include "fuzz/race/race_ops.h"
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

constexpr auto kBarrierWait = std::chrono::milliseconds(500);
// Delta's default: a checkpoint every 10 commits, which processes starting afresh read from.
constexpr int kCheckpointInterval = 10;
constexpr auto kEngineReadyTimeout = std::chrono::seconds(600);

// Waits until every process has reached `round` (or the wait runs out: a process may be gone).
void Barrier(const std::string& dir, int round, int proc, int procs) {
  const std::string folder = RaceFolder(dir) + "/barrier";
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

// Against another engine: a random part of its last statement's duration (times `scale`), so
// that this process's commits land before, inside and after the engine's windows.
void PaceAgainstEngine(const RaceOptions& o, std::mt19937_64& rng, int64_t scale) {
  const int64_t millis = EngineStatementMillis(o) * scale;
  std::this_thread::sleep_for(
      std::chrono::milliseconds(static_cast<int64_t>(rng() % static_cast<uint64_t>(millis + 1))));
}

nlohmann::json OutcomeLine(const std::string& txn_id, const simulator::Transaction& t,
                           const simulator::CommitOutcome& c) {
  nlohmann::json outcome = {{"txnId", txn_id},
                            {"committed", c.committed},
                            {"version", c.version},
                            {"nothing", t.commits_nothing},
                            {"retries", c.optimize_retries}};
  if (c.abort) {
    outcome["abort"] = {{"kind", conflict::ExceptionName(c.abort->kind)},
                        {"winnerOperation", c.abort->winner_operation},
                        {"winnerVersion", c.abort->winner_version}};
  }
  nlohmann::json events = nlohmann::json::array();
  for (const conflict::Event& e : c.events)
    events.push_back({{"name", e.name}, {"winnerVersion", e.winner_version}});
  outcome["events"] = events;
  nlohmann::json declines = nlohmann::json::array();
  for (const conflict::Decline& d : c.declines) {
    declines.push_back({{"case", d.case_id},
                        {"winnerVersion", d.winner_version},
                        {"path", d.path},
                        {"reason", d.reason}});
  }
  outcome["declines"] = declines;
  return outcome;
}

int Failed(int proc, const Status& status) {
  std::cerr << "race process " << proc << ": " << status.ToString() << "\n";
  return 3;
}

// One process's loop; returns its exit status.
int Worker(const RaceOptions& o, int proc, Clock::time_point deadline) {
  auto storage = storage::NewLocalStorage();
  const RaceShape shape = ShapeOf(o);
  simulator::TableOptions options;
  options.file_prefix = "p" + std::to_string(proc) + "-";
  options.row_id_base = static_cast<uint64_t>(proc + 1) * 1000000000ull;
  options.foreign = o.foreign && proc == o.procs - 1;
  options.data_files = simulator::DataFileFormat::kParquet;
  options.checkpoint_interval = kCheckpointInterval;
  options.explain_declines = true;
  if (shape.optimize_target_rows > 0) options.optimize_target_rows = shape.optimize_target_rows;
  // The rows come from the files; the model's table gives the schema and properties.
  simulator::Simulator sim(*storage, o.dir, ModelTable(o, shape), options);
  std::ofstream journal(RaceFolder(o.dir) + "/journal-" + std::to_string(proc) + ".jsonl",
                        std::ios::app);
  std::mt19937_64 rng(o.seed * 1000003 + static_cast<uint64_t>(proc));
  for (int64_t seq = 0; Clock::now() < deadline; ++seq) {
    const model::Operation op = RlcOpFor(o, shape, proc, seq, rng);
    Result<int64_t> latest = sim.LatestVersion();
    if (!latest.ok()) return Failed(proc, latest.status());
    Result<simulator::Transaction> t = sim.Prepare(op, *latest, conflict::Flags::Every());
    if (!t.ok()) return Failed(proc, t.status());
    const std::string txn_id = "p" + std::to_string(proc) + "-" + std::to_string(seq);
    SetTxnId(*t, txn_id);
    journal << nlohmann::json{{"txnId", txn_id},
                              {"proc", proc},
                              {"op", model::Describe(op)},
                              {"readVersion", *latest}}
                   .dump()
            << "\n"
            << std::flush;
    if (o.engine.empty()) {
      Barrier(o.dir, static_cast<int>(seq), proc, o.procs);
    } else {
      PaceAgainstEngine(o, rng, 2);  // between the read and the commit
    }
    Result<simulator::CommitOutcome> c = sim.Commit(*t);
    if (!c.ok()) return Failed(proc, c.status());
    journal << OutcomeLine(txn_id, *t, *c).dump() << "\n" << std::flush;
    // And idle after it: a window of the engine's with no commit of rlc's in it lets the engine
    // commit too (any added file aborts Delta's DML on an unpartitioned table).
    if (!o.engine.empty()) PaceAgainstEngine(o, rng, 2);
  }
  return 0;
}

struct Intent {
  int proc = 0;
  std::string op;
  int64_t read_version = -1;  // -1: another engine's, whose commitInfo says it
  std::string engine = "rlc";
};

std::string TxnIdOf(const delta::Commit& commit) {
  const delta::CommitInfo* info = commit.commit_info();
  if (info == nullptr) return "";
  for (const delta::UnknownField& f : info->unknown_fields) {
    // rlc's processes write txnId; Delta Spark writes the session's commitInfo.userMetadata.
    if (f.key == "txnId" || f.key == "userMetadata") {
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
  for (int p = 0; p < procs; ++p) {  // rlc's processes, then the engine's
    std::ifstream in(RaceFolder(dir) + "/journal-" + std::to_string(p) + ".jsonl");
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_object()) continue;
      const std::string id = j.value("txnId", "");
      if (j.contains("op")) {
        out.intents[id] = {j.value("proc", 0), j.value("op", ""),
                           j.value("readVersion", int64_t{-1}), j.value("engine", "rlc")};
      } else {
        out.outcomes[id] = j;
      }
    }
  }
  return out;
}

// Waits for one process and notes how it ended.
void Reap(pid_t pid, int proc, const std::string& engine, bool killed, RaceSummary& s) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  ProcessSummary ps;
  ps.proc = proc;
  ps.engine = engine;
  ps.killed = killed;
  if (!killed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    s.problems.push_back(engine + " process " + std::to_string(proc) + " failed (status " +
                         std::to_string(status) + ")");
  }
  s.processes.push_back(ps);
}

// Starts the engine's processes (if any) and waits until they are ready, forks rlc's, kills the
// ones asked for, and waits for every one.
Status RunProcesses(const RaceOptions& o, RaceSummary& s) {
  EngineProcesses engine;
  if (!o.engine.empty()) {
    RLC_ASSIGN_OR_RETURN(engine, StartEngine(o, ShapeOf(o), kEngineReadyTimeout));
  }
  const auto race_time = std::chrono::milliseconds(static_cast<int64_t>(o.seconds * 1000));
  const auto started = Clock::now();
  if (!o.engine.empty())
    RLC_RETURN_IF_ERROR(SignalStart(o, std::chrono::system_clock::now() + race_time));
  std::vector<pid_t> children;
  for (int p = 0; p < o.procs; ++p) {
    const pid_t pid = ::fork();
    if (pid < 0) return Status::IoError("fork failed");
    if (pid == 0) ::_exit(Worker(o, p, started + race_time));
    children.push_back(pid);
  }
  bool killed = false, engine_killed = false;
  if (o.kill_after_ms >= 0) {
    std::this_thread::sleep_until(started + std::chrono::milliseconds(o.kill_after_ms));
    killed = ::kill(children[0], SIGKILL) == 0;
  }
  if (o.kill_engine_after_ms >= 0 && !engine.pids.empty()) {
    std::this_thread::sleep_until(started + std::chrono::milliseconds(o.kill_engine_after_ms));
    engine_killed = ::kill(engine.pids[0], SIGKILL) == 0;
  }
  for (int p = 0; p < o.procs; ++p)
    Reap(children[static_cast<size_t>(p)], p, "rlc", p == 0 && killed, s);
  for (size_t e = 0; e < engine.pids.size(); ++e)
    Reap(engine.pids[e], o.procs + static_cast<int>(e), o.engine, e == 0 && engine_killed, s);
  s.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return Status::Ok();
}

// The log read back, version by version, as the committed history the oracle judges.
struct ReplayedLog {
  model::CommittedHistory history;
  std::map<int64_t, std::string> operation_at;  // version -> commitInfo.operation
  std::map<int64_t, std::string> engine_at;     // version -> the engine that committed it
  std::set<std::string> committed_ids;
  std::map<std::string, int64_t> version_of;  // committed transaction id -> its version
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
    out.version_of[id] = v;
    out.engine_at[v] = intent->second.engine;
    Result<model::Operation> op = scenario::ParseOperation(intent->second.op, start.schema);
    if (!op.ok()) return Status::Corrupt("journal: " + id + ": " + op.status().message());
    // Another engine's read version is the one its commitInfo records.
    int64_t read_version = intent->second.read_version;
    if (read_version < 0) {
      if (info == nullptr || !info->read_version.has_value()) {
        s.problems.push_back("version " + std::to_string(v) + " (" + id +
                             ") has no commitInfo.readVersion");
        continue;
      }
      read_version = *info->read_version;
    }
    out.history.commits.push_back({id, read_version, *op});
    // Case 3: rlc's INSERT ... SELECT that committed past an OPTIMIZE.
    if (std::holds_alternative<model::InsertSelect>(*op) && intent->second.engine == "rlc") {
      for (int64_t w = read_version + 1; w < v; ++w) {
        if (out.operation_at[w] == "OPTIMIZE") {
          ++s.case3_commits;
          break;
        }
      }
    }
  }
  return out;
}

std::string ReverseRemapEvent() {
  for (const conflict::CaseEntry& c : conflict::kCases) {
    if (c.id == "4b") return std::string(c.event);
  }
  return "";
}

// A winning operation as the summary counts it: with another engine racing, named with the
// engine that committed it ("delta-spark DELETE").
std::string WinnerKey(const RaceSummary& s, const ReplayedLog& log, int64_t version,
                      const std::string& operation) {
  if (s.engine.empty()) return operation;
  const auto engine = log.engine_at.find(version);
  return (engine == log.engine_at.end() ? std::string("unknown") : engine->second) + " " +
         operation;
}

// Each process's attempts, commits, aborts and events; a commit the log does not hold is lost.
void CountOutcomes(Journals& journals, ReplayedLog& log, RaceSummary& s) {
  for (const auto& [id, j] : journals.outcomes) {
    const Intent& intent = journals.intents[id];
    ProcessSummary& ps = s.processes[static_cast<size_t>(intent.proc)];
    ++ps.attempts;
    if (j.contains("error")) {
      s.problems.push_back(intent.engine + " process " + std::to_string(intent.proc) + ": " + id +
                           " (" + intent.op + ") failed: " + j.value("error", ""));
    }
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
      // rlc's aborts name the winner's version; Delta Spark's the winner's transaction id.
      int64_t winner = j["abort"].value("winnerVersion", int64_t{-1});
      const auto named = log.version_of.find(j["abort"].value("winnerTxnId", ""));
      if (named != log.version_of.end()) winner = named->second;
      ++s.by_winning_operation[WinnerKey(
          s, log, winner, j["abort"].value("winnerOperation", "UNKNOWN"))]["aborts " + kind];
      // Why the cases left this loser to Delta's rules: the reconciles the race missed.
      for (const nlohmann::json& d : j.value("declines", nlohmann::json::array()))
        ++s.abort_declines["case " + d.value("case", "") + ": " + d.value("reason", "")];
    }
    for (const nlohmann::json& e : j.value("events", nlohmann::json::array())) {
      const std::string name = e.value("name", "");
      ++ps.events[name];
      const int64_t winner = e.value("winnerVersion", int64_t{0});
      ++s.by_winning_operation[WinnerKey(s, log, winner, log.operation_at[winner])][name];
      // Another engine's OPTIMIZE records no composition (its tombstones are untagged): a
      // reverse remap against it would trust what nothing vouches for.
      const auto engine = log.engine_at.find(winner);
      if (name == ReverseRemapEvent() && engine != log.engine_at.end() && engine->second != "rlc") {
        s.problems.push_back(id + " reverse-remapped its DML onto " + engine->second +
                             "'s OPTIMIZE at version " + std::to_string(winner) +
                             ", which records no composition");
      }
    }
  }
}

// The oracle, the audit, duplicated rows and keys.
void JudgeTable(const storage::Storage& storage, const std::string& dir,
                const model::LogicalTable& start, const RaceShape& shape,
                const model::CommittedHistory& history, RaceSummary& s) {
  const oracle::Judgement judgement = oracle::JudgeHistory(
      dir, history, start.properties.isolation_level, {}, oracle::kDefaultMaxOrders,
      oracle::LocalFiles(), {}, [&](const std::vector<model::Value>& row) {
        const auto* id = std::get_if<int64_t>(&row[0]);
        return id == nullptr || Reachable(shape, *id);
      });
  s.rows_check = judgement.rows_check;
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
  // A row rlc wrote keeps its hidden identity wherever rlc moves it; another engine's rewrite
  // drops it. Every engine keeps the starting table's ids unique (no operation copies a row under
  // one of them), so an id below the copies' range live twice is a duplicated row too.
  // The rows no operation reaches (a large table's; the model leaves them out) must all be live
  // still, each once, with its starting value.
  std::set<int64_t> seen, keys;
  int64_t unreached = 0, unreached_changed = 0;
  for (const std::string& row : oracle::LiveRows(*read.snapshot)) {
    ++s.final_rows;
    const nlohmann::json j = nlohmann::json::parse(row, nullptr, false);
    if (!j.is_object()) continue;
    if (j.contains("_rid") && !seen.insert(j["_rid"].get<int64_t>()).second) ++s.duplicated_rows;
    if (!j.contains("id") || !j["id"].is_number_integer()) continue;
    const int64_t id = j["id"].get<int64_t>();
    if (id < shape.copy_base && !keys.insert(id).second) ++s.duplicated_keys;
    if (Reachable(shape, id)) continue;
    ++unreached;
    if (j.value("value", "") != "v" + std::to_string(id)) ++unreached_changed;
  }
  const int64_t expected_unreached = shape.rows - std::min(shape.rows, shape.hot_ids);
  if (unreached != expected_unreached || unreached_changed != 0) {
    s.problems.push_back("the rows no operation reaches: " + std::to_string(unreached) +
                         " live of " + std::to_string(expected_unreached) + ", " +
                         std::to_string(unreached_changed) + " with another value");
  }
  if (s.duplicated_rows > 0)
    s.problems.push_back(std::to_string(s.duplicated_rows) + " physical row(s) live twice");
  if (s.duplicated_keys > 0)
    s.problems.push_back(std::to_string(s.duplicated_keys) + " id(s) of the table live twice");
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

std::string RaceFolder(const std::string& dir) { return dir + "/_race"; }

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
  // Against another engine one rlc process races it; otherwise rlc's processes race each other.
  const int min_procs = o.engine.empty() ? 2 : 1;
  if (o.procs < min_procs || o.procs > 64) {
    return Status::InvalidArgument("--procs must be " + std::to_string(min_procs) + "..64" +
                                   (o.engine.empty() ? "" : " against an engine"));
  }
  std::error_code ec;
  if (fs::exists(o.dir, ec) && !fs::is_empty(o.dir, ec)) {
    return Status::InvalidArgument(o.dir + ": the folder must be empty or absent");
  }
  fs::create_directories(RaceFolder(o.dir) + "/barrier", ec);
  if (ec) return Status::IoError(o.dir + ": " + ec.message());
  if (o.rows < 1 || o.rows > 10000000) return Status::InvalidArgument("--rows must be 1..10000000");
  const RaceShape shape = ShapeOf(o);
  auto storage = storage::NewLocalStorage();
  {
    simulator::TableOptions options;
    options.file_prefix = "init-";
    options.data_files = simulator::DataFileFormat::kParquet;
    simulator::Simulator creator(*storage, o.dir, StartingTable(o, shape), options);
    RLC_RETURN_IF_ERROR(creator.Create(shape.files));
  }
  const model::LogicalTable start = ModelTable(o, shape);  // what the oracle replays
  RaceSummary s;
  s.race_case = o.race_case;
  s.isolation = model::IsolationLevelName(o.isolation);
  s.procs = o.procs;
  s.engine = o.engine;
  RLC_RETURN_IF_ERROR(RunProcesses(o, s));

  Journals journals = ReadJournals(o.dir, o.procs + (o.engine.empty() ? 0 : o.engine_procs));
  RLC_ASSIGN_OR_RETURN(ReplayedLog log, ReplayLog(*storage, o.dir, start, journals, s));
  CountOutcomes(journals, log, s);
  JudgeTable(*storage, o.dir, start, shape, log.history, s);
  s.unreferenced_files = UnreferencedFiles(*storage, o.dir, s.versions);
  if (!o.engine.empty()) RLC_RETURN_IF_ERROR(CompareEngineReads(o, s));
  return s;
}

std::string RaceSummaryJson(const RaceSummary& s) {
  nlohmann::ordered_json j;
  j["case"] = s.race_case;
  j["isolation"] = s.isolation;
  j["procs"] = s.procs;
  if (!s.engine.empty()) {
    j["engine"] = s.engine;
    j["engineReadVersions"] = s.engine_read_versions;
    j["engineReadDifferences"] = s.engine_read_differences;
  }
  j["seconds"] = s.seconds;
  j["versions"] = s.versions;
  nlohmann::ordered_json procs = nlohmann::ordered_json::array();
  for (const ProcessSummary& p : s.processes) {
    procs.push_back({{"proc", p.proc},
                     {"engine", p.engine},
                     {"killed", p.killed},
                     {"attempts", p.attempts},
                     {"commits", p.commits},
                     {"nothingToCommit", p.nothing_to_commit},
                     {"aborts", p.aborts},
                     {"events", p.events}});
  }
  j["processes"] = procs;
  j["byWinningOperation"] = s.by_winning_operation;
  j["abortDeclines"] = s.abort_declines;
  j["case3Commits"] = s.case3_commits;
  j["caseReconciles"] = s.CaseReconciles();
  j["finalRows"] = s.final_rows;
  j["duplicatedRows"] = s.duplicated_rows;
  j["duplicatedKeys"] = s.duplicated_keys;
  j["lostCommits"] = s.lost_commits;
  j["unreferencedFiles"] = s.unreferenced_files;
  j["checkpoints"] = s.checkpoints;
  j["rowsCheck"] = s.rows_check;
  j["problems"] = s.problems;
  return j.dump();
}

}  // namespace rlc::race
