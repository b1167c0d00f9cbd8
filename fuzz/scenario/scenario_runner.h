// Running a scenario (scenario.h): the history through the engine simulator and the real
// checker on a table in a fresh directory, then the oracle and the file's expectations.
//
// Concern: one run and its report. The run creates the starting table, commits the setup steps
// one after another, then plays the steps in order: "starts" prepares the transaction on the
// latest version, "rebases" checks it against the commits so far and keeps the rebased actions
// (a commit attempt that loses its race again), "commits" commits it (put-if-absent; on a lost
// race the check goes on with the transaction's own flags, then the rebased actions, or an
// abort). Afterwards:
//   - the oracle: (a) the rows its own reader sees equal a serial result the table's isolation
//     level allows (skipped when a raw transaction committed: the model cannot replay raw
//     actions); (b) the committed history has no dependency cycle the level forbids; (c) every
//     commit keeps the log invariants; (d) every loser that aborted against a winner is judged
//     against the documented conflict matrix (contract.h);
//   - each expectation of the file, compared with what happened.
// The scenario passes when the oracle finds nothing (a missed reconcile counts only when no
// `expect missed-reconcile` line allows it) and every expectation holds.
//
// Thread-safety: one run per call; runs in distinct work directories may proceed in parallel.
#ifndef RLC_FUZZ_SCENARIO_SCENARIO_RUNNER_H_
#define RLC_FUZZ_SCENARIO_SCENARIO_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "fuzz/oracle/contract.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/simulator/row_file.h"
#include "impl/base/status.h"
#include "model/semantics/value.h"

namespace rlc::scenario {

struct TxnReport {
  std::string name;
  std::string operation;      // Describe(), or "raw actions"
  int64_t read_version = -1;  // -1: never started
  bool attempted = false;     // a commit was tried
  bool committed = false;
  bool skipped = false;  // nothing to commit (an idempotent write already applied, a failing MERGE)
  int64_t version = -1;
  std::string abort;              // ExceptionName, when aborted
  std::string refused;            // when its check refused a winner as corrupt: why
  std::string abort_detail;       // Describe(abort)
  std::string abort_error_class;  // Delta's error class, e.g. DELTA_CONCURRENT_APPEND
  std::string
      abort_delta_message;  // the message Delta's checker raises (conflict::DeltaErrorMessage)
  std::vector<std::string> events;
  std::vector<std::string> event_winners;  // per event: the winning transaction's operation name
  std::vector<std::string> event_winner_names;  // per event: the winning transaction ("": none)
  int64_t abort_winner_version = -1;  // when aborted: the version of the winner it lost to
  std::string abort_reason;           // when aborted: the checker's sentence
  int retries = 0;
  int rebases = 0;                  // `rebases` steps: rounds of its check that lost the race again
  std::optional<bool> data_change;  // of its committed file actions, when all agree
  std::vector<std::string> actions;  // what it committed, after any rebase: one line per action
  // Why the cases left its last check to Delta's rules (RunOptions::explain_declines), one line
  // each: "case 2 against version 3, file f: <reason>".
  std::vector<std::string> declines;
};

struct Mismatch {
  int line = 0;
  std::string expected;  // the expectation as written
  std::string actual;
};

struct ScenarioReport {
  std::string file;
  std::string title;
  model::IsolationLevel level = model::IsolationLevel::kSerializable;
  std::vector<std::string> timeline;  // one line per setup commit and step
  std::vector<TxnReport> txns;
  // The table before the transactions (after the setup steps) and after them, as the oracle's
  // reader sees them; initial_rows_error says why the first could not be read, if it could not.
  std::vector<std::vector<model::Value>> initial_rows;
  std::string initial_rows_error;
  std::vector<std::vector<model::Value>> final_rows;
  // Oracle.
  std::string rows_check;                              // "holds", or why not
  std::vector<std::vector<model::Value>> serial_rows;  // when (a) fails: the commit-order result
  std::vector<std::string> cycles;                     // (b): each forbidden cycle, explained
  std::vector<std::string> invariant_findings;         // (c)
  std::vector<int64_t> invariant_versions;             // the version of each of (c), or -1
  std::vector<std::string> declared_writer_findings;   // (c) at versions of writers with quirks
  std::vector<oracle::ContractCheck> contract;         // (d): one per aborted loser
  int missed_reconciles = 0;
  int deferred_cells = 0;
  bool missed_reconcile_expected = false;
  std::vector<Mismatch> mismatches;

  bool oracle_holds() const;
  bool passed() const;
};

// Where the run keeps its table.
enum class TableStore {
  kDirectory,  // files under work_dir, replaced if present: for replays and exports
  kMemory,     // impl/'s InMemoryStorage, rooted at the path work_dir, read by the oracle from
               // there too: no file-system call (the explorer's campaigns)
};

struct RunOptions {
  TableStore store = TableStore::kDirectory;
  // Read the table before the transactions (initial_rows) for the report. A campaign that only
  // judges its histories skips it, and runs a history again with it when it renders a report.
  bool read_table_before = true;
  // Read each commit the simulator wrote back from the log and require the actions it wrote
  // (simulator::TableOptions::verify_own_commits). Campaigns turn it off for speed.
  bool verify_own_commits = true;
  // The data files' format. Unset: Parquet for a directory table (one other engines may open),
  // row files in memory (the explorer's throughput: bench/explorer_bench.cc measures both).
  std::optional<simulator::DataFileFormat> data_files = std::nullopt;
  // How many serial orders the oracle tries before its verdict on the rows is inconclusive
  // ("unknown: ..."); 0: the oracle's default (oracle::kDefaultMaxOrders).
  size_t oracle_max_orders = 0;
  // Each transaction's report says why the cases declined (TxnReport::declines), as a reader of a
  // report needs; campaigns turn it off for speed, and on again for the histories they keep.
  bool explain_declines = true;
  // What the conflict checks read of each winner's commit (simulator::TableOptions::winner_bytes).
  std::function<std::string(int64_t version, std::string bytes)> winner_bytes;
};

// `work_dir`: a directory the run may create the table in, or (kMemory) the table's root path.
// Errors: the table could not be written or read (kIoError, ...), a setup step did not commit.
Result<ScenarioReport> RunScenario(const Scenario& scenario, const std::string& work_dir,
                                   const RunOptions& options = {});

// The report as text: the table before, the timeline (with each commit's actions when verbose),
// the rows after, then each finding and mismatch (a passing run prints one line).
std::string RenderReport(const ScenarioReport& report, bool verbose);

}  // namespace rlc::scenario

#endif  // RLC_FUZZ_SCENARIO_SCENARIO_RUNNER_H_
