// Reading a whole input file (a scenario, a summary.json) for the commands.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_TEXT_FILE_H_
#define RLC_CLI_TEXT_FILE_H_

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace rlc::cli {

// The file's bytes; nullopt when it cannot be opened or read.
inline std::optional<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return std::nullopt;
  return text.str();
}

}  // namespace rlc::cli

#endif  // RLC_CLI_TEXT_FILE_H_
