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
  // Against another engine, case 4b's losers lose to the engine's OPTIMIZE, which records no
  // composition: they must abort (counted above), never reconcile.
  const bool must_abort = !options.engine.empty() && options.race_case == "4b";
  if (s->CaseReconciles() == 0 && !must_abort) {
    err << "rlc race: case " << options.race_case << " never reconciled\n";
    return 1;
  }
  return 0;
}

}  // namespace rlc::cli
