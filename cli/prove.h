// `rlc prove [--case PREFIX] [--json] [--junit FILE] [--jobs J] [--mutants]`: runs the proof
// obligations (proofs/catalogue.h) on J threads (default 2) and prints each with its result, its
// bound and its time. Exit 1 if any is not as expected (refuted, vacuous, unknown). With --mutants
// (a -DRLC_MUTANTS=ON build), runs them again under each kernel mutant and prints which obligations
// refute it, with the decoded counterexample; exit 1 if some kernel mutant is refuted by none.
#ifndef RLC_CLI_PROVE_H_
#define RLC_CLI_PROVE_H_

#include <ostream>
#include <string>

namespace rlc::cli {

struct ProveCommand {
  std::string case_prefix;
  bool json = false;
  std::string junit_file;
  bool mutants = false;
  int jobs = 2;
};

int RunProve(const ProveCommand& command, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_PROVE_H_
