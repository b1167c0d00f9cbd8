#include "tests/support/run_rlc.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rlc::testing {

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

RunResult RunRlc(const std::string& args) {
  static int counter = 0;
  const std::filesystem::path err_file =
      std::filesystem::temp_directory_path() /
      ("rlc-run-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  const std::string command =
      std::string(RLC_BINARY) + " " + args + " 2>" + ShellQuote(err_file.string());
  RunResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream ss;
  ss << err.rdbuf();
  result.err = ss.str();
  std::filesystem::remove(err_file);
  return result;
}

}  // namespace rlc::testing
