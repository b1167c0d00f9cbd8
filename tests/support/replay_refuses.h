// Whether log replay refuses one of a check's winners: the read snapshot's files, then each
// winner applied as replay applies it (delta::ApplyCommit). Property tests that draw winners
// freely use it to hold the check to one reading of a commit: a winner replay refuses must be
// refused by the check too (kCorrupt), never judged.
//
// Thread-safety: stateless function.
#ifndef RLC_TESTS_SUPPORT_REPLAY_REFUSES_H_
#define RLC_TESTS_SUPPORT_REPLAY_REFUSES_H_

#include <vector>

#include "impl/delta/actions.h"
#include "impl/delta/file_table.h"
#include "impl/delta/snapshot.h"

namespace rlc::testing {

// The first refusal's status; Ok when replay accepts every winner (versions 1, 2, ...).
inline Status ReplayRefuses(const delta::FileTable& read_files,
                            const std::vector<std::vector<delta::Action>>& winners) {
  delta::Snapshot snapshot;
  snapshot.version = 0;
  snapshot.files = read_files;
  for (size_t i = 0; i < winners.size(); ++i) {
    RLC_RETURN_IF_ERROR(delta::ApplyCommit(delta::Commit{int64_t(i) + 1, winners[i]}, &snapshot));
  }
  return Status::Ok();
}

}  // namespace rlc::testing

#endif  // RLC_TESTS_SUPPORT_REPLAY_REFUSES_H_
