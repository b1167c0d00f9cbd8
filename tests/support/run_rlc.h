// Runs the rlc binary as a user would and captures its exit code, stdout and stderr.
//
// Concern: end-to-end tests of the command-line tool. RLC_BINARY (a compile definition) is the
// path of the binary under test.
#ifndef RLC_TESTS_SUPPORT_RUN_RLC_H_
#define RLC_TESTS_SUPPORT_RUN_RLC_H_

#include <string>

namespace rlc::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the binary's path and run by /bin/sh.
RunResult RunRlc(const std::string& args);

// `s` single-quoted for /bin/sh.
std::string ShellQuote(const std::string& s);

}  // namespace rlc::testing

#endif  // RLC_TESTS_SUPPORT_RUN_RLC_H_
