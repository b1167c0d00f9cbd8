// `rlc verify [--budget DURATION] [--out DIR] [--seed X] [--jobs J] [--shard I/N] [--scenarios DIR]
//            [--explore-runs N] [--proofs PREFIX]`:
// the main job. In order: the sample table the project writes itself (every version read back row
// by row, then the audit rules), every proof obligation, every scenario file (default
// tests/scenarios when run from the repository root), and an explorer campaign for what is left
// of the budget (default 5 min). The budget is a ceiling: no stage starts work after it and no
// solver runs past it; what did not run is reported as not run and the exit is 2. It writes into
// DIR (default: a new folder in the temp directory):
//   summary.json  stages with counts, times and seeds; the explorer's summary (coverage per case,
//                 reconcile rate per documented matrix cell)
//   junit.xml     one test case per obligation, scenario, sample-table check and the campaign
//   report.md, report.html (self-contained, opens offline)  every finding first: a failing
//                 history as lanes (read version, operation, flags, the checker's decision, the
//                 actions committed after any rebase), the table before and after, the rows as a
//                 diff against the serial result, each forbidden cycle explained and drawn, and its
//                 replay command; a failing obligation with its decoded counterexample (inputs and
//                 what the kernel computed). Then the campaign's summary.
//   counterexamples/  each explorer counterexample as a scenario file (the replay command names
//                 it), and per counterexample or failing scenario a folder: history.scenario,
//                 report.txt, and table/, the Delta table its replay wrote (_delta_log JSON and DV
//                 files as the implementation wrote them; Parquet data files)
//   explore-summary.json  the campaign's summary as `rlc explore merge` reads it (shards merge)
// Exit 0 when everything holds, 1 on any finding, 2 on a usage error.
#ifndef RLC_CLI_VERIFY_H_
#define RLC_CLI_VERIFY_H_

#include <cstdint>
#include <ostream>
#include <string>

namespace rlc::cli {

struct VerifyOptions {
  std::string out_dir;  // empty: a new folder under the system temp directory
  std::string budget = "5m";
  double heartbeat_seconds = 30;  // campaign progress lines on stderr when it is no terminal
  uint64_t seed = 20261129;
  int jobs = 2;               // threads for the proofs and the explorer
  std::string proofs_prefix;  // only obligations whose name starts with this (empty: all)
  std::string shard = "0/1";
  std::string scenarios_dir = "tests/scenarios";
  int64_t explore_runs =
      0;  // > 0: the campaign runs this many histories (this shard's), not the budget
};

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

// "90", "90s", "5m", "1h" -> seconds; nullopt-like -1 when malformed.
double ParseDuration(const std::string& text);

}  // namespace rlc::cli

#endif  // RLC_CLI_VERIFY_H_
