// Case 2's DV union and Case 4's forward and reverse remap on a file of N rows with 1% of its rows
// newly deleted on each side, as ratios to CRoaring's raw union of the same bitmaps.
//
// Bitmaps: `read` deletes 0.5% of the rows (the DV both sides, or the compaction, read the file
// with); the winner and the loser each add 1% more, drawn independently from the live rows
// (seeded, so runs compare), kept disjoint so that Case 2 resolves. The baseline is CRoaring's
// `|` of the winner's and the loser's 32-bit bitmaps (N < 2^32), the cheapest union there is.
// The kernels run exactly as the checker calls them (ConcreteDomain, RowBitmap); the remaps map
// the winner's new rows onto an output whose run starts at 0.
//
// Arguments: N (rows). N = 10^7 is the size; 10^6 and 10^8 show how each cost scales
// with the file while the deletions grow with it; with `deleted` set, every N has the same
// deletions (that many new rows per side, half as many in the read DV), so a cost that tracks
// rows rather than deletions would show.
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <roaring/roaring.hh>

#include "impl/base/limits.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/kernel/dv_merge.h"
#include "impl/kernel/remap.h"

namespace {

using rlc::conflict::ConcreteDomain;
using rlc::dv::RowBitmap;

struct Fixture {
  RowBitmap read, winner, loser;
  Roaring raw_winner, raw_loser;
  int64_t live = 0;
};

// `deleted`: rows each side newly deletes (0: 1% of rows).
const Fixture& Make(uint64_t rows, uint64_t deleted) {
  static std::map<std::pair<uint64_t, uint64_t>, Fixture> cache;
  auto it = cache.find({rows, deleted});
  if (it != cache.end()) return it->second;
  Fixture f;
  std::mt19937_64 rng(rows ^ deleted);
  std::uniform_int_distribution<uint64_t> any(0, rows - 1);
  std::vector<uint64_t> read;
  const uint64_t read_rows = deleted == 0 ? rows / 200 : deleted / 2;
  for (uint64_t i = 0; i < read_rows; ++i) read.push_back(any(rng));
  f.read = RowBitmap::FromSorted(read);
  const uint64_t each = deleted == 0 ? rows / 100 : deleted;
  RowBitmap winner_new, loser_new;
  while (winner_new.Cardinality() < each) {
    const uint64_t r = any(rng);
    if (!f.read.Contains(r)) winner_new.Add(r);
  }
  while (loser_new.Cardinality() < each) {
    const uint64_t r = any(rng);
    if (!f.read.Contains(r) && !winner_new.Contains(r)) loser_new.Add(r);
  }
  f.winner = f.read.Union(winner_new);
  f.loser = f.read.Union(loser_new);
  f.winner.ForEach([&](uint64_t r) { f.raw_winner.add(static_cast<uint32_t>(r)); });
  f.loser.ForEach([&](uint64_t r) { f.raw_loser.add(static_cast<uint32_t>(r)); });
  f.live = static_cast<int64_t>(rows - f.read.Cardinality());
  return cache.emplace(std::make_pair(rows, deleted), std::move(f)).first->second;
}

void BM_RawCRoaringUnion(benchmark::State& state) {
  const Fixture& f = Make(state.range(0), state.range(1));
  for (auto _ : state) {
    Roaring u = f.raw_winner | f.raw_loser;
    benchmark::DoNotOptimize(u);
  }
}

// RowBitmap's plain union (CRoaring's per bucket), for the wrapper's own cost; the Case 2 kernel
// itself asks for the union together with its overlap test (UnionTestingMeet).
void BM_RowBitmapPlainUnion(benchmark::State& state) {
  const Fixture& f = Make(state.range(0), state.range(1));
  for (auto _ : state) {
    RowBitmap u = f.winner.Union(f.loser);
    benchmark::DoNotOptimize(u);
  }
}

void BM_Case2MergeKernel(benchmark::State& state) {
  const Fixture& f = Make(state.range(0), state.range(1));
  for (auto _ : state) {
    rlc::kernel::DvMerge<ConcreteDomain> m =
        rlc::kernel::MergeDeletionVectors(ConcreteDomain{}, f.read, f.winner, f.loser);
    if (!m.resolved) state.SkipWithError("the fixture's deletions must be disjoint");
    benchmark::DoNotOptimize(m);
  }
}

void BM_ForwardRemapKernel(benchmark::State& state) {
  const Fixture& f = Make(state.range(0), state.range(1));
  const rlc::kernel::SourceRun<ConcreteDomain> run{0, f.live};
  for (auto _ : state) {
    RowBitmap output;
    const bool ok = rlc::kernel::RemapOntoOutput(ConcreteDomain{}, run, f.live,
                                                 static_cast<int64_t>(rlc::kRowIndexMax), f.read,
                                                 f.read, f.winner, output);
    if (!ok) state.SkipWithError("the remap must succeed");
    benchmark::DoNotOptimize(output);
  }
}

void BM_ReverseRemapKernel(benchmark::State& state) {
  const Fixture& f = Make(state.range(0), state.range(1));
  const rlc::kernel::SourceRun<ConcreteDomain> run{0, f.live};
  for (auto _ : state) {
    RowBitmap output;
    const bool ok = rlc::kernel::ReverseRemapOntoOutput(ConcreteDomain{}, run, f.live,
                                                        static_cast<int64_t>(rlc::kRowIndexMax),
                                                        f.read, f.read, f.loser, output);
    if (!ok) state.SkipWithError("the remap must succeed");
    benchmark::DoNotOptimize(output);
  }
}

void Sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "deleted"});
  for (int64_t rows : {1000000, 10000000, 100000000}) b->Args({rows, 0});
  for (int64_t rows : {1000000, 10000000, 100000000}) b->Args({rows, 100000});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_RawCRoaringUnion)->Apply(Sizes);
BENCHMARK(BM_RowBitmapPlainUnion)->Apply(Sizes);
BENCHMARK(BM_Case2MergeKernel)->Apply(Sizes);
BENCHMARK(BM_ForwardRemapKernel)->Apply(Sizes);
BENCHMARK(BM_ReverseRemapKernel)->Apply(Sizes);

}  // namespace
