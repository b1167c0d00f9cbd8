// `rlc race DIR --case 2|3|1|4a|4b|mixed --procs K --seconds S --seed X [--foreign]
//  [--kill-after-ms N] [--json]`: K processes commit to one new table in DIR at the same moment
// (fuzz/race/race.h), then the oracle and the audit judge it. Exit 0 when nothing went wrong and
// the case reconciled at least once, 1 otherwise, 2 on a usage error (DIR must be empty or absent).
#ifndef RLC_CLI_RACE_COMMAND_H_
#define RLC_CLI_RACE_COMMAND_H_

#include <ostream>

#include "fuzz/race/race.h"

namespace rlc::cli {

int RunRaceCommand(const race::RaceOptions& options, bool json, std::ostream& out,
                   std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_RACE_COMMAND_H_
