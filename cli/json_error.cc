#include "cli/json_error.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "impl/base/status.h"

namespace rlc::cli {
namespace {

constexpr int kErrorSchemaVersion = 1;

// The status code a message starts with ("Corrupt: ..."), or "" when it starts with none.
std::string CodeAtStart(std::string_view message) {
  for (int c = static_cast<int>(StatusCode::kCorrupt);
       c <= static_cast<int>(StatusCode::kAlreadyExists); ++c) {
    const std::string_view name = StatusCodeName(static_cast<StatusCode>(c));
    if (message.size() > name.size() + 1 && message.substr(0, name.size()) == name &&
        message.substr(name.size(), 2) == ": ")
      return std::string(name);
  }
  return "";
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace

std::string JsonError(const std::string& command, int exit_code, const std::string& stderr_text,
                      bool usage) {
  const std::vector<std::string> lines = Lines(stderr_text);
  std::string message = lines.empty() ? "failed without a message" : lines.front();
  // Messages start "rlc <command>: " (or "rlc: " before a command is known).
  for (const std::string& prefix : {"rlc " + command + ": ", std::string("rlc: ")}) {
    if (message.rfind(prefix, 0) == 0) {
      message.erase(0, prefix.size());
      break;
    }
  }
  std::string kind = usage ? "Usage" : CodeAtStart(message);
  if (kind.empty()) kind = "Input";
  nlohmann::ordered_json error = {{"command", command},
                                  {"kind", kind},
                                  {"exitCode", exit_code},
                                  {"message", message},
                                  {"lines", lines}};
  nlohmann::ordered_json j = {{"schemaVersion", kErrorSchemaVersion}, {"error", error}};
  return j.dump() + "\n";
}

int ErrorCapture::Tee::overflow(int c) {
  if (c == traits_type::eof()) return traits_type::not_eof(c);
  wrote = true;
  if (keep) kept.put(static_cast<char>(c));
  return next->sputc(static_cast<char>(c));
}

std::streamsize ErrorCapture::Tee::xsputn(const char* s, std::streamsize n) {
  if (n > 0) wrote = true;
  if (keep) kept.write(s, n);
  return next->sputn(s, n);
}

int ErrorCapture::Tee::sync() { return next->pubsync(); }

ErrorCapture::ErrorCapture() {
  err_.keep = true;
  err_.next = std::cerr.rdbuf(&err_);
  out_.next = std::cout.rdbuf(&out_);
}

ErrorCapture::~ErrorCapture() {
  std::cerr.rdbuf(err_.next);
  std::cout.rdbuf(out_.next);
}

}  // namespace rlc::cli
