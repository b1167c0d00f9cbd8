// Parses a commit file (newline-delimited JSON, one action per line) into typed actions.
//
// Concern: bytes -> Commit, with simdjson's On Demand parser (the hot read path of every
// conflict check). Each line must be one JSON object with exactly one key, the action's name.
// Empty lines are skipped; a trailing '\r' is tolerated. The result is defined line by line
// (each line as ParseActionLine reads it); a commit of 64 KiB or more is read mostly through
// On Demand's document stream, which takes a line only where it provably holds the one document
// a line alone would (commit_parser.cc, StreamedLines), and reads any other line alone.
//
// Errors (kCorrupt) name the file, the 1-based line, the line's byte offset in the file and the
// field (e.g. "add.deletionVector.sizeInBytes"), and say what was expected. A commit over
// kCommitFileBytesMax or kActionsPerCommitMax is kOverLimit.
//
// Thread-safety: stateless functions; each call uses its own parser.
#ifndef RLC_IMPL_DELTA_COMMIT_PARSER_H_
#define RLC_IMPL_DELTA_COMMIT_PARSER_H_

#include <functional>
#include <string_view>

#include "impl/base/status.h"
#include "impl/delta/actions.h"

namespace rlc::delta {

// `file_name` is used in messages only.
Result<Commit> ParseCommit(std::string_view bytes, int64_t version, std::string_view file_name);

// The same parse, each action handed to `visit` in file order as soon as it is made, with no
// vector of them (a winner may hold millions of actions); the first error `visit` returns stops
// the parse and is returned. `reserve` (if set) first learns the number of lines, a bound on the
// actions.
Status ForEachCommitAction(std::string_view bytes, int64_t version, std::string_view file_name,
                           const std::function<void(size_t lines)>& reserve,
                           const std::function<Status(Action&& action)>& visit);

// Parses one line (no newline). Used by the fuzzer and by ParseCommit.
Result<Action> ParseActionLine(std::string_view line);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_COMMIT_PARSER_H_
