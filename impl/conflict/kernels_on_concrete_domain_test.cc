// The kernels of Case 3, Case 1 and 1b on the production domain (impl/conflict/concrete_domain.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "impl/conflict/concrete_domain.h"
#include "impl/kernel/file_skipping.h"
#include "impl/kernel/relocation.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/removed_rows.h"
#include "impl/kernel/tiling.h"

namespace rlc::kernel {
namespace {

using conflict::ConcreteDomain;
using File = RelocatedFile<ConcreteDomain>;
using dv::RowBitmap;

static_assert(ValueDomain<ConcreteDomain>);

File Rows(int64_t physical, int64_t deleted = 0) {
  File f;
  f.physical_rows = physical;
  f.deleted_rows = deleted;
  return f;
}

File WithId(File f, int64_t min, int64_t max) {
  f.min_values["id"] = min;
  f.max_values["id"] = max;
  return f;
}

const ConcreteDomain d;

TEST(RelocationKernel, EqualLiveRowsConserve) {
  EXPECT_TRUE(RelocationConservesRows(d, {Rows(10, 2), Rows(5)}, {Rows(13)}));
  EXPECT_TRUE(RelocationConservesRows(d, {Rows(10, 2), Rows(5)}, {Rows(6), Rows(7)}));
  EXPECT_FALSE(RelocationConservesRows(d, {Rows(10, 2), Rows(5)}, {Rows(14)}));
  EXPECT_FALSE(RelocationConservesRows(d, {}, {Rows(1)}));
  EXPECT_TRUE(RelocationConservesRows(d, {}, {}));
  EXPECT_TRUE(RelocationConservesRows(d, {Rows(4, 4)}, {}));  // a fully deleted file purged
}

TEST(RelocationKernel, UnknownOrImpossibleCountsDoNotConserve) {
  File unknown;
  unknown.deleted_rows = 0;
  EXPECT_FALSE(RelocationConservesRows(d, {unknown}, {Rows(0)}));
  EXPECT_FALSE(RelocationConservesRows(d, {Rows(3)}, {unknown}));
  // 1 - 3 + 2 = 0 = 0 would balance; a DV larger than its file refutes it.
  EXPECT_FALSE(RelocationConservesRows(d, {Rows(1, 3), Rows(2)}, {Rows(0)}));
  EXPECT_FALSE(RelocationConservesRows(d, {Rows(5, -1)}, {Rows(6)}));
}

TEST(RelocationKernel, SumsDoNotOverflow) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(
      RelocationConservesRows(d, {Rows(max), Rows(max)}, {Rows(-2)}));  // wraps to -2 in 64 bits
  EXPECT_TRUE(RelocationConservesRows(d, {Rows(max), Rows(max)}, {Rows(max), Rows(max)}));
}

TEST(RelocationKernel, BoundsMustLieWithinTheSources) {
  const std::vector<File> sources = {WithId(Rows(5), 0, 9), WithId(Rows(5), 20, 24)};
  EXPECT_TRUE(RelocationConservesRows(d, sources, {WithId(Rows(10), 0, 24)}));
  EXPECT_TRUE(RelocationConservesRows(d, sources, {WithId(Rows(10), 3, 21)}));
  EXPECT_FALSE(RelocationConservesRows(d, sources, {WithId(Rows(10), -1, 24)}));
  EXPECT_FALSE(RelocationConservesRows(d, sources, {WithId(Rows(10), 0, 25)}));
  // A source without the column's statistics: the bound says nothing.
  EXPECT_TRUE(
      RelocationConservesRows(d, {WithId(Rows(5), 0, 9), Rows(5)}, {WithId(Rows(10), -50, 50)}));
  // The output without statistics: nothing to check.
  EXPECT_TRUE(RelocationConservesRows(d, sources, {Rows(10)}));
}

TEST(RelocationKernel, IncomparableBoundsDoNotConserve) {
  File text = Rows(5);
  text.min_values["id"] = std::string("a");
  text.max_values["id"] = std::string("z");
  EXPECT_FALSE(RelocationConservesRows(d, {WithId(Rows(5), 0, 9)}, {text}));
}

TEST(ConcreteDomainTest, ValueOrder) {
  EXPECT_TRUE(d.ValueLe(int64_t{3}, 3.5));
  EXPECT_FALSE(d.ValueLe(3.5, int64_t{3}));
  EXPECT_TRUE(d.ValueLe(int64_t{9007199254740993}, 9007199254740994.0));
  EXPECT_FALSE(d.ValueLe(int64_t{9007199254740993}, 9007199254740992.0));  // exact, not rounded
  EXPECT_FALSE(d.ValueLe(std::nan(""), 1.0));
  EXPECT_TRUE(d.ValueLe(std::string("abc"), std::string("abd")));
  EXPECT_TRUE(d.ValueLe(std::string("z"), std::string("\xc3\xa9")));  // unsigned bytes
  EXPECT_FALSE(d.ValueLe(std::string("1"), int64_t{1}));
  EXPECT_FALSE(d.ValueLe(std::monostate{}, int64_t{1}));
  EXPECT_TRUE(d.ValueLe(false, true));
  EXPECT_FALSE(d.ValueLe(true, false));
}

TEST(ConcreteDomainTest, SetOperations) {
  const RowBitmap s{1, 5, 9};
  EXPECT_TRUE(d.Rank(s, 0) == 0);
  EXPECT_TRUE(d.Rank(s, 5) == 1);
  EXPECT_TRUE(d.Rank(s, 6) == 2);
  EXPECT_TRUE(d.Rank(s, ConcreteDomain::Int(1) << 100) == 3);
  EXPECT_FALSE(d.Contains(s, -1));
  EXPECT_TRUE(d.Contains(d.Insert(s, 7), 7));
  EXPECT_TRUE(d.Cardinality(d.Union(s, RowBitmap{2})) == 4);
  EXPECT_TRUE(d.IsSubset(RowBitmap{1, 9}, s));
  EXPECT_FALSE(d.IsSubset(RowBitmap{1, 2}, s));
}

TEST(ConcreteDomainTest, RankCursorAgreesWithRankInAnyQueryOrder) {
  RowBitmap s;
  for (uint64_t r = 0; r < 5000; r += 7) s.Add(r);
  s.Add(uint64_t{1} << 40);
  const auto cursor = d.Ranker(s);
  std::vector<ConcreteDomain::Int> queries = {
      -3, 0, 1, 7, 8, 100, 101, 4999, 5000, 2, 3000, ConcreteDomain::Int(1) << 41};
  for (uint64_t q = 0; q < 6000; q += 13) queries.push_back(q);  // ascending, small steps
  queries.push_back(ConcreteDomain::Int(1) << 40);
  queries.push_back((ConcreteDomain::Int(1) << 40) + 1);
  for (ConcreteDomain::Int q : queries)
    EXPECT_TRUE(cursor.Below(q) == d.Rank(s, q)) << static_cast<int64_t>(q);
}

TEST(RemovedRowsKernel, ExactTierKeepsOnlyALiveMatch) {
  EXPECT_TRUE(FileMayHoldMatchingRow(d, RowBitmap{}, RowBitmap{4}));
  EXPECT_FALSE(FileMayHoldMatchingRow(d, RowBitmap{4}, RowBitmap{4}));
  EXPECT_FALSE(FileMayHoldMatchingRow(d, RowBitmap{1}, RowBitmap{}));
}

TEST(RemovedRowsKernel, DvUpdateBringsNoRowBackOnlyWhenItGrows) {
  EXPECT_TRUE(ReAddShowsNoUnseenRow(d, RowBitmap{3}, RowBitmap{3}, RowBitmap{3, 9}));
  EXPECT_TRUE(ReAddShowsNoUnseenRow(d, RowBitmap{}, RowBitmap{}, RowBitmap{}));
  EXPECT_FALSE(ReAddShowsNoUnseenRow(d, RowBitmap{}, RowBitmap{3, 9}, RowBitmap{9}));  // revives 3
  EXPECT_FALSE(ReAddShowsNoUnseenRow(d, RowBitmap{3, 9}, RowBitmap{9},
                                     RowBitmap{9}));  // 3 was deleted at the read
}

TEST(RemovedRowsKernel, RemovedRowsAreTheNewlyDeletedOnes) {
  const RowBitmap matching{6, 7, 8, 9};
  // Full removal: every row live before.
  EXPECT_TRUE(RemovedRowsMayMatch(d, RowBitmap{}, std::nullopt, matching));
  EXPECT_FALSE(RemovedRowsMayMatch(d, RowBitmap{6, 7, 8, 9}, std::nullopt, matching));
  // DV update: only rows the new DV adds.
  EXPECT_FALSE(RemovedRowsMayMatch(d, RowBitmap{7}, RowBitmap{1, 7}, matching));
  EXPECT_TRUE(RemovedRowsMayMatch(d, RowBitmap{}, RowBitmap{1, 7}, matching));
  // A post-image that drops a deleted row revives it: doubt.
  EXPECT_TRUE(RemovedRowsMayMatch(d, RowBitmap{2}, RowBitmap{1}, RowBitmap{}));
}

// Each guard of kernel/remap.h on its own: a source of 10 rows, row 0 deleted when compacted,
// placed at [9, 18) of an 18-row output.
TEST(RemapKernel, EveryGuardRefusesOnItsOwn) {
  const SourceRun<ConcreteDomain> run{9, 9};
  const int64_t max = int64_t{1} << 40;
  auto remap = [&](SourceRun<ConcreteDomain> r, ConcreteDomain::Int rows, int64_t row_max,
                   RowBitmap compacted, RowBitmap before, RowBitmap after) {
    RowBitmap out;
    const bool ok = RemapOntoOutput(d, r, rows, row_max, compacted, before, after, out);
    return std::make_pair(ok, out.ToVector());
  };
  EXPECT_EQ(remap(run, 18, max, {0}, {0}, {0, 3, 9}),
            std::make_pair(true, std::vector<uint64_t>{11, 17}));
  EXPECT_FALSE(remap({-1, 9}, 18, max, {0}, {0}, {0, 3}).first);  // start below 0
  EXPECT_FALSE(remap({9, -1}, 18, max, {0}, {0}, {0}).first);     // negative length
  EXPECT_FALSE(remap({10, 9}, 18, max, {0}, {0}, {0, 3}).first);  // run past the output
  EXPECT_FALSE(remap(run, 18, 16, {0}, {0}, {0, 3}).first);       // output past the row limit
  EXPECT_FALSE(remap(run, 18, max, {0, 1}, {0}, {0, 3}).first);   // compacted not within before
  EXPECT_FALSE(remap(run, 18, max, {0}, {0, 5}, {0, 3}).first);   // a row comes back
  EXPECT_FALSE(remap(run, 18, max, {0}, {0}, {0, 10}).first);     // rank 9: past the run
  EXPECT_TRUE(remap(run, 18, max, {0}, {0}, {0}).first);          // nothing new: fine
}

TEST(TilingKernel, RunsMustCoverTheOutputExactly) {
  using Run = SourceRun<ConcreteDomain>;
  EXPECT_TRUE(RunsTileOutput(d, std::vector<Run>{{0, 9}, {9, 10}}, 19));
  EXPECT_TRUE(RunsTileOutput(d, std::vector<Run>{{9, 10}, {0, 9}}, 19));   // any order
  EXPECT_FALSE(RunsTileOutput(d, std::vector<Run>{{0, 9}, {10, 9}}, 19));  // a gap
  EXPECT_FALSE(RunsTileOutput(d, std::vector<Run>{{0, 9}, {8, 11}}, 19));  // an overlap, sum right
  EXPECT_FALSE(RunsTileOutput(d, std::vector<Run>{{0, 9}, {9, 10}}, 20));  // short of the output
  EXPECT_FALSE(RunsTileOutput(d, std::vector<Run>{{-1, 10}, {9, 10}}, 19));
}

TEST(DataSkippingKernel, GuardsKeepTheFile) {
  SkippingGuards g;
  g.has_read_predicates = g.predicates_bound = g.statistics_usable = true;
  EXPECT_FALSE(KeepAddedFile(d, g, {false, false}));
  EXPECT_TRUE(KeepAddedFile(d, g, {false, true}));
  EXPECT_TRUE(KeepAddedFile(d, g, {}));
  for (bool SkippingGuards::*guard :
       {&SkippingGuards::has_read_predicates, &SkippingGuards::predicates_bound,
        &SkippingGuards::statistics_usable}) {
    SkippingGuards off = g;
    off.*guard = false;
    EXPECT_TRUE(KeepAddedFile(d, off, {false}));
  }
  SkippingGuards whole = g;
  whole.whole_table_read = true;
  EXPECT_TRUE(KeepAddedFile(d, whole, {false}));
}

}  // namespace
}  // namespace rlc::kernel
