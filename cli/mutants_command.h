// `rlc mutants [--seconds-each S] [--seed X] [--jobs J] [--only NAME,...] [--json]`: runs the
// explorer against each mutant of a -DRLC_MUTANTS=ON build (impl/base/mutants.h) and prints a
// table: mutant, how it was found, seconds to find (before shrinking). Found: "yes", by a
// counterexample of the cases; "guard", by a history the explorer files as Delta's own anomaly
// reached by a case carrying a loser (the guards of WriteSerializable's blind appends promise
// none) that the tree without the mutant runs clean; "NO". A crash or a failing unit test does
// not count as found. Exit 0 when every mutant was found, 1 when one was not, 2 when
// this build carries no mutants or on a usage error.
#ifndef RLC_CLI_MUTANTS_COMMAND_H_
#define RLC_CLI_MUTANTS_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rlc::cli {

struct MutantsCommand {
  double seconds_each = 30;
  uint64_t seed = 1;
  int jobs = 1;
  std::vector<std::string> only;
  bool json = false;
};

int RunMutants(const MutantsCommand& command, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_MUTANTS_COMMAND_H_
