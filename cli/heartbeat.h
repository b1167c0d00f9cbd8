// Progress of a long campaign on stderr. On a terminal: one line rewritten in place. Elsewhere (a
// CI log, a file): a line every `interval_seconds` of the run, so that a job that is alive says
// so and a log shows how far a job that was killed got; nothing at all when the interval is 0.
//
// Thread-safety: one caller at a time (the explorer calls progress under its lock).
#ifndef RLC_CLI_HEARTBEAT_H_
#define RLC_CLI_HEARTBEAT_H_

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace rlc::cli {

class Heartbeat {
 public:
  Heartbeat(std::string prefix, double interval_seconds)
      : prefix_(std::move(prefix)),
        interval_(interval_seconds),
        terminal_(::isatty(STDERR_FILENO) == 1) {}

  // The campaign so far: `seconds` since it started.
  void Update(int64_t histories, int64_t violations, double seconds) {
    const double rate = seconds > 0 ? static_cast<double>(histories) / seconds : 0.0;
    if (terminal_) {
      std::fprintf(stderr, "\r%s%lld histories, %lld violation(s), %.0f/s   ", prefix_.c_str(),
                   static_cast<long long>(histories), static_cast<long long>(violations), rate);
      wrote_ = true;
      return;
    }
    if (interval_ <= 0 || seconds < next_) return;
    next_ = seconds + interval_;
    std::fprintf(stderr, "%s%lld histories, %lld violation(s), %.0f/s, %.0f s\n", prefix_.c_str(),
                 static_cast<long long>(histories), static_cast<long long>(violations), rate,
                 seconds);
    std::fflush(stderr);
  }

  // Ends the terminal's line.
  void Finish() {
    if (terminal_ && wrote_) std::fprintf(stderr, "\n");
  }

 private:
  std::string prefix_;
  double interval_;
  bool terminal_;
  bool wrote_ = false;
  double next_ = 0;  // the first heartbeat comes with the first update
};

}  // namespace rlc::cli

#endif  // RLC_CLI_HEARTBEAT_H_
