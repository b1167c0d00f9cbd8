// Racing processes on one on-disk table: K OS processes commit to one _delta_log at the same
// moment, coordinated only by marker files, and the oracle judges what they left.
//
// Concern: the race and its verdict. RunRace creates a table in `dir` (`rows` rows: 64 in 16
// Parquet files, or for a larger table files of 10,000 rows; a checkpoint every 10 commits,
// written by whichever process commits that version,
// merge-on-read, statistics on), then forks `procs` processes. Each loops until the deadline:
// it picks an operation suited to the case (below), prepares it on the latest version with every
// reconcile flag on, writes an intent line to its journal (_race/journal-<p>.jsonl: the
// transaction id, the operation as text, the read version), waits at a barrier file with the
// others so that their read and commit windows overlap, commits (put-if-absent; on a lost race
// the checker), and journals the outcome. The commit's commitInfo carries the transaction id
// (`txnId`), so the log itself says which journaled operation each version is.
//   case 2   DELETE or UPDATE of one row by id, every process: Case 2 merges DVs
//   case 3   process 0 OPTIMIZEs, the others INSERT ... SELECT one row: Case 3
//   case 1   Serializable table; process 0 INSERTs ids far above the table's, the others DELETE
//            by id: Case 1 rules the inserted files out
//   case 4a / 4b   process 0 OPTIMIZEs, the others DELETE by id: 4a when the OPTIMIZE loses,
//            4b when it wins
//   mixed    every operation, every process
// With `foreign`, the last process writes like another engine (simulator/engine.h). The table is
// Serializable unless `isolation` says WriteSerializable.
// With `engine` "delta-spark", `engine_procs` real Delta Spark processes race too (engine_race.h:
// the racer command, its plan of SQL statements, how rlc's processes pace their windows by it),
// and at the end Delta Spark reads every version, which must match the oracle's read.
// Afterwards, from the log and the journals: the committed history in version order (a version
// whose transaction no journal names is a problem; a transaction a journal says committed at a
// version that holds another is a lost commit); the oracle's checks (a)-(c) on it through its own
// reader; `rlc audit`'s rules; every version from the first checkpoint read through it and through
// the JSON alone, alike; duplicated physical rows (one hidden row identity live twice); and
// per process and per winning operation: commits, aborts by kind, reconcile events; and why
// the cases declined the losers that aborted (their checks keep a decline log).
// `kill_after_ms` >= 0 kills process 0 with SIGKILL that long after the start (the kill test):
// the race must still lose nothing committed, and only unreferenced files may remain.
//
// Thread-safety: RunRace forks; call it from a single-threaded process.
#ifndef RLC_FUZZ_RACE_RACE_H_
#define RLC_FUZZ_RACE_RACE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "model/semantics/table.h"

namespace rlc::race {

struct RaceOptions {
  std::string dir;
  std::string race_case = "mixed";  // 2, 3, 1, 4a, 4b, mixed
  int procs = 2;
  double seconds = 30;
  uint64_t seed = 1;
  bool foreign = false;
  int kill_after_ms = -1;
  // The table's delta.isolationLevel. Under WriteSerializable, losers pass blind appends, and a
  // rebased loser that loses again goes on with its check (both what the nightly run must cover).
  model::IsolationLevel isolation = model::IsolationLevel::kSerializable;
  int64_t rows = 64;  // the table's rows at the start
  // Another engine racing rlc's processes: "" (none) or "delta-spark", run by `engine_racer` (a
  // command taking the racer's arguments, engine_race.h).
  std::string engine;
  int engine_procs = 1;
  std::string engine_racer;
  int kill_engine_after_ms = -1;  // >= 0: SIGKILL the first engine process that long after start
  // The versions the engine reads at the end: every one (1), or the multiples of N and the last.
  int64_t engine_read_every = 1;
};

struct ProcessSummary {
  int proc = 0;
  std::string engine = "rlc";
  bool killed = false;
  int64_t attempts = 0, commits = 0, nothing_to_commit = 0;
  std::map<std::string, int64_t> aborts;  // exception name -> count
  std::map<std::string, int64_t> events;  // reconcile event -> count
};

struct RaceSummary {
  std::string race_case;
  std::string isolation;
  int procs = 0;
  double seconds = 0;
  int64_t versions = 0;  // commits in the log after the table's creation
  std::vector<ProcessSummary> processes;
  // Per winning operation (the commitInfo.operation a loser lost to or reconciled against):
  // "aborts <Exception>" and "<event>" counts.
  std::map<std::string, std::map<std::string, int64_t>> by_winning_operation;
  // Over the aborted attempts of rlc's processes: "case <id>: <reason>" -> how often a case
  // declined (a loser may meet several), i.e. why a reconcile did not happen.
  std::map<std::string, int64_t> abort_declines;
  int64_t case3_commits = 0;  // a non-blind append committed past an OPTIMIZE
  int64_t final_rows = 0;
  int64_t duplicated_rows = 0;
  int64_t duplicated_keys = 0;  // an id of the starting table live twice (every engine's rows)
  int64_t lost_commits = 0;
  int64_t checkpoints = 0;         // written by the processes; each read back against the JSON log
  int64_t unreferenced_files = 0;  // files no log version names (a killed writer's leftovers)
  std::string rows_check;          // the oracle's (a)
  // With an engine: the versions it read at the end, and how many differ from the oracle's read.
  std::string engine;
  int64_t engine_read_versions = 0;
  int64_t engine_read_differences = 0;
  std::vector<std::string> problems;  // everything that must not happen, each in a sentence

  // How often the case's reconcile happened (0 fails a CI race).
  int64_t CaseReconciles() const;
  bool ok() const { return problems.empty(); }
};

Result<RaceSummary> RunRace(const RaceOptions& options);

// The race's own files (journals, barriers, the engine's plans and logs): `dir`/_race, which no
// Delta reader looks into (a folder whose name starts with '_').
std::string RaceFolder(const std::string& dir);

std::string RaceSummaryJson(const RaceSummary& summary);

}  // namespace rlc::race

#endif  // RLC_FUZZ_RACE_RACE_H_
