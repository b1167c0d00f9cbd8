// `rlc predicates`: rlc's row evaluator answering predicates over rows, for a differential
// against a real engine's answers (tests/engines/predicate_semantics.py, Delta Spark).
//
// Concern: read cases (JSON lines), evaluate every predicate on every row exactly as the exact
// tier, 1b and Case 2 do (parse, bind to the schema, impl/predicate/row_evaluator.h), and print
// one JSON line of answers per case. Nothing here decides what a disagreement means: the driver
// compares.
//
// A case: {"id": "...", "schema": "<a Delta schemaString>", "rows": [[cell, ...], ...],
// "predicates": ["c0 > 1", ...]}. A cell is null or the value's text in its column's type:
// digits for the integral types; a number, "NaN", "Infinity" or "-Infinity" for float and double
// (a float's text is rounded to the float); the string itself; "true" or "false"; "YYYY-MM-DD";
// a timestamp with its zone (Z or an offset); a timestamp_ntz without one.
// An answer line: {"id": "...", "answers": [["TRUE", "FALSE", "UNKNOWN", ...] per predicate],
// "refused": [null or why, per predicate]}: a predicate rlc does not parse or bind is refused,
// which the checker reads as "may match every row" (impl/conflict/partition_filter.h).
//
// Exit codes: 0 answered every case; 2 a case rlc cannot read (named by line and field on stderr).
//
// Thread-safety: stateless.
#ifndef RLC_CLI_PREDICATES_COMMAND_H_
#define RLC_CLI_PREDICATES_COMMAND_H_

#include <iosfwd>
#include <string>

namespace rlc::cli {

struct PredicatesOptions {
  std::string cases_file;  // JSON lines, or "-" for stdin
};

int RunPredicates(const PredicatesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_PREDICATES_COMMAND_H_
