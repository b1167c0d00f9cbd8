// A history as a reviewer reads it in a self-contained HTML page: the timeline with one lane per
// writer (read version, operation, commit attempt, the checker's decision and reconcile events),
// the final rows against the serial result as a diff, each forbidden dependency cycle explained
// edge by edge and drawn (Graphviz SVG when `dot` is on the PATH, the explanation alone
// otherwise), the flags, the isolation level and the replay command.
//
// Thread-safety: stateless functions (DrawCycleSvg runs `dot` in a child process).
#ifndef RLC_CLI_SCENARIO_HTML_H_
#define RLC_CLI_SCENARIO_HTML_H_

#include <string>
#include <vector>

#include "cli/markup.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"

namespace rlc::cli {

// One <section> (no page wrapper), every text HTML-escaped.
std::string RenderScenarioHtml(const scenario::Scenario& scenario,
                               const scenario::ScenarioReport& report, const std::string& title,
                               const std::string& replay_command);

// The same history in Markdown, for report.md (what CI job summaries and pull-request comments
// show): the replay command, the isolation level, the table before, the lanes as a table (one
// column per writer with its operation and flags), the rows as a diff against the serial result,
// each cycle's explanation, and every expectation that did not hold.
std::string RenderScenarioMarkdown(const scenario::Scenario& scenario,
                                   const scenario::ScenarioReport& report, const std::string& title,
                                   const std::string& replay_command);

// Rows in `actual` only ("+ ...") and in `expected` only ("- ..."), each as SQL tuples, sorted.
std::vector<std::string> RowDiff(const std::vector<std::vector<model::Value>>& expected,
                                 const std::vector<std::vector<model::Value>>& actual);

// The cycle text (model/explain's Let/Then/However form) drawn as an SVG: one node per
// transaction, one edge per "X < Y, because ..." line. Empty when `dot` is missing or fails.
std::string DrawCycleSvg(const std::string& cycle_text);

}  // namespace rlc::cli

#endif  // RLC_CLI_SCENARIO_HTML_H_
