// The campaign and race summaries as text, for the terminal and the reports (fuzz/ returns the
// summaries as data; every rendering of them lives in cli/).
//
// Thread-safety: stateless.
#ifndef RLC_CLI_SUMMARY_TEXT_H_
#define RLC_CLI_SUMMARY_TEXT_H_

#include <string>

#include "fuzz/explorer/explorer.h"
#include "fuzz/race/race.h"

namespace rlc::cli {

// An explorer campaign: counts, the reconcile and abort tallies, the matrix cells, missing
// coverage, then each example and counterexample with its replay command.
std::string ExploreSummaryText(const explorer::Summary& summary);

// A race: per process and per winning operation, then the checks of the final table.
std::string RaceSummaryText(const race::RaceSummary& summary);

}  // namespace rlc::cli

#endif  // RLC_CLI_SUMMARY_TEXT_H_
