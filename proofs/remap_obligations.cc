#include "proofs/remap_obligations.h"

#include <string>
#include <vector>

#include "impl/base/limits.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/tiling.h"
#include "proofs/obligations.h"

namespace rlc::proofs {

namespace {

// Rows the counterexample printer shows of an unbounded output DV (counterexample.h): as many as
// the sources hold, and as many again for the run's start.
int OutputWindow(const Z3Domain& d, int sources) { return (sources + 1) * d.universe(); }

// One source's remap inputs, with the spec's view of each source row: is_new[i] (i in after
// minus before) and position[i] = start + i - rank(i), the rank counted here (not through the
// domain's Rank, so a wrong Rank could not hide a wrong kernel).
struct Source {
  kernel::SourceRun<Z3Domain> run;
  Z3Domain::Set compacted, before, after;
  std::vector<z3::expr> is_new, position;
};

Source FreshSource(const Z3Domain& d, const std::string& suffix) {
  Source s{{d.FreshInt("start" + suffix), d.FreshInt("live" + suffix)},
           d.FreshSet("compacted" + suffix),
           d.FreshSet("before" + suffix),
           d.FreshSet("after" + suffix),
           {},
           {}};
  z3::expr below = d.Const(0);
  for (int i = 0; i < d.universe(); ++i) {
    s.is_new.push_back(s.after.members[i] && !s.before.members[i]);
    s.position.push_back(s.run.start + d.Const(i) - below);
    below = below + z3::ite(s.compacted.members[i], d.Const(1), d.Const(0));
  }
  return s;
}

// The kernel as the checker calls it: the production row_index_max, so no bound of the proof's
// own limits where a row may land.
z3::expr Remap(const Z3Domain& d, const Source& s, const z3::expr& output_rows,
               Z3Domain::Set& output) {
  return kernel::RemapOntoOutput(d, s.run, output_rows, static_cast<int64_t>(kRowIndexMax),
                                 s.compacted, s.before, s.after, output);
}

// (1) of the header: every new row lands in the run, on a row index (an unbounded set accepts
// any integer, the concrete DV only 0..kRowIndexMax), and in `output`.
z3::expr NewRowsLand(const Z3Domain& d, const Source& s, const Z3Domain::Set& output) {
  const z3::expr row_index_max = d.context().int_val(static_cast<int64_t>(kRowIndexMax));
  z3::expr claim = d.True();
  for (int i = 0; i < d.universe(); ++i) {
    const z3::expr& p = s.position[i];
    claim = claim && z3::implies(s.is_new[i], s.run.start <= p && p < s.run.start + s.run.live &&
                                                  d.Const(0) <= p && p <= row_index_max &&
                                                  d.Contains(output, p));
  }
  return claim;
}

// (2) of the header at the output row q, in two halves: `output` keeps q if `initial` held it,
// and holds q only if `initial` did or a new row landed there.
z3::expr KeepsAt(const Z3Domain& d, const Z3Domain::Set& initial, const Z3Domain::Set& output,
                 const z3::expr& q) {
  return z3::implies(d.Contains(initial, q), d.Contains(output, q));
}

z3::expr HoldsOnlyImagesAt(const Z3Domain& d, const Source& s, const Z3Domain::Set& initial,
                           const Z3Domain::Set& output, const z3::expr& q) {
  z3::expr explained = d.Contains(initial, q);
  for (int i = 0; i < d.universe(); ++i)
    explained = explained || (s.is_new[i] && s.position[i] == q);
  return z3::implies(d.Contains(output, q), explained);
}

struct RemapRun {
  Source source;
  z3::expr output_rows, q;
  Z3Domain::Set initial_output, output;  // unbounded
  z3::expr ok;
};

RemapRun RunKernel(const Z3Domain& d) {
  RemapRun r{FreshSource(d, ""),    d.FreshInt("output_rows"),
             d.FreshInt("q"),       d.FreshUnboundedSet("output_dv"),
             d.EmptyUnboundedSet(), d.True()};
  r.output = r.initial_output;
  r.ok = Remap(d, r.source, r.output_rows, r.output);
  return r;
}

// (1), and (2) at every output row (q is free, so a valid claim holds for all q).
z3::expr CarriesExactlyNewDeletions(const Z3Domain& d, const RemapRun& r) {
  return NewRowsLand(d, r.source, r.output) && KeepsAt(d, r.initial_output, r.output, r.q) &&
         HoldsOnlyImagesAt(d, r.source, r.initial_output, r.output, r.q);
}

std::string Bound(const Z3Domain& d) {
  return " (source rows 0.." + std::to_string(d.universe() - 1) + ", every output row)";
}

std::vector<ShownValue> ShowSource(const Source& s, const std::string& suffix) {
  return {ShowInt("start" + suffix, s.run.start), ShowInt("live" + suffix, s.run.live),
          ShowSet("compacted" + suffix, s.compacted), ShowSet("before" + suffix, s.before),
          ShowSet("after" + suffix, s.after)};
}

Obligation Make(const std::string& name, const std::string& statement, Expectation expectation,
                const z3::expr& claim, const RemapRun& r, const Z3Domain& d) {
  std::vector<ShownValue> inputs = ShowSource(r.source, "");
  inputs.push_back(ShowInt("output_rows", r.output_rows));
  inputs.push_back(ShowSet("output_dv", r.initial_output, OutputWindow(d, 1)));
  return {name,        statement + Bound(d),
          expectation, claim,
          inputs,      {ShowBool("ok", r.ok), ShowSet("output_dv'", r.output, OutputWindow(d, 1))}};
}

// The kernel's map, probed one row at a time: a remap of the single new row x (after = before +
// {x}) onto an empty output DV, sharing the run, output_rows, compacted and before with the other
// probe. What the output DV then holds is where the kernel put x.
struct Probe {
  z3::expr x, ok;
  Z3Domain::Set image;
};

struct Probes {
  kernel::SourceRun<Z3Domain> run;
  z3::expr output_rows;
  Z3Domain::Set compacted, before;
  Probe first, second;
};

Probe RunProbe(const Z3Domain& d, const Probes& shared, const std::string& name) {
  Probe probe{d.FreshInt(name), d.True(), d.EmptyUnboundedSet()};
  probe.ok = kernel::RemapOntoOutput(d, shared.run, shared.output_rows,
                                     static_cast<int64_t>(kRowIndexMax), shared.compacted,
                                     shared.before, d.Insert(shared.before, probe.x), probe.image);
  return probe;
}

Probes RunProbes(const Z3Domain& d) {
  const Probe none{d.Const(0), d.True(), d.EmptyUnboundedSet()};
  Probes p{{d.FreshInt("start"), d.FreshInt("live")},
           d.FreshInt("output_rows"),
           d.FreshSet("compacted"),
           d.FreshSet("before"),
           none,
           none};
  p.first = RunProbe(d, p, "x1");
  p.second = RunProbe(d, p, "x2");
  return p;
}

// x is a source row, not deleted before.
z3::expr IsNewRow(const Z3Domain& d, const Probes& p, const Probe& probe) {
  return d.Const(0) <= probe.x && probe.x < d.Const(d.universe()) && !d.Contains(p.before, probe.x);
}

Obligation MakeProbe(const std::string& name, const std::string& statement, const z3::expr& claim,
                     const Probes& p, const Z3Domain& d) {
  return {name,
          statement + Bound(d),
          Expectation::kValid,
          claim,
          {ShowInt("start", p.run.start), ShowInt("live", p.run.live),
           ShowInt("output_rows", p.output_rows), ShowSet("compacted", p.compacted),
           ShowSet("before", p.before), ShowInt("x1", p.first.x), ShowInt("x2", p.second.x)},
          {ShowBool("ok1", p.first.ok), ShowSet("image1", p.first.image, OutputWindow(d, 1)),
           ShowBool("ok2", p.second.ok), ShowSet("image2", p.second.image, OutputWindow(d, 1))}};
}

// Three sources compacted into one output, the kernel run on each in turn onto one DV.
struct SharedOutput {
  std::vector<Source> sources;
  z3::expr output_rows, tiles, q;
  Z3Domain::Set initial;
  std::vector<Z3Domain::Set> outputs;  // outputs[s]: the DV before source s's remap; [3] the result
};

SharedOutput FreshSharedOutput(const Z3Domain& d) {
  SharedOutput t{
      {}, d.FreshInt("output_rows"), d.True(), d.FreshInt("q"), d.FreshUnboundedSet("output_dv"),
      {}};
  std::vector<kernel::SourceRun<Z3Domain>> runs;
  for (int s = 0; s < 3; ++s) {
    t.sources.push_back(FreshSource(d, std::to_string(s)));
    runs.push_back(t.sources.back().run);
  }
  t.tiles = kernel::RunsTileOutput(d, runs, t.output_rows);
  t.outputs.push_back(t.initial);
  return t;
}

std::vector<ShownValue> ShowSharedOutput(const Z3Domain& d, const SharedOutput& t) {
  std::vector<ShownValue> inputs{ShowInt("output_rows", t.output_rows),
                                 ShowSet("output_dv", t.initial, OutputWindow(d, 3))};
  for (int s = 0; s < 3; ++s) {
    for (ShownValue& v : ShowSource(t.sources[s], std::to_string(s)))
      inputs.push_back(std::move(v));
  }
  return inputs;
}

// The claim on the final DV: every source's new rows land in its own run and in the DV, no two
// sources' new rows land on one row, and the DV holds its initial rows and those images only.
z3::expr ThreeSourcesClaim(const Z3Domain& d, const SharedOutput& t) {
  const Z3Domain::Set& final_output = t.outputs[3];
  z3::expr claim = d.True();
  z3::expr explained = d.Contains(t.initial, t.q);
  z3::expr owners = d.Const(0);  // sources with a new row landing on q
  for (const Source& s : t.sources) {
    claim = claim && NewRowsLand(d, s, final_output);
    z3::expr owns = d.False();
    for (int i = 0; i < d.universe(); ++i) owns = owns || (s.is_new[i] && s.position[i] == t.q);
    explained = explained || owns;
    owners = owners + z3::ite(owns, d.Const(1), d.Const(0));
  }
  return claim && owners <= d.Const(1) && KeepsAt(d, t.initial, final_output, t.q) &&
         z3::implies(d.Contains(final_output, t.q), explained);
}

// Each of the three remaps as remap.carries_exactly_new_deletions proves it of the kernel (the DV
// after it a fresh array, appended to t.outputs), its statement about every output row taken at
// the rows ThreeSourcesClaim reads: the earlier sources' new-row positions (kept by the later
// remaps) and q.
z3::expr AssumeProvedRemaps(const Z3Domain& d, SharedOutput& t) {
  z3::expr contracts = d.True();
  for (int s = 0; s < 3; ++s) {
    t.outputs.push_back(d.FreshUnboundedSet("output_dv_after" + std::to_string(s)));
    const Z3Domain::Set &in = t.outputs[s], &out = t.outputs[s + 1];
    contracts = contracts && NewRowsLand(d, t.sources[s], out) && KeepsAt(d, in, out, t.q) &&
                HoldsOnlyImagesAt(d, t.sources[s], in, out, t.q);
    for (int earlier = 0; earlier < s; ++earlier) {
      for (const z3::expr& row : t.sources[earlier].position)
        contracts = contracts && KeepsAt(d, in, out, row);
    }
  }
  return contracts;
}

// The kernel run on each source in turn, each onto the DV the previous left (appended to
// t.outputs); returns every call's ok.
z3::expr RemapInTurn(const Z3Domain& d, SharedOutput& t) {
  z3::expr ok = d.True();
  for (int s = 0; s < 3; ++s) {
    Z3Domain::Set output = t.outputs[s];
    ok = ok && Remap(d, t.sources[s], t.output_rows, output);
    t.outputs.push_back(output);
  }
  return ok;
}

z3::expr AnyNewRow(const Z3Domain& d, const Source& s) {
  z3::expr any = d.False();
  for (const z3::expr& is_new : s.is_new) any = any || is_new;
  return any;
}

}  // namespace

Obligation RemapCarriesExactlyNewDeletions(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  return Make("remap.carries_exactly_new_deletions",
              "ok => each row of after - before lands at start + i - rank(i) in the run, and "
              "nothing else is added",
              Expectation::kValid, z3::implies(r.ok, CarriesExactlyNewDeletions(d, r)), r, d);
}

Obligation RemapWithoutGuardCarriesExactlyNewDeletions(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  return Make("remap.no_guard.carries_exactly_new_deletions",
              "without the guard, the remap carries exactly the new deletions (must fail)",
              Expectation::kRefutable, CarriesExactlyNewDeletions(d, r), r, d);
}

Obligation RemapNeverOkPastACompactedRow(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  z3::expr shifted_row = d.False();
  for (int i = 0; i < d.universe(); ++i) {
    shifted_row = shifted_row ||
                  (r.source.is_new[i] && r.source.position[i] < r.source.run.start + d.Const(i));
  }
  return Make(
      "remap.never_ok_past_a_compacted_row",
      "ok never holds with a new row past a compacted row (must fail: the premise is satisfiable)",
      Expectation::kRefutable, z3::implies(shifted_row, !r.ok), r, d);
}

Obligation RemapStaysInsideItsRun(const Z3Domain& d) {
  const Probes p = RunProbes(d);
  const z3::expr a = d.FreshInt("a");  // any output row
  const z3::expr claim =
      z3::implies(d.Contains(p.first.image, a), p.run.start <= a && a < p.run.start + p.run.live);
  return MakeProbe("remap.stays_inside_its_run",
                   "ok => every output row a new row lands on lies inside its source's run [start, "
                   "start + live)",
                   z3::implies(IsNewRow(d, p, p.first) && p.first.ok, claim), p, d);
}

Obligation RemapIsInjective(const Z3Domain& d) {
  const Probes p = RunProbes(d);
  const z3::expr a = d.FreshInt("a");
  const z3::expr premise = IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) &&
                           p.first.x != p.second.x && p.first.ok && p.second.ok;
  return MakeProbe(
      "remap.is_injective", "ok => two distinct new rows never land on a common output row",
      z3::implies(premise, !(d.Contains(p.first.image, a) && d.Contains(p.second.image, a))), p, d);
}

Obligation RemapPreservesOrder(const Z3Domain& d) {
  const Probes p = RunProbes(d);
  const z3::expr a = d.FreshInt("a"), b = d.FreshInt("b");
  const z3::expr premise = IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) &&
                           p.first.x < p.second.x && p.first.ok && p.second.ok;
  return MakeProbe(
      "remap.preserves_order", "ok => of two new rows x1 < x2, x1 lands before x2 in the output",
      z3::implies(
          premise,
          z3::implies(d.Contains(p.first.image, a) && d.Contains(p.second.image, b), a < b)),
      p, d);
}

Obligation RemapProbePremiseSatisfiable(const Z3Domain& d) {
  const Probes p = RunProbes(d);
  z3::expr second_shifted = d.False();  // some compacted row lies below x2
  for (int j = 0; j < d.universe(); ++j)
    second_shifted = second_shifted || (p.compacted.members[j] && d.Const(j) < p.second.x);
  const z3::expr premise = IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) &&
                           p.first.x < p.second.x && p.first.ok && p.second.ok && second_shifted;
  Obligation o =
      MakeProbe("remap.probe_premise_satisfiable",
                "two new rows, the second past a compacted row, can both be remapped (must fail)",
                !premise, p, d);
  o.expectation = Expectation::kRefutable;
  return o;
}

Obligation RemapThreeSourcesShareOneOutput(const Z3Domain& d) {
  SharedOutput t = FreshSharedOutput(d);
  const z3::expr contracts = AssumeProvedRemaps(d, t);
  return {
      "4a.three_sources_share_one_output",
      "three sources (rows 0.." + std::to_string(d.universe() - 1) +
          " each, every output row) whose runs pass the tiling check, each remapped onto the one "
          "output DV as "
          "remap.carries_exactly_new_deletions proves of the kernel: every new row lands in its "
          "own source's "
          "run, no two sources' rows meet, and the DV holds its initial rows and those images only",
      Expectation::kValid,
      z3::implies(t.tiles && contracts, ThreeSourcesClaim(d, t)),
      ShowSharedOutput(d, t),
      {ShowBool("tiles", t.tiles)}};
}

Obligation RemapThreeSourcesCompositionPremiseSatisfiable(const Z3Domain& d) {
  SharedOutput t = FreshSharedOutput(d);
  z3::expr premise = t.tiles && AssumeProvedRemaps(d, t);
  for (const Source& s : t.sources) premise = premise && AnyNewRow(d, s);
  return {"4a.three_sources_composition_premise_satisfiable",
          "the composition's assumptions hold with tiled runs and a new row in each source (must "
          "fail)" +
              Bound(d),
          Expectation::kRefutable,
          !premise,
          ShowSharedOutput(d, t),
          {ShowBool("tiles", t.tiles)}};
}

Obligation RemapThreeSourcesDirect(const Z3Domain& d) {
  SharedOutput t = FreshSharedOutput(d);
  const z3::expr ok = RemapInTurn(d, t);
  return {"4a.three_sources_direct",
          "the kernel itself run on three sources (rows 0.." + std::to_string(d.universe() - 1) +
              " each, every output row) whose runs pass the tiling check, in turn onto one output "
              "DV: the claim of "
              "4a.three_sources_share_one_output",
          Expectation::kValid,
          z3::implies(t.tiles && ok, ThreeSourcesClaim(d, t)),
          ShowSharedOutput(d, t),
          {ShowBool("tiles", t.tiles), ShowBool("ok", ok),
           ShowSet("output_dv'", t.outputs[3], OutputWindow(d, 3))}};
}

Obligation RemapThreeSourcesPremiseSatisfiable(const Z3Domain& d) {
  SharedOutput t = FreshSharedOutput(d);
  z3::expr premise = t.tiles && RemapInTurn(d, t);
  for (const Source& s : t.sources) premise = premise && AnyNewRow(d, s);
  return {"4a.three_sources_premise_satisfiable",
          "three tiled sources can each be remapped by the kernel with a new row (must fail)" +
              Bound(d),
          Expectation::kRefutable,
          !premise,
          ShowSharedOutput(d, t),
          {ShowSet("output_dv'", t.outputs[3], OutputWindow(d, 3))}};
}

// This file's obligations, in the order they are reported (obligations.h).
const ObligationTable kObligations(
    "remap", {
                 {&RemapCarriesExactlyNewDeletions, kRemapUniverse, kLargeUniverseTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapWithoutGuardCarriesExactlyNewDeletions, kRemapRefutationUniverse,
                  kSolverTimeoutMs, Layout::kSourceRowsEveryOutputRow},
                 {&RemapNeverOkPastACompactedRow, kRemapRefutationUniverse, kSolverTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapStaysInsideItsRun, kRemapProbeUniverse, kLargeUniverseTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapIsInjective, kRemapProbeUniverse, kLargeUniverseTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapPreservesOrder, kRemapOrderUniverse, kLargeUniverseTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapProbePremiseSatisfiable, kRemapRefutationUniverse, kSolverTimeoutMs,
                  Layout::kSourceRowsEveryOutputRow},
                 {&RemapThreeSourcesShareOneOutput, kSharedOutputUniverse, kLargeUniverseTimeoutMs,
                  Layout::kThreeSourcesEveryOutputRow},
                 {&RemapThreeSourcesCompositionPremiseSatisfiable, kSharedOutputUniverse,
                  kSolverTimeoutMs, Layout::kThreeSourcesEveryOutputRow},
                 {&RemapThreeSourcesDirect, kSharedOutputDirectUniverse, kLargeUniverseTimeoutMs,
                  Layout::kThreeSourcesEveryOutputRow},
                 {&RemapThreeSourcesPremiseSatisfiable, kSharedOutputDirectUniverse,
                  kSolverTimeoutMs, Layout::kThreeSourcesEveryOutputRow},
             });

}  // namespace rlc::proofs
