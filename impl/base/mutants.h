// Mutants: deliberate bugs, one per abort-on-doubt guard or extension of the reconcile cases,
// compiled only into a build configured with -DRLC_MUTANTS=ON and selected at run time there
// (docs/decisions.md#mutants). The harness shows it catches each: the explorer must report an
// oracle violation, or `rlc prove` must refute an obligation.
//
// Concern: the list and the switch. A site reads `if (RLC_MUTANT(kName)) ...`; in any other
// build the macro is the constant false and the site compiles to nothing, so production code
// carries no mutant. Selection: Select(), or the environment variable RLC_MUTANT=<name> read at
// the first query.
//
// Thread-safety: Select before starting threads; Selected is a relaxed atomic read.
#ifndef RLC_IMPL_BASE_MUTANTS_H_
#define RLC_IMPL_BASE_MUTANTS_H_

#include <optional>
#include <string_view>
#include <vector>

namespace rlc::mutants {

// id, name, what it breaks.
#define RLC_MUTANT_LIST(X)                                                                         \
  X(kDataSkippingGeOffByOne, "data-skipping-ge-off-by-one",                                        \
    "Case 1 statistics: `col >= x` ruled out for a file whose maximum is x")                       \
  X(kDataSkippingOrFirstDisjunct, "data-skipping-or-first-disjunct",                               \
    "Case 1 statistics: an OR is judged by its first disjunct only")                               \
  X(kDataSkippingNullsIgnored, "data-skipping-nulls-ignored",                                      \
    "Case 1 statistics: `col IS NULL` never holds, whatever nullCount says")                       \
  X(kDataSkippingPartitionIgnored, "data-skipping-partition-ignored",                              \
    "Case 1 statistics: a predicate on the partition column rules every file out")                 \
  X(kExactTierDeletedRows, "exact-tier-deleted-rows",                                              \
    "Case 1 exact tier: the DV's deleted rows are searched instead of the live ones")              \
  X(kOneBOutrightRemoveIgnored, "1b-outright-remove-ignored",                                      \
    "1b: a file the winner removed outright never holds a matching row")                           \
  X(kCase2NoOverlapTest, "case2-no-overlap-test",                                                  \
    "Case 2: the DVs are unioned even when both deleted a row")                                    \
  X(kCase2LoserDvOnly, "case2-loser-dv-only", "Case 2: the merged DV is the loser's alone")        \
  X(kCase2WinnerDvOnly, "case2-winner-dv-only", "Case 2: the merged DV is the winner's alone")     \
  X(kRemapRankOffByOne, "remap-rank-off-by-one",                                                   \
    "Case 4: a deleted row lands one position too far")                                            \
  X(kRemapIgnoresCompactedDv, "remap-ignores-compacted-dv",                                        \
    "Case 4: the rank does not skip the rows the compaction read as deleted")                      \
  X(kForwardRemapDropsOutputDv, "4a-drops-output-dv",                                              \
    "4a: the OPTIMIZE commits without carrying the winner's deletions onto its output")            \
  X(kReverseRemapDropsDeletes, "4b-drops-deletes",                                                 \
    "4b: the DML's deletions on compacted sources are dropped instead of remapped")                \
  X(kReverseRemapNoH1, "4b-no-h1",                                                                 \
    "4b: a compacted source the DML touched but did not remap is let through")                     \
  X(kCaptureRecordsPlan, "capture-records-plan",                                                   \
    "capture: the runs are recorded from the bin's plan, not from the rows the writer wrote")      \
  X(kRebuiltTombstoneKeepsTags, "4a-rebuilt-tombstone-keeps-tags",                                 \
    "4a: a tombstone rebuilt from the winner's add keeps its composition tags")                    \
  X(kCase3ExcludesEveryRemove, "case3-excludes-every-remove",                                      \
    "Case 3: every remove of a winner leaves removed-vs-read, not only dataChange=false ones")     \
  X(kCase3ReadsNotFollowed, "case3-reads-not-followed",                                            \
    "Case 3: the loser's reads do not move onto a relocation's outputs")                           \
  X(kCase2ForgetsReads, "case2-forgets-reads",                                                     \
    "Case 2: a merged file leaves the loser's reads, its winner's new deletions never judged "     \
    "against them")                                                                                \
  X(kRemovedStatsFromRemove, "removed-stats-from-remove",                                          \
    "1b, Case 2, Case 3: a removed file's statistics are the remover's own, not its active add's") \
  X(kCase3TrustsCounts, "case3-trusts-counts",                                                     \
    "Case 3: a relocation conserves on counts and bounds over the whole commit (no partition, no " \
    "rows)")                                                                                       \
  X(kTagsTrustedBeyondTiling, "tags-trusted-beyond-tiling",                                        \
    "Case 4: composition tags that tile their output are trusted: counts and rows never checked")  \
  X(kWinnerFeaturePasses, "winner-feature-passes",                                                 \
    "protocol: a winner's writer feature the loser's writer does not support passes the check")    \
  X(kRecheckForgetsFirstCheck, "recheck-forgets-first-check",                                      \
    "retry: a rebased loser that loses again is checked from the version checked, as a new read")

enum class Mutant {
  kNone,
#define RLC_MUTANT_ENUM(id, name, what) id,
  RLC_MUTANT_LIST(RLC_MUTANT_ENUM)
#undef RLC_MUTANT_ENUM
};

struct MutantInfo {
  Mutant id;
  const char* name;
  const char* what;
};

const std::vector<MutantInfo>& AllMutants();
std::optional<Mutant> MutantByName(std::string_view name);
// Whether this build carries the mutants (configured with -DRLC_MUTANTS=ON).
bool Compiled();
// Whether the mutant sits in a kernel (impl/kernel/), where the proofs run it too.
bool InKernel(Mutant m);
void Select(Mutant m);
Mutant Selected();

}  // namespace rlc::mutants

#if defined(RLC_MUTANTS)
#define RLC_MUTANT(id) (::rlc::mutants::Selected() == ::rlc::mutants::Mutant::id)
#else
#define RLC_MUTANT(id) false
#endif

#endif  // RLC_IMPL_BASE_MUTANTS_H_
