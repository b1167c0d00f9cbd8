// Writes actions back as Delta JSON: one compact object per line, the order of fields as Delta
// engines write them, unknown fields after the typed ones (see actions.h for what round-trips).
//
// Concern: Action -> bytes. The output parses back (commit_parser.h) to an equal Action.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DELTA_COMMIT_WRITER_H_
#define RLC_IMPL_DELTA_COMMIT_WRITER_H_

#include <string>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::delta {

// One line, without the newline.
std::string WriteActionLine(const Action& action);

// A whole commit file: every action's line followed by '\n'.
std::string WriteCommitFile(const std::vector<Action>& actions);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_COMMIT_WRITER_H_
