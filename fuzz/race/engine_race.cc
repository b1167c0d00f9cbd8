#include "fuzz/race/engine_race.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "fuzz/oracle/reference_reader.h"
#include "model/semantics/operation.h"

namespace rlc::race {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kDefaultStatementMillis = 500;
constexpr int64_t kMaxStatementMillis = 30000;
constexpr int kStatementsPerSecond = 20;  // more than an engine runs: a plan never runs dry

std::string EngineFolder(const RaceOptions& o) { return RaceFolder(o.dir) + "/engine"; }

int EngineProc(const RaceOptions& o, int e) { return o.procs + e; }

// Starts `argv` with its output in `log`; the child's pid.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  ::_exit(127);
}

Status WritePlan(const RaceOptions& o, const RaceShape& shape, int e) {
  const int proc = EngineProc(o, e);
  const model::LogicalTable start = StartingTable(o, shape);
  std::mt19937_64 rng(o.seed * 1000003 + static_cast<uint64_t>(proc));
  const std::string path = RaceFolder(o.dir) + "/plan-" + std::to_string(proc) + ".jsonl";
  std::ofstream plan(path);
  const int64_t statements = static_cast<int64_t>(o.seconds * kStatementsPerSecond) + 100;
  for (int64_t seq = 0; seq < statements; ++seq) {
    const model::Operation op = EngineOpFor(o, shape, e, seq, rng);
    const std::string sql = model::SparkSql(op, start.schema);
    if (sql.empty()) return Status::Unsupported("no Spark SQL for " + model::Describe(op));
    plan << nlohmann::json{{"txnId", "s" + std::to_string(proc) + "-" + std::to_string(seq)},
                           {"op", model::Describe(op)},
                           {"sql", sql}}
                .dump()
         << "\n";
  }
  plan.flush();
  if (!plan) return Status::IoError(path + ": cannot write the engine's plan");
  return Status::Ok();
}

std::string LogOf(const RaceOptions& o, const std::string& what) {
  return RaceFolder(o.dir) + "/engine-" + what + ".log";
}

// Waits until every engine process wrote its ready file; one that exits first is an error.
Status AwaitReady(const RaceOptions& o, const EngineProcesses& engine,
                  std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (size_t e = 0; e < engine.pids.size(); ++e) {
    const int proc = EngineProc(o, static_cast<int>(e));
    const std::string ready = EngineFolder(o) + "/ready-" + std::to_string(proc);
    while (!fs::exists(ready)) {
      int status = 0;
      if (::waitpid(engine.pids[e], &status, WNOHANG) == engine.pids[e]) {
        return Status::Unsupported(o.engine + " process " + std::to_string(proc) +
                                   " exited (status " + std::to_string(status) +
                                   ") before it was ready: see " + LogOf(o, std::to_string(proc)));
      }
      if (std::chrono::steady_clock::now() > until) {
        return Status::Unsupported(o.engine + " process " + std::to_string(proc) +
                                   " was not ready in time: see " + LogOf(o, std::to_string(proc)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return Status::Ok();
}

// The live rows of one version as the oracle reads them: their count and digest.
struct VersionRead {
  int64_t rows = 0;
  uint64_t digest = 0;
};

Result<VersionRead> OracleRead(const std::string& dir, int64_t version) {
  const oracle::ReferenceResult read = oracle::ReadReferenceSnapshot(dir, version);
  if (!read.snapshot) return Status::Corrupt(read.error);
  VersionRead out;
  for (const oracle::ReferenceFile& f : read.snapshot->files) {
    size_t id_column = f.columns.size(), value_column = f.columns.size();
    for (size_t k = 0; k < f.columns.size(); ++k) {
      if (f.columns[k] == "id") id_column = k;
      if (f.columns[k] == "value") value_column = k;
    }
    if (id_column == f.columns.size() || value_column == f.columns.size())
      return Status::Corrupt(f.path + ": no id or value column");
    for (size_t i = 0; i < f.physical_values.size(); ++i) {
      if (f.deleted.count(i)) continue;
      const oracle::json::Value& row = f.physical_values[i];
      const oracle::json::Value& value = row.items[value_column];
      const std::string text =
          row.items[id_column].text + ":" + (value.is_null() ? std::string(1, '\0') : value.text);
      out.digest +=
          ::crc32(0, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size()));
      ++out.rows;
    }
  }
  return out;
}

}  // namespace

Result<EngineProcesses> StartEngine(const RaceOptions& o, const RaceShape& shape,
                                    std::chrono::seconds ready_timeout) {
  if (o.engine != "delta-spark")
    return Status::InvalidArgument("--engine " + o.engine + ": the one engine is delta-spark");
  if (o.engine_racer.empty()) {
    return Status::InvalidArgument(
        "--engine delta-spark needs --engine-racer: the command that runs one Delta Spark racer "
        "(tests/engines/delta_spark_racer.py)");
  }
  if (o.engine_procs < 1 || o.engine_procs > 4)
    return Status::InvalidArgument("--engine-procs must be 1..4");
  std::error_code ec;
  fs::create_directories(EngineFolder(o), ec);
  if (ec) return Status::IoError(EngineFolder(o) + ": " + ec.message());
  EngineProcesses engine;
  for (int e = 0; e < o.engine_procs; ++e) {
    RLC_RETURN_IF_ERROR(WritePlan(o, shape, e));
    const std::string proc = std::to_string(EngineProc(o, e));
    engine.pids.push_back(
        Spawn({o.engine_racer, "race", o.dir, RaceFolder(o.dir), proc}, LogOf(o, proc)));
    if (engine.pids.back() < 0) return Status::IoError("fork failed");
  }
  const Status ready = AwaitReady(o, engine, ready_timeout);
  if (!ready.ok()) {
    for (const pid_t pid : engine.pids) ::kill(pid, SIGKILL);
    for (const pid_t pid : engine.pids) ::waitpid(pid, nullptr, 0);
  }
  RLC_RETURN_IF_ERROR(ready);
  return engine;
}

Status SignalStart(const RaceOptions& o, std::chrono::system_clock::time_point deadline) {
  const std::string temp = EngineFolder(o) + "/.start.tmp";
  std::ofstream(temp)
      << std::chrono::duration_cast<std::chrono::milliseconds>(deadline.time_since_epoch()).count()
      << "\n";
  std::error_code ec;
  fs::rename(temp, EngineFolder(o) + "/start", ec);
  if (ec) return Status::IoError(EngineFolder(o) + "/start: " + ec.message());
  return Status::Ok();
}

int64_t EngineStatementMillis(const RaceOptions& o) {
  int64_t longest = 0;
  for (int e = 0; e < o.engine_procs; ++e) {
    std::ifstream go(EngineFolder(o) + "/go-" + std::to_string(EngineProc(o, e)));
    int64_t seq = 0, millis = 0;
    if (go >> seq >> millis) longest = std::max(longest, millis);
  }
  return longest > 0 ? std::min(longest, kMaxStatementMillis) : kDefaultStatementMillis;
}

Status CompareEngineReads(const RaceOptions& o, RaceSummary& s) {
  const std::string out = RaceFolder(o.dir) + "/engine-read.jsonl";
  const pid_t pid = Spawn({o.engine_racer, "read", o.dir, out, std::to_string(o.engine_read_every)},
                          LogOf(o, "read"));
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    s.problems.push_back(o.engine + " could not read the table: see " + LogOf(o, "read"));
    return Status::Ok();
  }
  std::ifstream in(out);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) return Status::Corrupt(out + ": not a JSON line: " + line);
    const int64_t v = j.value("version", int64_t{-1});
    ++s.engine_read_versions;
    Result<VersionRead> oracle = OracleRead(o.dir, v);
    if (!oracle.ok()) {
      ++s.engine_read_differences;
      s.problems.push_back("version " + std::to_string(v) +
                           ": the oracle cannot read it: " + oracle.status().ToString());
      continue;
    }
    const int64_t rows = j.value("rows", int64_t{-1});
    const std::string digest = j.value("digest", "");
    if (rows != oracle->rows || digest != std::to_string(oracle->digest)) {
      ++s.engine_read_differences;
      s.problems.push_back("version " + std::to_string(v) + ": " + o.engine + " reads " +
                           std::to_string(rows) + " rows (digest " + digest + "), the oracle " +
                           std::to_string(oracle->rows) + " (digest " +
                           std::to_string(oracle->digest) + ")");
    }
  }
  const int64_t every = o.engine_read_every;
  const int64_t expected = s.versions / every + 1 + (s.versions % every != 0 ? 1 : 0);
  if (s.engine_read_versions != expected) {
    s.problems.push_back(o.engine + " read " + std::to_string(s.engine_read_versions) +
                         " versions; the log's " + std::to_string(s.versions + 1) + " give " +
                         std::to_string(expected));
  }
  return Status::Ok();
}

}  // namespace rlc::race
