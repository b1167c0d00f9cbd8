// `rlc verify`: the main job. Today it writes the sample table (sample_table.h) and checks that
// every version reads back exactly as written: the files, each DV row by row, the live rows.
// Later issues add the proofs, the scenarios and an explorer campaign to it.
//
// Exit codes: 0 all checks hold, 1 a finding, 2 a usage error or unreadable output folder.
#ifndef RLC_CLI_VERIFY_H_
#define RLC_CLI_VERIFY_H_

#include <ostream>
#include <string>

namespace rlc::cli {

struct VerifyOptions {
  std::string out_dir;  // empty: a new folder under the system temp directory
};

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_VERIFY_H_
