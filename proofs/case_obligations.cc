#include "proofs/case_obligations.h"

#include <optional>
#include <string>
#include <vector>

#include "impl/base/limits.h"
#include "impl/kernel/capture.h"
#include "impl/kernel/file_skipping.h"
#include "impl/kernel/relocation.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/removed_rows.h"
#include "impl/kernel/tiling.h"
#include "proofs/obligations.h"

namespace rlc::proofs {
namespace {

using Run = kernel::SourceRun<Z3Domain>;

std::string Rows(const Z3Domain& d) {
  return " (rows 0.." + std::to_string(d.universe() - 1) + ")";
}
std::string SourceRows(const Z3Domain& d) {
  return " (source rows 0.." + std::to_string(d.universe() - 1) + ", every output row)";
}
constexpr char kUnbounded[] = " (unbounded: every integer)";

z3::expr AnyMember(const Z3Domain& d, const Z3Domain::Set& s) {
  z3::expr any = d.context().bool_val(false);
  for (const z3::expr& m : s.members) any = any || m;
  return any;
}

// ---- tiling -----------------------------------------------------------------------------------

struct Tiling {
  std::vector<Run> runs;
  z3::expr output_rows;
  z3::expr ok;
};

Tiling RunTiling(const Z3Domain& d) {
  std::vector<Run> runs;
  for (int i = 0; i < 3; ++i)
    runs.push_back(
        {d.FreshInt("start" + std::to_string(i)), d.FreshInt("live" + std::to_string(i))});
  const z3::expr out = d.FreshInt("output_rows");
  return {runs, out, kernel::RunsTileOutput(d, runs, out)};
}

std::vector<ShownValue> Show(const Tiling& t) {
  std::vector<ShownValue> shown;
  for (size_t i = 0; i < t.runs.size(); ++i) {
    shown.push_back(ShowInt("start" + std::to_string(i), t.runs[i].start));
    shown.push_back(ShowInt("live" + std::to_string(i), t.runs[i].live));
  }
  shown.push_back(ShowInt("output_rows", t.output_rows));
  return shown;
}

// Every output position in exactly one run.
z3::expr EachPositionOnce(const Z3Domain& d, const std::vector<Run>& runs, const z3::expr& out,
                          const z3::expr& p) {
  z3::context& c = d.context();
  z3::expr count = c.int_val(0);
  for (const Run& r : runs)
    count = count + z3::ite(r.start <= p && p < r.start + r.live, c.int_val(1), c.int_val(0));
  return z3::implies(c.int_val(0) <= p && p < out, count == 1);
}

// ---- capture ----------------------------------------------------------------------------------

struct Capture {
  std::vector<kernel::BinSource<Z3Domain>> bin;
  std::vector<kernel::ObservedRun<Z3Domain>> runs;
  kernel::CaptureTags<Z3Domain> tags;
  z3::expr written;  // rows the writer wrote: the output's numRecords
  z3::expr dvs_non_negative;
};

Capture RunCapture(const Z3Domain& d) {
  z3::context& c = d.context();
  Capture k{{}, {}, {d.False(), {}, {}}, c.int_val(0), c.bool_val(true)};
  for (int i = 0; i < 3; ++i) {
    k.bin.push_back({std::optional<z3::expr>(d.FreshInt("live" + std::to_string(i))),
                     d.FreshInt("dv" + std::to_string(i))});
    k.dvs_non_negative = k.dvs_non_negative && k.bin.back().dv_cardinality >= 0;
  }
  // The writer wrote source 2 first, then 0, then 1: the tags must follow what it observed.
  for (int source : {2, 0, 1}) {
    k.runs.push_back({source, d.FreshInt("rows_of_" + std::to_string(source))});
    k.written = k.written + k.runs.back().rows;
  }
  k.tags = kernel::CheckCapture(d, kernel::CaptureShape{1, 1, false}, k.bin, k.runs);
  return k;
}

std::vector<ShownValue> Show(const Capture& k) {
  std::vector<ShownValue> shown;
  for (size_t i = 0; i < k.bin.size(); ++i) {
    shown.push_back(ShowInt("live" + std::to_string(i), *k.bin[i].live_rows));
    shown.push_back(ShowInt("dv" + std::to_string(i), k.bin[i].dv_cardinality));
  }
  for (const auto& r : k.runs)
    shown.push_back(ShowInt("rows_of_" + std::to_string(r.source), r.rows));
  return shown;
}

// ---- removed rows (exact tier, 1b) ----------------------------------------------------------

struct Removed {
  Z3Domain::Set pre, post, matching;
};

Removed FreshRemoved(const Z3Domain& d) {
  return {d.FreshSet("pre_dv"), d.FreshSet("post_dv"), d.FreshSet("matching")};
}

// ---- two winners -----------------------------------------------------------------------------

struct TwoWinners {
  Run run;
  z3::expr output_rows;
  Z3Domain::Set compacted, first, second, initial, output, single;
  z3::expr ok_first, ok_second, ok_single;
  int window_universe;  // rows of an output DV a counterexample shows: twice the source's
  z3::expr q;           // an output row
};

// The output DVs are unbounded (z3_domain.h) and the kernel gets the production row_index_max:
// the claim covers every output row.
TwoWinners RunTwoWinners(const Z3Domain& d) {
  TwoWinners t{{d.FreshInt("start"), d.FreshInt("live")},
               d.FreshInt("output_rows"),
               d.FreshSet("compacted"),
               d.FreshSet("winner1_dv"),
               d.FreshSet("winner2_dv"),
               d.FreshUnboundedSet("output_dv"),
               d.EmptyUnboundedSet(),
               d.EmptyUnboundedSet(),
               d.True(),
               d.True(),
               d.True(),
               d.universe(),
               d.FreshInt("q")};
  const int64_t max = static_cast<int64_t>(kRowIndexMax);
  t.output = t.initial;
  t.ok_first = kernel::RemapOntoOutput(d, t.run, t.output_rows, max, t.compacted, t.compacted,
                                       t.first, t.output);
  t.ok_second = kernel::RemapOntoOutput(d, t.run, t.output_rows, max, t.compacted, t.first,
                                        t.second, t.output);
  t.single = t.initial;
  t.ok_single = kernel::RemapOntoOutput(d, t.run, t.output_rows, max, t.compacted, t.compacted,
                                        t.second, t.single);
  return t;
}

std::vector<ShownValue> Show(const TwoWinners& t) {
  return {ShowInt("start", t.run.start),
          ShowInt("live", t.run.live),
          ShowInt("output_rows", t.output_rows),
          ShowSet("compacted", t.compacted),
          ShowSet("winner1_dv", t.first),
          ShowSet("winner2_dv", t.second),
          ShowSet("output_dv", t.initial, 2 * t.window_universe)};
}

// ---- Case 3 ------------------------------------------------------------------------------------

struct Relocation {
  std::vector<kernel::RelocatedFile<Z3Domain>> removed, added;
  z3::expr conserves;
};

Relocation RunRelocation(const Z3Domain& d) {
  Relocation r{{}, {}, d.True()};
  auto file = [&](const std::string& name) {
    kernel::RelocatedFile<Z3Domain> f{
        std::optional<z3::expr>(d.FreshInt(name + "_rows")), d.FreshInt(name + "_dv"), {}, {}};
    f.min_values.emplace("id", d.FreshInt(name + "_min"));
    f.max_values.emplace("id", d.FreshInt(name + "_max"));
    return f;
  };
  r.removed = {file("removed1"), file("removed2")};
  r.added = {file("added")};
  r.conserves = kernel::RelocationConservesRows(d, r.removed, r.added);
  return r;
}

std::vector<ShownValue> Show(const Relocation& r) {
  std::vector<ShownValue> shown;
  auto show = [&](const std::string& name, const kernel::RelocatedFile<Z3Domain>& f) {
    shown.push_back(ShowInt(name + "_rows", *f.physical_rows));
    shown.push_back(ShowInt(name + "_dv", f.deleted_rows));
    shown.push_back(ShowInt(name + "_min", f.min_values.at("id")));
    shown.push_back(ShowInt(name + "_max", f.max_values.at("id")));
  };
  show("removed1", r.removed[0]);
  show("removed2", r.removed[1]);
  show("added", r.added[0]);
  return shown;
}

}  // namespace

Obligation Case3ConservationKeepsRowsAndBounds(const Z3Domain& d) {
  const Relocation r = RunRelocation(d);
  auto live = [](const kernel::RelocatedFile<Z3Domain>& f) {
    return *f.physical_rows - f.deleted_rows;
  };
  const auto& a = r.added[0];
  const auto& r1 = r.removed[0];
  const auto& r2 = r.removed[1];
  // Any value of the added file (within its statistics) lies within the removed files' hull, so a
  // predicate that could match an added row could match a removed one: leaving the add out of
  // the append check hides no row a loser's predicate would have matched in the removed files.
  const z3::expr v = d.FreshInt("added_value");
  const z3::expr in_hull = (r1.min_values.at("id") <= v || r2.min_values.at("id") <= v) &&
                           (v <= r1.max_values.at("id") || v <= r2.max_values.at("id"));
  const z3::expr claim =
      live(r1) + live(r2) == live(a) && 0 <= a.deleted_rows && a.deleted_rows <= *a.physical_rows &&
      z3::implies(a.min_values.at("id") <= v && v <= a.max_values.at("id"), in_hull);
  return {"case3.conservation_keeps_rows_and_bounds",
          std::string("a relocation Case 3 accepts (2 removed files, 1 added, statistics on `id`) "
                      "keeps the live-row "
                      "count and puts every added value inside the removed files' bounds") +
              kUnbounded,
          Expectation::kValid,
          z3::implies(r.conserves, claim),
          Show(r),
          {ShowBool("conserves", r.conserves), ShowInt("added_value", v)}};
}

Obligation Case3PremiseSatisfiable(const Z3Domain& d) {
  const Relocation r = RunRelocation(d);
  return {"case3.premise_satisfiable",
          std::string("a relocation of live rows can be accepted (must fail)") + kUnbounded,
          Expectation::kRefutable,
          !(r.conserves && *r.added[0].physical_rows - r.added[0].deleted_rows > 0),
          Show(r),
          {ShowBool("conserves", r.conserves)}};
}

Obligation TilingCoversEachPositionOnce(const Z3Domain& d) {
  const Tiling t = RunTiling(d);
  const z3::expr p = d.FreshInt("position");
  return {
      "tiling.each_position_once",
      std::string(
          "runs that pass the tiling check cover each output position exactly once (3 sources)") +
          kUnbounded,
      Expectation::kValid,
      z3::implies(t.ok, EachPositionOnce(d, t.runs, t.output_rows, p)),
      Show(t),
      {ShowBool("ok", t.ok), ShowInt("position", p)}};
}

Obligation TilingPremiseSatisfiable(const Z3Domain& d) {
  const Tiling t = RunTiling(d);
  z3::expr premise = t.ok && t.output_rows > 0;
  for (const Run& r : t.runs) premise = premise && r.live > 0;
  return {"tiling.premise_satisfiable",
          std::string("three non-empty runs can pass the tiling check (must fail)") + kUnbounded,
          Expectation::kRefutable,
          !premise,
          Show(t),
          {ShowBool("ok", t.ok)}};
}

Obligation CaptureTagsTileTheOutput(const Z3Domain& d) {
  const Capture k = RunCapture(d);
  std::vector<Run> runs;
  for (size_t i = 0; i < k.bin.size(); ++i) {
    runs.push_back(
        {k.tags.row_offset[i], k.tags.source_physical_rows[i] - k.bin[i].dv_cardinality});
  }
  const z3::expr tiles = kernel::RunsTileOutput(d, runs, k.written);
  return {"capture.tags_tile_the_output",
          std::string("tags the capture gate passes (writes observed in the order 2, 0, 1) pass "
                      "the tiling check "
                      "against the rows written") +
              kUnbounded,
          Expectation::kValid,
          z3::implies(k.tags.ok && k.dvs_non_negative, tiles),
          Show(k),
          {ShowBool("ok", k.tags.ok), ShowBool("tiles", tiles)}};
}

Obligation CapturePremiseSatisfiable(const Z3Domain& d) {
  const Capture k = RunCapture(d);
  return {"capture.premise_satisfiable",
          std::string("the capture gate can pass (must fail)") + kUnbounded,
          Expectation::kRefutable,
          !(k.tags.ok && k.dvs_non_negative && k.written > 0),
          Show(k),
          {ShowBool("ok", k.tags.ok)}};
}

// H1 (docs/cases.md#h1): every compacted source the loser touched must be remapped.
Obligation H1EveryTouchedSourceRemapped(const Z3Domain& d) {
  const Z3Domain::Set touched = d.FreshSet("touched"), remapped = d.FreshSet("remapped");
  const z3::expr ok = kernel::EveryTouchedSourceRemapped(d, touched, remapped);
  z3::expr claim = d.context().bool_val(true);
  for (int j = 0; j < d.universe(); ++j)
    claim = claim && z3::implies(touched.members[j], remapped.members[j]);
  return {"4b.h1_every_touched_source_remapped",
          "H1 passes only when every compacted source the loser touched is remapped (sources 0.." +
              std::to_string(d.universe() - 1) + ")",
          Expectation::kValid,
          z3::implies(ok, claim),
          {ShowSet("touched", touched), ShowSet("remapped", remapped)},
          {ShowBool("ok", ok)}};
}

Obligation ExactTierKeepsEveryLiveMatch(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const z3::expr keep = kernel::FileMayHoldMatchingRow(d, r.pre, r.matching);
  z3::expr no_live_match = d.context().bool_val(true);
  for (int j = 0; j < d.universe(); ++j)
    no_live_match = no_live_match && z3::implies(r.matching.members[j], r.pre.members[j]);
  return {"case1.exact_tier_keeps_every_live_match",
          "a file the exact tier drops holds no live row that matches" + Rows(d),
          Expectation::kValid,
          z3::implies(!keep, no_live_match),
          {ShowSet("dv", r.pre), ShowSet("matching", r.matching)},
          {ShowBool("keep", keep)}};
}

Obligation ExactTierPremiseSatisfiable(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const z3::expr keep = kernel::FileMayHoldMatchingRow(d, r.pre, r.matching);
  return {"case1.exact_tier_premise_satisfiable",
          "the exact tier can drop a file with matching (deleted) rows (must fail)" + Rows(d),
          Expectation::kRefutable,
          !(!keep && AnyMember(d, r.matching)),
          {ShowSet("dv", r.pre), ShowSet("matching", r.matching)},
          {ShowBool("keep", keep)}};
}

Obligation OneBSeesEveryRemovedMatch(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const z3::expr may =
      kernel::RemovedRowsMayMatch(d, r.pre, std::optional<Z3Domain::Set>(r.post), r.matching);
  z3::expr claim = d.IsSubset(r.pre, r.post);
  for (int j = 0; j < d.universe(); ++j) {
    claim = claim && !(!r.pre.members[j] && r.post.members[j] && r.matching.members[j]);
  }
  return {"1b.sees_every_removed_match",
          "when 1b clears a DV update, no row it newly deleted matches and it revived none (judged "
          "per file, so no "
          "file can mask another)" +
              Rows(d),
          Expectation::kValid,
          z3::implies(!may, claim),
          {ShowSet("pre_dv", r.pre), ShowSet("post_dv", r.post), ShowSet("matching", r.matching)},
          {ShowBool("may_match", may)}};
}

Obligation OneBOutrightRemoveSeesEveryMatch(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const z3::expr may = kernel::RemovedRowsMayMatch(d, r.pre, std::nullopt, r.matching);
  z3::expr claim = d.context().bool_val(true);
  for (int j = 0; j < d.universe(); ++j)
    claim = claim && !(!r.pre.members[j] && r.matching.members[j]);
  return {"1b.outright_remove_sees_every_match",
          "when 1b clears a file removed outright, none of its live rows matched" + Rows(d),
          Expectation::kValid,
          z3::implies(!may, claim),
          {ShowSet("pre_dv", r.pre), ShowSet("matching", r.matching)},
          {ShowBool("may_match", may)}};
}

Obligation OneBReAddShowsNoUnseenRow(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const Z3Domain::Set at_read = d.FreshSet("read_dv");
  const z3::expr drops = kernel::ReAddShowsNoUnseenRow(d, at_read, r.pre, r.post);
  z3::expr claim = d.context().bool_val(
      true);  // every row live after was live at the read and before the winner
  for (int j = 0; j < d.universe(); ++j) {
    claim = claim && z3::implies(!r.post.members[j], !at_read.members[j] && !r.pre.members[j]);
  }
  return {"1b.readd_shows_no_unseen_row",
          "a re-add 1b drops from the append check holds no live row the loser's snapshot or the "
          "removed version "
          "had deleted" +
              Rows(d),
          Expectation::kValid,
          z3::implies(drops, claim),
          {ShowSet("read_dv", at_read), ShowSet("pre_dv", r.pre), ShowSet("post_dv", r.post)},
          {ShowBool("drops", drops)}};
}

Obligation OneBPremiseSatisfiable(const Z3Domain& d) {
  const Removed r = FreshRemoved(d);
  const z3::expr may =
      kernel::RemovedRowsMayMatch(d, r.pre, std::optional<Z3Domain::Set>(r.post), r.matching);
  z3::expr newly = d.context().bool_val(false);
  for (int j = 0; j < d.universe(); ++j) newly = newly || (!r.pre.members[j] && r.post.members[j]);
  return {"1b.premise_satisfiable",
          "1b can clear a DV update that deleted rows (must fail)" + Rows(d),
          Expectation::kRefutable,
          !(!may && newly),
          {ShowSet("pre_dv", r.pre), ShowSet("post_dv", r.post), ShowSet("matching", r.matching)},
          {ShowBool("may_match", may)}};
}

Obligation SkippingKeepsAFileAnyReadMayMatch(const Z3Domain& d) {
  kernel::SkippingGuards guards{false, true, true, true};
  std::vector<z3::expr> may;
  std::vector<ShownValue> shown;
  for (int i = 0; i < 3; ++i) {
    may.push_back(d.context().bool_const(("read" + std::to_string(i) + "_may_match").c_str()));
    shown.push_back(ShowBool("read" + std::to_string(i) + "_may_match", may.back()));
  }
  const z3::expr keep = kernel::KeepAddedFile(d, guards, may);
  z3::expr claim = d.context().bool_val(true);
  for (const z3::expr& m : may) claim = claim && !m;
  return {"case1.keeps_a_file_any_read_may_match",
          "Case 1 drops a winner's file only when none of the loser's reads may match it (3 reads)",
          Expectation::kValid,
          z3::implies(!keep, claim),
          shown,
          {ShowBool("keep", keep)}};
}

Obligation TwoWinnersComposeToOneRemap(const Z3Domain& d) {
  const TwoWinners t = RunTwoWinners(d);
  return {"4a.two_winners_compose",
          "two successive winners remapped one after the other (the second from the first's DV) "
          "leave the output "
          "the single remap of the second winner's DV from the compaction's" +
              SourceRows(d),
          Expectation::kValid,
          // At a free output row q: equal at every row, without asking Z3 for array extensionality.
          z3::implies(t.ok_first && t.ok_second,
                      t.ok_single && (d.Contains(t.output, t.q) == d.Contains(t.single, t.q))),
          Show(t),
          {ShowBool("ok_first", t.ok_first), ShowBool("ok_second", t.ok_second),
           ShowSet("output_dv'", t.output, 2 * t.window_universe),
           ShowSet("single_remap", t.single, 2 * t.window_universe)}};
}

Obligation TwoWinnersPremiseSatisfiable(const Z3Domain& d) {
  const TwoWinners t = RunTwoWinners(d);
  return {
      "4a.two_winners_premise_satisfiable",
      "both remaps can succeed with new rows each time (must fail)" + SourceRows(d),
      Expectation::kRefutable,
      !(t.ok_first && t.ok_second && !d.SetEq(t.first, t.compacted) && !d.SetEq(t.second, t.first)),
      Show(t),
      {ShowBool("ok_first", t.ok_first), ShowBool("ok_second", t.ok_second)}};
}

Obligation ReverseRemapRequiresTheCompactionsRead(const Z3Domain& d) {
  const Run run{d.FreshInt("start"), d.FreshInt("live")};
  const z3::expr out = d.FreshInt("output_rows");
  const Z3Domain::Set compacted = d.FreshSet("compacted"), read = d.FreshSet("loser_read"),
                      wanted = d.FreshSet("loser_dv");
  Z3Domain::Set output = d.FreshUnboundedSet("output_dv");
  const z3::expr ok = kernel::ReverseRemapOntoOutput(
      d, run, out, static_cast<int64_t>(kRowIndexMax), compacted, read, wanted, output);
  return {
      "4b.requires_the_compactions_read",
      "4b remaps only a loser that read the source with exactly the DV the compaction read" +
          SourceRows(d),
      Expectation::kValid,
      z3::implies(ok, d.SetEq(read, compacted)),
      {ShowSet("compacted", compacted), ShowSet("loser_read", read), ShowSet("loser_dv", wanted)},
      {ShowBool("ok", ok)}};
}

// This file's obligations, in the order they are reported (obligations.h).
const ObligationTable kObligations("case",
                                   {
                                       {&ReverseRemapRequiresTheCompactionsRead, kRemapUniverse,
                                        kSolverTimeoutMs, Layout::kSourceRowsEveryOutputRow},
                                       {&TwoWinnersComposeToOneRemap, kTwoWinnersUniverse,
                                        kLargeUniverseTimeoutMs, Layout::kSourceRowsEveryOutputRow},
                                       {&TwoWinnersPremiseSatisfiable, kRemapRefutationUniverse,
                                        kSolverTimeoutMs, Layout::kSourceRowsEveryOutputRow},
                                       {&H1EveryTouchedSourceRemapped, kSourcesUniverse},
                                       {&TilingCoversEachPositionOnce, kNoRows},
                                       {&TilingPremiseSatisfiable, kNoRows},
                                       {&CaptureTagsTileTheOutput, kNoRows},
                                       {&CapturePremiseSatisfiable, kNoRows},
                                       {&ExactTierKeepsEveryLiveMatch, kRowsUniverse},
                                       {&ExactTierPremiseSatisfiable, kRowsUniverse},
                                       {&OneBSeesEveryRemovedMatch, kRowsUniverse},
                                       {&OneBOutrightRemoveSeesEveryMatch, kRowsUniverse},
                                       {&OneBReAddShowsNoUnseenRow, kRowsUniverse},
                                       {&OneBPremiseSatisfiable, kRowsUniverse},
                                       {&SkippingKeepsAFileAnyReadMayMatch, kNoRows},
                                       {&Case3ConservationKeepsRowsAndBounds, kNoRows},
                                       {&Case3PremiseSatisfiable, kNoRows},
                                   });

}  // namespace rlc::proofs
