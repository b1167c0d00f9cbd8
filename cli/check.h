// `rlc check`: runs the conflict checker for a pending transaction against a table's log.
//
// Concern: read the pending transaction (impl/conflict/pending_transaction.h documents the JSON),
// apply command-line flags on top of the file's, run the checker against the commits after the
// read version, and print the verdict, the events and the actions to commit.
// Exit codes: 0 the loser may commit, 1 it must abort, 2 bad input.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_CHECK_H_
#define RLC_CLI_CHECK_H_

#include <ostream>
#include <string>
#include <vector>

namespace rlc::cli {

struct CheckOptions {
  std::string table_dir;
  std::string txn_file;
  std::vector<std::string> flags;  // NAME=VALUE
  bool json = false;
  std::string dv_file_prefix;  // as `rlc inspect --dv-file-prefix`
  std::string write_dvs;       // write rebuilt DVs into this directory; empty: keep them in memory
};

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_CHECK_H_
