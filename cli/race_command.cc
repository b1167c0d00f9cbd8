#include "cli/race_command.h"

#include "cli/summary_text.h"

namespace rlc::cli {

int RunRaceCommand(const race::RaceOptions& options, bool json, std::ostream& out,
                   std::ostream& err) {
  Result<race::RaceSummary> s = race::RunRace(options);
  if (!s.ok()) {
    err << "rlc race: " << s.status().ToString() << "\n";
    return s.status().code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  out << (json ? race::RaceSummaryJson(*s) + "\n" : RaceSummaryText(*s));
  if (!s->ok()) return 1;
  if (s->CaseReconciles() == 0) {
    err << "rlc race: case " << options.race_case << " never reconciled\n";
    return 1;
  }
  return 0;
}

}  // namespace rlc::cli
