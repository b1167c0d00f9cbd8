// The proofs, run in CTest under the label `proof`. Each test checks one registered obligation
// (obligations.h) and asserts its expected outcome: a proof must be proved (unsat negation), and
// its guard-less or vacuity variant must be refuted with a printed counterexample, so an
// encoding that made every claim vacuously true would fail here. Solver times are printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "impl/conflict/case_catalogue.h"
#include "impl/kernel/dv_merge.h"
#include "proofs/catalogue.h"
#include "proofs/dv_merge_obligations.h"
#include "proofs/obligations.h"
#include "proofs/prover.h"
#include "proofs/remap_obligations.h"
#include "proofs/z3_domain.h"

namespace rlc::proofs {
namespace {

ObligationRun RunAndPrint(Obligation (*build)(const Z3Domain&), int universe) {
  ObligationRun run = RunObligation({build, universe});
  std::cout << "[proof] " << run.statement << "\n[proof] " << Describe(run.result);
  return run;
}

void ExpectProved(const ObligationRun& run) {
  EXPECT_EQ(run.expectation, Expectation::kValid);
  EXPECT_TRUE(run.result.proved) << Describe(run.result);
  EXPECT_EQ(run.result.verdict, Verdict::kProved) << Describe(run.result);
  EXPECT_TRUE(run.met);
}

void ExpectRefuted(const ObligationRun& run) {
  EXPECT_EQ(run.expectation, Expectation::kRefutable);
  EXPECT_FALSE(run.result.proved);
  EXPECT_EQ(run.result.verdict, Verdict::kRefuted) << Describe(run.result);
  EXPECT_FALSE(run.result.counterexample.empty());
  EXPECT_TRUE(run.met);
}

TEST(Case2Proof, MergedIsSerialInBothOrders) {
  ExpectProved(RunAndPrint(&Case2MergedIsSerial, kCase2Universe));
}

TEST(Case2Proof, NoRowIsDeletedByBothSides) {
  ExpectProved(RunAndPrint(&Case2NoRowDeletedByBoth, kCase2Universe));
}

TEST(Case2Proof, UnionWithoutGuardIsRefuted) {
  const ObligationRun run = RunAndPrint(&Case2WithoutGuardMergedIsSerial, kCase2RefutationUniverse);
  ExpectRefuted(run);
  EXPECT_NE(run.result.counterexample.find("base = {"), std::string::npos)
      << run.result.counterexample;
  EXPECT_NE(run.result.counterexample.find("merged = {"), std::string::npos)
      << run.result.counterexample;
}

TEST(Case2Proof, OverlapTestAloneIsRefuted) {
  ExpectRefuted(RunAndPrint(&Case2OverlapOnlyMergedIsSerial, kCase2RefutationUniverse));
}

TEST(Case2Proof, ResolvedHoldsForAMergeOfTwoAdditions) {
  const ObligationRun run = RunAndPrint(&Case2NeverResolvesTwoAdditions, kCase2RefutationUniverse);
  ExpectRefuted(run);
  EXPECT_NE(run.result.counterexample.find("resolved = true"), std::string::npos)
      << run.result.counterexample;
}

// remap.carries_exactly_new_deletions (6 s over 64 source rows) is proved by the registry test
// below, once.

TEST(RemapProof, WithoutGuardIsRefuted) {
  ExpectRefuted(
      RunAndPrint(&RemapWithoutGuardCarriesExactlyNewDeletions, kRemapRefutationUniverse));
}

TEST(RemapProof, OkHoldsForARemapThatShiftsARow) {
  const ObligationRun run = RunAndPrint(&RemapNeverOkPastACompactedRow, kRemapRefutationUniverse);
  ExpectRefuted(run);
  EXPECT_NE(run.result.counterexample.find("ok = true"), std::string::npos)
      << run.result.counterexample;
}

TEST(Registry, EveryObligationMeetsItsExpectation) {
  double total_ms = 0;
  const std::vector<ObligationOutcome> outcomes = ProveObligations("", /*jobs=*/2);
  ASSERT_EQ(outcomes.size(), AllObligations().size());
  for (const ObligationOutcome& o : outcomes) {
    total_ms += o.solver_ms;
    std::cout << "[proof] " << o.name << ": " << o.result << " in " << o.solver_ms << " ms ("
              << o.bound << ")\n";
    EXPECT_TRUE(o.ok) << o.name << ": " << o.result << "\n" << o.counterexample;
  }
  std::cout << "[proof] " << outcomes.size() << " obligations, solver time " << total_ms << " ms\n";
}

// Every prefix a case of the catalogue names selects at least one obligation, and every
// obligation of a case's own prefix is claimed by a row (remap, capture and tiling belong to 4a).
TEST(Registry, EveryCaseOfTheCatalogueHasItsObligations) {
  const std::vector<std::string> names = ObligationNames();
  for (const conflict::CaseEntry& c : conflict::kCases) {
    for (std::string_view prefix : c.proofs) {
      const auto n = std::count_if(names.begin(), names.end(), [&](const std::string& name) {
        return name.rfind(prefix, 0) == 0;
      });
      EXPECT_GT(n, 0) << "case " << c.id << ": no obligation named " << prefix << "*";
    }
  }
  for (const std::string& name : names) {
    if (name.find('.') == std::string::npos) continue;  // the domain's own claims
    bool claimed = false;
    for (const conflict::CaseEntry& c : conflict::kCases) {
      for (std::string_view prefix : c.proofs) claimed = claimed || name.rfind(prefix, 0) == 0;
    }
    EXPECT_TRUE(claimed) << "obligation " << name << " belongs to no case of the catalogue";
  }
}

// The domain's own semantics, on terms the solver must agree with, so a wrong operation cannot
// make a kernel proof pass by accident.
Obligation DomainClaim(const std::string& name, const z3::expr& claim) {
  return {name, name, Expectation::kValid, claim, {}, {}};
}

TEST(Z3DomainSemantics, OperationsMeanWhatTheContractSays) {
  z3::context context;
  const Z3Domain d(context, 6);
  const Z3Domain::Set s = d.FreshSet("s");
  const Z3Domain::Set t = d.FreshSet("t");
  const z3::expr x = d.FreshInt("x");
  const z3::expr in_universe = 0 <= x && x < 6;
  const std::vector<Obligation> claims = {
      DomainClaim("insert then contains", z3::implies(in_universe, d.Contains(d.Insert(s, x), x))),
      DomainClaim("insert outside the universe is a no-op",
                  z3::implies(!in_universe, d.SetEq(d.Insert(s, x), s))),
      DomainClaim("contains is false outside the universe",
                  z3::implies(!in_universe, !d.Contains(s, x))),
      DomainClaim("inclusion-exclusion",
                  d.Add(d.Cardinality(d.Union(s, t)), d.Cardinality(d.Intersect(s, t))) ==
                      d.Add(d.Cardinality(s), d.Cardinality(t))),
      DomainClaim("rank of the universe size is the cardinality",
                  d.Rank(s, d.Const(6)) == d.Cardinality(s)),
      DomainClaim("rank counts members below", d.Rank(d.Insert(d.EmptySet(), d.Const(2)), x) ==
                                                   z3::ite(x > 2, d.Const(1), d.Const(0))),
      DomainClaim("difference is disjoint from the subtrahend",
                  d.IsEmpty(d.Intersect(d.Difference(s, t), t))),
      DomainClaim("subset iff union is the superset",
                  d.IsSubset(s, t) == d.SetEq(d.Union(s, t), t)),
      DomainClaim("empty iff cardinality zero", d.IsEmpty(s) == (d.Cardinality(s) == 0)),
  };
  for (const Obligation& claim : claims) {
    const ProofResult result = Check(claim);
    EXPECT_TRUE(result.proved) << Describe(result);
  }
  // ForEachMember visits the whole universe in ascending order, present = membership.
  int visited = 0;
  d.ForEachMember(s, [&](const z3::expr& element, const z3::expr& present) {
    EXPECT_TRUE(element.is_numeral());
    EXPECT_EQ(element.get_numeral_int(), visited);
    EXPECT_TRUE(z3::eq(present, s.members[visited]));
    ++visited;
  });
  EXPECT_EQ(visited, 6);
}

// Unbounded sets (output DVs): every integer is a row, and the operations they support mean the
// same as on bounded sets.
TEST(Z3DomainSemantics, UnboundedSetsHoldEveryRow) {
  z3::context context;
  const Z3Domain d(context, 6);
  const Z3Domain::Set s = d.FreshUnboundedSet("s");
  const z3::expr x = d.FreshInt("x"), y = d.FreshInt("y"), c = context.bool_const("c");
  Z3Domain::Set inserted_when = s;
  d.InsertWhen(inserted_when, x, c);
  const std::vector<Obligation> claims = {
      DomainClaim("insert then contains, far outside any universe",
                  z3::implies(x > 1000000, d.Contains(d.Insert(s, x), x))),
      DomainClaim("insert leaves other rows",
                  z3::implies(x != y, d.Contains(d.Insert(s, x), y) == d.Contains(s, y))),
      DomainClaim("insert-when inserts exactly when",
                  d.Contains(inserted_when, x) == (d.Contains(s, x) || c)),
      DomainClaim("the empty set holds nothing", !d.Contains(d.EmptyUnboundedSet(), x)),
      DomainClaim("empty iff no row is held", z3::implies(d.IsEmpty(s), !d.Contains(s, x))),
      DomainClaim("one insertion is not empty", !d.IsEmpty(d.Insert(d.EmptyUnboundedSet(), x))),
      DomainClaim("ite picks a set",
                  d.Contains(d.IteSet(c, d.Insert(s, x), s), x) == (c || d.Contains(s, x))),
      DomainClaim("equal sets agree on every row",
                  z3::implies(d.SetEq(s, d.Insert(s, x)), d.Contains(s, x))),
  };
  for (const Obligation& claim : claims) {
    const ProofResult result = Check(claim);
    EXPECT_TRUE(result.proved) << Describe(result);
  }
  // A counterexample shows an unbounded set over the window its obligation names.
  const ShownValue shown = ShowSet("s", s, 4);
  EXPECT_EQ(shown.terms.size(), 4u);
}

// A query the solver cannot finish within its limit must come back unknown, never proved.
TEST(Prover, TimeoutIsNotProved) {
  z3::context context;
  // Pigeonhole: 11 pigeons, 10 holes, each pigeon in some hole, no two in the same one. The claim
  // that this is impossible is true, and hard for a CDCL solver: Z3 4.8.12 needs about 6 s, so a
  // 10 ms limit must run out.
  constexpr int kHoles = 10;
  std::vector<std::vector<z3::expr>> in;
  z3::expr placement = context.bool_val(true);
  for (int p = 0; p <= kHoles; ++p) {
    in.emplace_back();
    z3::expr somewhere = context.bool_val(false);
    for (int h = 0; h < kHoles; ++h) {
      in[p].push_back(
          context.bool_const(("in_" + std::to_string(p) + "_" + std::to_string(h)).c_str()));
      somewhere = somewhere || in[p][h];
    }
    placement = placement && somewhere;
  }
  for (int h = 0; h < kHoles; ++h) {
    for (int p = 0; p <= kHoles; ++p) {
      for (int q = p + 1; q <= kHoles; ++q) placement = placement && !(in[p][h] && in[q][h]);
    }
  }
  const ProofResult result = Check(DomainClaim("pigeonhole", !placement), /*timeout_ms=*/10);
  std::cout << "[proof] " << Describe(result);
  EXPECT_FALSE(result.proved);
  EXPECT_EQ(result.verdict, Verdict::kUnknown);
}

}  // namespace
}  // namespace rlc::proofs
