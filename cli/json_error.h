// Errors for programs: with --json, a command that fails on bad input or a usage error (exit 2)
// prints, besides its message on stderr, one JSON object on stdout that says what went wrong in
// fields a program can branch on (docs/json-output.md#errors):
//
//   {"schemaVersion":1,"error":{"command":"check","kind":"Corrupt","exitCode":2,
//    "message":"<the first line, without the 'rlc check: ' prefix>","lines":[...every line...]}}
//
// `kind` is the status code's name when the message carries one ("Corrupt", "NotFound",
// "IoError", ...; impl/base/status.h), "Usage" for an error in the command line itself, and
// "Input" for any other refusal of what was given. A command that already printed its result
// (e.g. a verify summary whose exit 2 says a stage did not run) gets no error object: stdout
// stays one JSON document.
//
// Thread-safety: ErrorCapture swaps std::cerr's buffer; one per process, on the main thread.
#ifndef RLC_CLI_JSON_ERROR_H_
#define RLC_CLI_JSON_ERROR_H_

#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

namespace rlc::cli {

// The error object for `command`'s failure, from the text it wrote to stderr.
std::string JsonError(const std::string& command, int exit_code, const std::string& stderr_text,
                      bool usage);

// While alive, what is written to std::cerr still goes there, and is kept as well; and whether
// anything was written to std::cout is noted.
class ErrorCapture {
 public:
  ErrorCapture();
  ~ErrorCapture();
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

  std::string stderr_text() const { return err_.kept.str(); }
  bool wrote_stdout() const { return out_.wrote; }

 private:
  // Passes every character on to `next`, keeping a copy (stderr) or noting that one came (stdout).
  struct Tee : std::streambuf {
    std::streambuf* next = nullptr;
    bool keep = false;
    bool wrote = false;
    std::ostringstream kept;
    int overflow(int c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;
  };
  Tee err_, out_;
};

}  // namespace rlc::cli

#endif  // RLC_CLI_JSON_ERROR_H_
