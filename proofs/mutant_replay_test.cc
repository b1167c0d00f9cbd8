// Each kernel mutant (impl/base/mutants.h) against the obligation that refutes it, replayed: the
// counterexample Z3 finds under the mutant is decoded (counterexample.h) into concrete inputs,
// the shipped kernel runs on them with the production domain, and the claim, checked here in
// plain C++, must fail with the mutant selected and hold without it. So the decoded model is a
// real failing input of the code that ships, not an artefact of the encoding.
//
// Built only with -DRLC_MUTANTS=ON (CTest label `mutants`); the ASan build of scripts/test.sh is
// one. Universes are those of the registry or smaller: a counterexample within fewer rows is one
// within more, and shrinking it is faster.
#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "impl/base/limits.h"
#include "impl/base/mutants.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/kernel/dv_merge.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/removed_rows.h"
#include "impl/kernel/stats_leaf.h"
#include "impl/kernel/truth_values.h"
#include "impl/predicate/literal_order.h"
#include "proofs/case_obligations.h"
#include "proofs/dv_merge_obligations.h"
#include "proofs/obligations.h"
#include "proofs/remap_obligations.h"
#include "proofs/stats_obligations.h"
#include "proofs/truth_value_obligations.h"

namespace rlc::proofs {
namespace {

using conflict::ConcreteDomain;
using dv::RowBitmap;
using Mutant = std::string_view;  // a mutant, by its name

RowBitmap SetOf(const DecodedValue& v) {
  EXPECT_EQ(v.kind, ShownKind::kSet) << v.name;
  RowBitmap set;
  for (int64_t m : v.members) set.Add(static_cast<uint64_t>(m));
  return set;
}

int64_t IntOf(const DecodedValue& v) {
  EXPECT_EQ(v.kind, ShownKind::kInt) << v.name;
  return std::stoll(v.decimal);
}

bool BoolOf(const DecodedValue& v) {
  EXPECT_EQ(v.kind, ShownKind::kBool) << v.name;
  return v.boolean;
}

std::string NameOf(Mutant mutant) {
  EXPECT_NE(conflict::FindMutant(mutant), nullptr) << mutant << " is not in the case catalogue";
  return std::string(mutant);
}

// Runs `build` over `universe` rows with the mutant selected; it must be refuted.
DecodedCounterexample RefutedUnder(Mutant mutant, Obligation (*build)(const Z3Domain&),
                                   int universe) {
  mutants::Select(mutant);
  const ObligationRun run = RunObligation({build, universe});
  mutants::Select("");
  EXPECT_EQ(run.result.verdict, Verdict::kRefuted) << Describe(run.result);
  std::cout << "[replay] " << NameOf(mutant) << ": " << Describe(run.result);
  return run.result.decoded;
}

// The claim on concrete inputs, evaluated with the mutant and without.
template <typename Claim>
void ExpectFailsOnlyUnderMutant(Mutant mutant, Claim holds) {
  mutants::Select(mutant);
  const bool with_mutant = holds();
  mutants::Select("");
  EXPECT_FALSE(with_mutant)
      << "the decoded counterexample does not fail the shipped kernel under the mutant";
  EXPECT_TRUE(holds()) << "the decoded counterexample fails the kernel without the mutant";
}

// ---- Case 2 ----------------------------------------------------------------------------------

void ReplayCase2(Mutant mutant, Obligation (*build)(const Z3Domain&), bool serial_claim) {
  const DecodedCounterexample c = RefutedUnder(mutant, build, kCase2RefutationUniverse);
  const RowBitmap base = SetOf(c.Input("base")), winner = SetOf(c.Input("winner")),
                  loser = SetOf(c.Input("loser"));
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    const kernel::DvMerge<ConcreteDomain> m =
        kernel::MergeDeletionVectors(ConcreteDomain{}, base, winner, loser);
    if (!m.resolved) return true;
    if (serial_claim) {
      return m.merged == winner.Union(loser.Difference(base)) &&
             m.merged == loser.Union(winner.Difference(base));
    }
    return winner.Difference(base).Intersect(loser.Difference(base)).IsEmpty();
  });
}

TEST(MutantReplay, Case2NoOverlapTest) {
  ReplayCase2("case2-no-overlap-test", &Case2NoRowDeletedByBoth, /*serial_claim=*/false);
}
TEST(MutantReplay, Case2LoserDvOnly) {
  ReplayCase2("case2-loser-dv-only", &Case2MergedIsSerial, true);
}
TEST(MutantReplay, Case2WinnerDvOnly) {
  ReplayCase2("case2-winner-dv-only", &Case2MergedIsSerial, true);
}

// ---- remap -----------------------------------------------------------------------------------

// ok => output = initial + {start + i - rank(compacted, i) : i in after - before}, each inside the
// run.
void ReplayRemap(Mutant mutant) {
  constexpr int kUniverse = kRemapRefutationUniverse;
  const DecodedCounterexample c = RefutedUnder(mutant, &RemapCarriesExactlyNewDeletions, kUniverse);
  const int64_t start = IntOf(c.Input("start")), live = IntOf(c.Input("live"));
  const int64_t output_rows = IntOf(c.Input("output_rows"));
  const RowBitmap compacted = SetOf(c.Input("compacted")), before = SetOf(c.Input("before")),
                  after = SetOf(c.Input("after")), initial = SetOf(c.Input("output_dv"));
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    RowBitmap output = initial;
    const kernel::SourceRun<ConcreteDomain> run{start, live};
    if (!kernel::RemapOntoOutput(ConcreteDomain{}, run, output_rows,
                                 static_cast<int64_t>(kRowIndexMax), compacted, before, after,
                                 output)) {
      return true;
    }
    RowBitmap expected = initial;
    bool inside = true;
    after.Difference(before).ForEach([&](uint64_t i) {
      const int64_t position =
          start + static_cast<int64_t>(i) -
          static_cast<int64_t>(compacted.Rank(i) - (compacted.Contains(i) ? 1 : 0));
      inside = inside && start <= position && position < start + live;
      if (position >= 0) expected.Add(static_cast<uint64_t>(position));
    });
    return inside && output == expected;
  });
}

TEST(MutantReplay, RemapRankOffByOne) { ReplayRemap("remap-rank-off-by-one"); }
TEST(MutantReplay, RemapIgnoresCompactedDv) { ReplayRemap("remap-ignores-compacted-dv"); }

TEST(MutantReplay, ReverseRemapNoH1) {
  const Mutant mutant = "4b-no-h1";
  const DecodedCounterexample c =
      RefutedUnder(mutant, &H1EveryTouchedSourceRemapped, kSourcesUniverse);
  const RowBitmap touched = SetOf(c.Input("touched")), remapped = SetOf(c.Input("remapped"));
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    return !kernel::EveryTouchedSourceRemapped(ConcreteDomain{}, touched, remapped) ||
           touched.IsSubsetOf(remapped);
  });
}

// ---- Case 1 ----------------------------------------------------------------------------------

TEST(MutantReplay, ExactTierDeletedRows) {
  const Mutant mutant = "exact-tier-deleted-rows";
  const DecodedCounterexample c = RefutedUnder(mutant, &ExactTierKeepsEveryLiveMatch, 16);
  const RowBitmap dv = SetOf(c.Input("dv")), matching = SetOf(c.Input("matching"));
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    return kernel::FileMayHoldMatchingRow(ConcreteDomain{}, dv, matching) ||
           matching.IsSubsetOf(dv);
  });
}

TEST(MutantReplay, OneBOutrightRemoveIgnored) {
  const Mutant mutant = "1b-outright-remove-ignored";
  const DecodedCounterexample c = RefutedUnder(mutant, &OneBOutrightRemoveSeesEveryMatch, 16);
  const RowBitmap pre = SetOf(c.Input("pre_dv")), matching = SetOf(c.Input("matching"));
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    return kernel::RemovedRowsMayMatch(ConcreteDomain{}, pre, std::nullopt, matching) ||
           matching.Difference(pre).IsEmpty();
  });
}

// The leaf's counterexample is over integers (Z3's model of values): replayed on long literals.
TEST(MutantReplay, DataSkippingGeOffByOne) {
  const Mutant mutant = "data-skipping-ge-off-by-one";
  const DecodedCounterexample c = RefutedUnder(mutant, &LeafAdmitsEveryConsistentValue, kNoRows);
  using predicate::Literal;
  const bool has_lower = BoolOf(c.Input("has_lower")), has_upper = BoolOf(c.Input("has_upper"));
  const bool upper_is_prefix = BoolOf(c.Input("upper_is_prefix"));
  const int64_t lower = IntOf(c.Input("lower")), upper = IntOf(c.Input("upper"));
  const int64_t prefix_end = IntOf(c.Input("prefix_end")), x = IntOf(c.Input("x")),
                v = IntOf(c.Input("v"));
  auto starts_with_upper = [&](int64_t s) { return upper <= s && s < prefix_end; };
  // The model's v is one the bounds admit.
  ASSERT_TRUE(upper < prefix_end && (!has_lower || lower <= v) &&
              (!has_upper || v <= upper || (upper_is_prefix && starts_with_upper(v))));
  const kernel::ValueBounds<predicate::LiteralOrder> bounds{
      has_lower, Literal::Long(lower), has_upper, Literal::Long(upper), upper_is_prefix};
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    const struct {
      kernel::LeafOp op;
      bool holds;
    } cases[] = {{kernel::LeafOp::kEq, v == x}, {kernel::LeafOp::kNe, v != x},
                 {kernel::LeafOp::kLt, v < x},  {kernel::LeafOp::kLe, v <= x},
                 {kernel::LeafOp::kGt, v > x},  {kernel::LeafOp::kGe, v >= x}};
    for (const auto& k : cases) {
      const kernel::LeafPossible<predicate::LiteralOrder> p = kernel::CompareWithLiteral(
          predicate::LiteralOrder{}, bounds, k.op, Literal::Long(x), starts_with_upper(x));
      if (k.holds ? !p.can_be_true : !p.can_be_false) return false;
    }
    return true;
  });
}

// Above the leaves: one row's truth values, combined by the concrete kernels.
struct Truth {
  bool is_true, is_false;
};

kernel::MayTake<predicate::LiteralOrder> AnswerOf(const DecodedCounterexample& c,
                                                  const std::string& name) {
  return {BoolOf(c.Input(name + ".can_be_true")), BoolOf(c.Input(name + ".can_be_false")),
          BoolOf(c.Input(name + ".can_be_unknown"))};
}

bool Covers(const kernel::MayTake<predicate::LiteralOrder>& m, Truth v) {
  const bool unknown = !v.is_true && !v.is_false;
  return (!v.is_true || m.can_be_true) && (!v.is_false || m.can_be_false) &&
         (!unknown || m.can_be_unknown);
}

TEST(MutantReplay, DataSkippingOrFirstDisjunct) {
  const Mutant mutant = "data-skipping-or-first-disjunct";
  const DecodedCounterexample c = RefutedUnder(mutant, &ConnectiveRunsEveryChild, kNoRows);
  std::vector<kernel::MayTake<predicate::LiteralOrder>> children;
  std::vector<Truth> values;
  for (int i = 0; i < 3; ++i) {
    const std::string name = "child" + std::to_string(i);
    children.push_back(AnswerOf(c, name));
    values.push_back(
        {BoolOf(c.Input(name + "_value.true")), BoolOf(c.Input(name + "_value.false"))});
    ASSERT_TRUE(Covers(children.back(), values.back())) << name;  // the premise holds of the model
  }
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    for (bool is_and : {true, false}) {
      Truth whole = values[0];
      for (int i = 1; i < 3; ++i) {
        whole =
            is_and
                ? Truth{whole.is_true && values[i].is_true, whole.is_false || values[i].is_false}
                : Truth{whole.is_true || values[i].is_true, whole.is_false && values[i].is_false};
      }
      if (!Covers(kernel::Connective(predicate::LiteralOrder{}, children, is_and), whole))
        return false;
    }
    return true;
  });
}

TEST(MutantReplay, DataSkippingNullsIgnored) {
  const Mutant mutant = "data-skipping-nulls-ignored";
  const DecodedCounterexample c = RefutedUnder(mutant, &NullTestKeepsEveryRowValue, kNoRows);
  const bool row_is_null = BoolOf(c.Input("row_is_null"));
  const bool may_be_null = BoolOf(c.Input("may_be_null")),
             may_be_non_null = BoolOf(c.Input("may_be_non_null"));
  ASSERT_TRUE(row_is_null ? may_be_null : may_be_non_null);  // the facts cover the row
  ExpectFailsOnlyUnderMutant(mutant, [&] {
    const predicate::LiteralOrder d;
    return Covers(kernel::NullTest(d, may_be_null, may_be_non_null, true),
                  {row_is_null, !row_is_null}) &&
           Covers(kernel::NullTest(d, may_be_null, may_be_non_null, false),
                  {!row_is_null, row_is_null});
  });
}

// Every kernel mutant has a replay above: a new one must get its own.
TEST(MutantReplay, EveryKernelMutantIsReplayed) {
  const std::set<std::string> replayed = {
      "case2-no-overlap-test",       "case2-loser-dv-only",
      "case2-winner-dv-only",        "remap-rank-off-by-one",
      "remap-ignores-compacted-dv",  "4b-no-h1",
      "exact-tier-deleted-rows",     "1b-outright-remove-ignored",
      "data-skipping-ge-off-by-one", "data-skipping-or-first-disjunct",
      "data-skipping-nulls-ignored"};
  for (const conflict::MutantEntry& m : conflict::AllMutants()) {
    if (m.in_kernel) {
      EXPECT_TRUE(replayed.count(std::string(m.name))) << m.name;
    }
  }
}

}  // namespace
}  // namespace rlc::proofs
