#include "proofs/dv_merge_obligations.h"

#include <string>

#include "impl/kernel/dv_merge.h"
#include "proofs/obligations.h"

namespace rlc::proofs {

namespace {

// The kernel, run on fresh inputs; kept with the inputs so every claim can state and show them.
struct Case2Run {
  Z3Domain::Set base;
  Z3Domain::Set winner;
  Z3Domain::Set loser;
  kernel::DvMerge<Z3Domain> merge;
};

Case2Run RunKernel(const Z3Domain& d) {
  Z3Domain::Set base = d.FreshSet("base");
  Z3Domain::Set winner = d.FreshSet("winner");
  Z3Domain::Set loser = d.FreshSet("loser");
  kernel::DvMerge<Z3Domain> merge = kernel::MergeDeletionVectors(d, base, winner, loser);
  return {base, winner, loser, merge};
}

// Both serial orders: the winner's DV plus the loser's new deletions, and the other way round.
z3::expr MergedIsSerial(const Z3Domain& d, const Case2Run& run) {
  const Z3Domain::Set winner_then_loser = d.Union(run.winner, d.Difference(run.loser, run.base));
  const Z3Domain::Set loser_then_winner = d.Union(run.loser, d.Difference(run.winner, run.base));
  return d.SetEq(run.merge.merged, winner_then_loser) &&
         d.SetEq(run.merge.merged, loser_then_winner);
}

std::string Bound(const Z3Domain& d) {
  return " (rows 0.." + std::to_string(d.universe() - 1) + ")";
}

Obligation Make(const std::string& name, const std::string& statement, Expectation expectation,
                const z3::expr& claim, const Case2Run& run, const Z3Domain& d) {
  return {name,
          statement + Bound(d),
          expectation,
          claim,
          {ShowSet("base", run.base), ShowSet("winner", run.winner), ShowSet("loser", run.loser)},
          {ShowBool("resolved", run.merge.resolved), ShowSet("merged", run.merge.merged)}};
}

}  // namespace

Obligation Case2MergedIsSerial(const Z3Domain& d) {
  const Case2Run run = RunKernel(d);
  return Make("case2.merged_is_serial",
              "resolved => merged = winner | (loser - base) = loser | (winner - base)",
              Expectation::kValid, z3::implies(run.merge.resolved, MergedIsSerial(d, run)), run, d);
}

Obligation Case2NoRowDeletedByBoth(const Z3Domain& d) {
  const Case2Run run = RunKernel(d);
  const z3::expr disjoint =
      d.IsEmpty(d.Intersect(d.Difference(run.winner, run.base), d.Difference(run.loser, run.base)));
  return Make("case2.no_row_deleted_by_both",
              "resolved => (winner - base) & (loser - base) is empty", Expectation::kValid,
              z3::implies(run.merge.resolved, disjoint), run, d);
}

Obligation Case2WithoutGuardMergedIsSerial(const Z3Domain& d) {
  const Case2Run run = RunKernel(d);
  return Make("case2.no_guard.merged_is_serial", "without the guard, merged is serial (must fail)",
              Expectation::kRefutable, MergedIsSerial(d, run), run, d);
}

Obligation Case2OverlapOnlyMergedIsSerial(const Z3Domain& d) {
  const Case2Run run = RunKernel(d);
  // The reference's test: no row newly deleted by both sides.
  const z3::expr no_overlap = d.IsEmpty(d.Difference(d.Intersect(run.winner, run.loser), run.base));
  return Make("case2.overlap_only.merged_is_serial",
              "with the overlap test alone, merged is serial (must fail: a side may revive a row)",
              Expectation::kRefutable, z3::implies(no_overlap, MergedIsSerial(d, run)), run, d);
}

Obligation Case2NeverResolvesTwoAdditions(const Z3Domain& d) {
  const Case2Run run = RunKernel(d);
  const z3::expr both_added = !d.IsEmpty(d.Difference(run.winner, run.base)) &&
                              !d.IsEmpty(d.Difference(run.loser, run.base));
  return Make(
      "case2.never_resolves_two_additions",
      "resolved never holds when both sides add a deletion (must fail: the premise is satisfiable)",
      Expectation::kRefutable, z3::implies(both_added, !run.merge.resolved), run, d);
}

// This file's obligations, in the order they are reported (obligations.h).
const ObligationTable kObligations("dv_merge",
                                   {
                                       {&Case2MergedIsSerial, kCase2Universe},
                                       {&Case2NoRowDeletedByBoth, kCase2Universe},
                                       {&Case2WithoutGuardMergedIsSerial, kCase2RefutationUniverse},
                                       {&Case2OverlapOnlyMergedIsSerial, kCase2RefutationUniverse},
                                       {&Case2NeverResolvesTwoAdditions, kCase2RefutationUniverse},
                                   });

}  // namespace rlc::proofs
