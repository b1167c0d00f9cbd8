// CommitFileRules: what the protocol forbids in one commit's file actions, written once and
// applied by every reader of a commit: log replay (snapshot.h, checkpoint.h), the conflict
// check's winners (impl/conflict/checker.h) and so `rlc inspect`, `rlc replay` and `rlc check`.
//
// Concern: a commit the replay refuses must not be judged by the check in part. One commit that
// adds a path twice with two DVs is the example: replay refused it while the check took one add
// for one question and the other for the next, and judged rows neither reading holds.
//
// The rules, each a kCorrupt naming the version and the decoded path:
//   1. two adds of one path in one commit;
//   2. two removes of one path in one commit;
//   3. an add and a remove of the same (path, DV) key in one commit;
//   4. two active versions after the commit: an add of a path whose active version (just before
//      the commit) has another DV, which the commit does not remove;
//   5. an add whose statistics give no numRecords count (stats.numRecords not a non-negative
//      integer, or statistics that do not parse), or that has a DV and no numRecords: `rlc
//      inspect` refused such a file while the check judged past it (found by
//      tests/cli/one_reading_property_test.cc).
// Paths are compared URL-decoded; a path that does not decode is kCorrupt too.
//
// Thread-safety: stateless function.
#ifndef RLC_IMPL_DELTA_COMMIT_RULES_H_
#define RLC_IMPL_DELTA_COMMIT_RULES_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "impl/base/status.h"
#include "impl/delta/actions.h"

namespace rlc::delta {

// The active add of a decoded path just before the commit, or nullptr.
using ActiveAddLookup = std::function<const AddFile*(const std::string& decoded_path)>;

// Checks rules 1-5 over the commit's adds and removes (in any order). `active` may be empty:
// then rule 4 is not checked (a caller that applies the commit checks it where it applies).
Status CheckCommitFiles(int64_t version, std::span<const AddFile* const> adds,
                        std::span<const RemoveFile* const> removes,
                        const ActiveAddLookup& active = {});

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_COMMIT_RULES_H_
