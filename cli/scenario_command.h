// `rlc scenario FILE_OR_DIR... [--json] [--verbose] [--keep DIR]`: runs scenario files
// (fuzz/scenario/scenario.h) and reports, per file, whether the oracle and every expectation held.
//
// A directory stands for its `*.scenario` files, recursively, in name order. Each scenario runs
// on a fresh table in a temporary folder (kept under DIR with --keep, one folder per file).
// Exit 0 when every scenario passes, 1 when any fails, 2 when any file is malformed or cannot be
// run (that takes precedence: the run did not check what was asked).
#ifndef RLC_CLI_SCENARIO_COMMAND_H_
#define RLC_CLI_SCENARIO_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace rlc::cli {

struct ScenarioOptions {
  std::vector<std::string> paths;
  bool json = false;
  bool verbose = false;  // print the timeline and the oracle's checks of passing scenarios too
  std::string keep_dir;  // empty: tables go to a temporary folder, removed afterwards
};

int RunScenarios(const ScenarioOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_SCENARIO_COMMAND_H_
