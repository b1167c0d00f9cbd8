// `rlc explore`, `rlc explore merge` and `rlc replay`: the explorer's command line
// (fuzz/explorer/explorer.h).
//
//   rlc explore [--runs N | --seconds S] [--seed X] [--jobs J] [--shard I/N] [--flags F,...|none]
//               [--max-writers W] [--out DIR] [--json] [--require-coverage]
//               [--exhaustive [--exhaustive-writers 2|3]]   (the small scope of exhaustive.h; with
//               --runs N, a spread-out slice of N histories; without, all of it)
//               [--write-histories DIR]   (with --runs N: the histories written to DIR as scenario
//               files, history-<i>.scenario, none run; exit 0, or 2 when they cannot be written)
//     Exit 0 when the oracle held on every history (and, with --require-coverage, every required
//     count is above 0), 1 on a counterexample or missing coverage, 2 on a usage error. With
//     --out, counterexamples are saved there as scenario files and the summary as summary.json.
//   rlc explore merge SUMMARY.json...   sums shards' summaries (same seed) into one.
//   rlc replay FILE                     runs one saved scenario verbosely; exit as `rlc scenario`.
#ifndef RLC_CLI_EXPLORE_H_
#define RLC_CLI_EXPLORE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rlc::cli {

struct ExploreCommand {
  int64_t runs = 0;
  double seconds = 0;
  uint64_t seed = 1;
  int jobs = 1;
  std::string shard = "0/1";
  std::vector<std::string> flags;  // allowed flags (short or full names); empty: all six
  int max_writers = 5;
  int64_t oracle_max_orders = 5000;  // serial orders tried before a verdict is inconclusive
  std::string out_dir;
  bool json = false;
  bool require_coverage = false;
  bool exhaustive = false;
  int exhaustive_writers = 3;
  std::string write_histories;    // the histories written here as scenario files, none run
  std::string write_anomalies;    // the histories filed as Delta's own written here, after the run
  double heartbeat_seconds = 30;  // progress lines on stderr when it is no terminal (0: none)
};

int RunExplore(const ExploreCommand& command, std::ostream& out, std::ostream& err);
int RunExploreMerge(const std::vector<std::string>& files, bool json, std::ostream& out,
                    std::ostream& err);
// `rlc replay FILE [--export DIR]`: runs one scenario verbosely; with DIR (absent or empty), the
// table the replay wrote stays there as a Delta table directory.
int RunReplay(const std::string& file, const std::string& export_dir, std::ostream& out,
              std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_EXPLORE_H_
