#include "proofs/remap_obligations.h"

#include <optional>
#include <string>
#include <vector>

#include "impl/kernel/remap.h"
#include "impl/kernel/tiling.h"

namespace rlc::proofs {

namespace {

// The kernel, run on fresh inputs, with the spec's view of each source row.
struct RemapRun {
  kernel::SourceRun<Z3Domain> run;
  z3::expr output_rows;
  Z3Domain::Set compacted;
  Z3Domain::Set before;
  Z3Domain::Set after;
  Z3Domain::Set initial_output;
  Z3Domain::Set output;  // after the kernel
  z3::expr ok;
  std::vector<z3::expr> is_new;    // is_new[i]: i in after \ before
  std::vector<z3::expr> rank;      // rank[i]: members of compacted below i, counted here
  std::vector<z3::expr> position;  // position[i] = start + i - rank[i]
};

RemapRun RunKernel(const Z3Domain& d) {
  const kernel::SourceRun<Z3Domain> run{d.FreshInt("start"), d.FreshInt("live")};
  const z3::expr output_rows = d.FreshInt("output_rows");
  const Z3Domain::Set compacted = d.FreshSet("compacted");
  const Z3Domain::Set before = d.FreshSet("before");
  const Z3Domain::Set after = d.FreshSet("after");
  const Z3Domain::Set initial_output = d.FreshSet("output_dv");
  Z3Domain::Set output = initial_output;
  const int64_t row_index_max = d.universe() - 1;
  const z3::expr ok =
      kernel::RemapOntoOutput(d, run, output_rows, row_index_max, compacted, before, after, output);

  std::vector<z3::expr> is_new, rank, position;
  for (int i = 0; i < d.universe(); ++i) {
    is_new.push_back(after.members[i] && !before.members[i]);
    z3::expr below = d.Const(0);
    for (int j = 0; j < i; ++j) below = below + z3::ite(compacted.members[j], d.Const(1), d.Const(0));
    rank.push_back(below);
    position.push_back(run.start + d.Const(i) - below);
  }
  return {run, output_rows, compacted, before, after, initial_output, output, ok, is_new, rank, position};
}

// (1) and (2) of the header, over the raw membership terms.
z3::expr CarriesExactlyNewDeletions(const Z3Domain& d, const RemapRun& r) {
  z3::context& c = d.context();
  const int n = d.universe();
  z3::expr claim = c.bool_val(true);
  for (int i = 0; i < n; ++i) {
    z3::expr in_output = c.bool_val(false);
    for (int p = 0; p < n; ++p) in_output = in_output || (r.output.members[p] && r.position[i] == d.Const(p));
    const z3::expr in_run = r.run.start <= r.position[i] && r.position[i] < r.run.start + r.run.live;
    claim = claim && z3::implies(r.is_new[i], in_run && in_output);
  }
  for (int p = 0; p < n; ++p) {
    z3::expr explained = r.initial_output.members[p];
    for (int i = 0; i < n; ++i) explained = explained || (r.is_new[i] && r.position[i] == d.Const(p));
    claim = claim && z3::implies(r.initial_output.members[p], r.output.members[p]) &&
            z3::implies(r.output.members[p], explained);
  }
  return claim;
}

std::string Bound(const Z3Domain& d) {
  return " (source and output rows 0.." + std::to_string(d.universe() - 1) + ")";
}

Obligation Make(const std::string& name, const std::string& statement, Expectation expectation,
                const z3::expr& claim, const RemapRun& r, const Z3Domain& d) {
  return {name,
          statement + Bound(d),
          expectation,
          claim,
          {ShowInt("start", r.run.start), ShowInt("live", r.run.live), ShowInt("output_rows", r.output_rows),
           ShowSet("compacted", r.compacted), ShowSet("before", r.before), ShowSet("after", r.after),
           ShowSet("output_dv", r.initial_output)},
          {ShowBool("ok", r.ok), ShowSet("output_dv'", r.output)}};
}

// The kernel's map, probed one row at a time: a remap of the single new row x (after = before +
// {x}) onto an empty output DV, sharing the run, output_rows, compacted and before with the other
// probes. What the output DV then holds is where the kernel put x. The row is given either as an
// integer (after = Insert(before, x)) or as a set holding exactly one row (after = before ∪ {x});
// Z3 answers the first faster for the order claim, the second for the others, which it then
// answers over 64 rows.
enum class ProbeRow { kInteger, kOneRowSet };

struct Probe {
  std::optional<z3::expr> x;  // kInteger
  Z3Domain::Set row;          // {x}
  z3::expr ok;
  Z3Domain::Set output;
};

struct Probes {
  ProbeRow how;
  kernel::SourceRun<Z3Domain> run;
  z3::expr output_rows;
  Z3Domain::Set compacted, before;
  Probe first, second;
};

Probe RunProbe(const Z3Domain& d, const Probes& shared, const std::string& name) {
  Probe probe{std::nullopt, d.EmptySet(), d.True(), d.EmptySet()};
  Z3Domain::Set after = shared.before;
  if (shared.how == ProbeRow::kInteger) {
    probe.x = d.FreshInt(name);
    probe.row = d.Insert(d.EmptySet(), *probe.x);
    after = d.Insert(shared.before, *probe.x);
  } else {
    probe.row = d.FreshSet(name);
    after = d.Union(shared.before, probe.row);
  }
  probe.ok = kernel::RemapOntoOutput(d, shared.run, shared.output_rows, d.universe() - 1, shared.compacted,
                                     shared.before, after, probe.output);
  return probe;
}

Probes RunProbes(const Z3Domain& d, ProbeRow how) {
  const Probe none{std::nullopt, d.EmptySet(), d.True(), d.EmptySet()};
  Probes p{how, {d.FreshInt("start"), d.FreshInt("live")}, d.FreshInt("output_rows"), d.FreshSet("compacted"),
           d.FreshSet("before"), none, none};
  p.first = RunProbe(d, p, "x1");
  p.second = RunProbe(d, p, "x2");
  return p;
}

// x is one row of the universe, not deleted before.
z3::expr IsNewRow(const Z3Domain& d, const Probes& p, const Probe& probe) {
  if (probe.x) return d.Const(0) <= *probe.x && *probe.x < d.Const(d.universe()) && !d.Contains(p.before, *probe.x);
  z3::expr one = d.False();
  for (int j = 0; j < d.universe(); ++j) {
    one = one || probe.row.members[j];
    for (int k = j + 1; k < d.universe(); ++k) one = one && !(probe.row.members[j] && probe.row.members[k]);
  }
  return one && d.IsEmpty(d.Intersect(probe.row, p.before));
}

// x1 < x2; as sets, no member of {x2} is at or below a member of {x1}.
z3::expr FirstRowBelowSecond(const Z3Domain& d, const Probes& p) {
  if (p.first.x) return *p.first.x < *p.second.x;
  z3::expr below = d.True();
  for (int j = 0; j < d.universe(); ++j) {
    for (int k = j; k < d.universe(); ++k) below = below && !(p.second.row.members[j] && p.first.row.members[k]);
  }
  return below;
}

Obligation MakeProbe(const std::string& name, const std::string& statement, const z3::expr& claim, const Probes& p,
                     const Z3Domain& d) {
  return {name,
          statement + Bound(d),
          Expectation::kValid,
          claim,
          {ShowInt("start", p.run.start), ShowInt("live", p.run.live), ShowInt("output_rows", p.output_rows),
           ShowSet("compacted", p.compacted), ShowSet("before", p.before), ShowSet("{x1}", p.first.row),
           ShowSet("{x2}", p.second.row)},
          {ShowBool("ok1", p.first.ok), ShowSet("image1", p.first.output), ShowBool("ok2", p.second.ok),
           ShowSet("image2", p.second.output)}};
}

// Three sources compacted into one output: each source's rows are 0..rows_per_source-1 (its DVs
// hold no row beyond: those members are the constant false, which Z3 simplifies away), the runs
// pass the tiling check, and the kernel remaps every source in turn onto the same DV.
struct SharedOutput {
  int rows_per_source;
  std::vector<kernel::SourceRun<Z3Domain>> runs;
  z3::expr output_rows, tiles, ok;
  std::vector<Z3Domain::Set> compacted, before, after;
  Z3Domain::Set initial, output;
  std::vector<std::vector<z3::expr>> is_new, position;  // [source][row]
};

SharedOutput RunSharedOutput(const Z3Domain& d) {
  SharedOutput t{d.universe() / 3, {}, d.FreshInt("output_rows"), d.True(), d.True(), {}, {}, {},
                 d.FreshSet("output_dv"), d.EmptySet(), {}, {}};
  auto source_set = [&](const std::string& name) {
    Z3Domain::Set set = d.FreshSet(name);
    for (int i = t.rows_per_source; i < d.universe(); ++i) set.members[i] = d.False();
    return set;
  };
  for (int s = 0; s < 3; ++s) {
    const std::string n = std::to_string(s);
    t.runs.push_back({d.FreshInt("start" + n), d.FreshInt("live" + n)});
    t.compacted.push_back(source_set("compacted" + n));
    t.before.push_back(source_set("before" + n));
    t.after.push_back(source_set("after" + n));
  }
  t.tiles = kernel::RunsTileOutput(d, t.runs, t.output_rows);
  t.output = t.initial;
  for (int s = 0; s < 3; ++s) {
    t.ok = t.ok && kernel::RemapOntoOutput(d, t.runs[s], t.output_rows, d.universe() - 1, t.compacted[s],
                                           t.before[s], t.after[s], t.output);
    std::vector<z3::expr> is_new, position;
    z3::expr below = d.Const(0);
    for (int i = 0; i < d.universe(); ++i) {
      is_new.push_back(t.after[s].members[i] && !t.before[s].members[i]);
      position.push_back(t.runs[s].start + d.Const(i) - below);
      below = below + z3::ite(t.compacted[s].members[i], d.Const(1), d.Const(0));
    }
    t.is_new.push_back(is_new);
    t.position.push_back(position);
  }
  return t;
}

}  // namespace

Obligation RemapThreeSourcesShareOneOutput(const Z3Domain& d) {
  const SharedOutput t = RunSharedOutput(d);
  const int n = d.universe();
  z3::expr claim = d.True();
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < t.rows_per_source; ++i) {
      const z3::expr& p = t.position[s][i];
      z3::expr in_output = d.False();
      for (int q = 0; q < n; ++q) in_output = in_output || (t.output.members[q] && p == d.Const(q));
      claim = claim && z3::implies(t.is_new[s][i], t.runs[s].start <= p && p < t.runs[s].start + t.runs[s].live &&
                                                      in_output);
      for (int o = s + 1; o < 3; ++o) {  // no row of another source lands there
        for (int k = 0; k < t.rows_per_source; ++k) claim = claim && !(t.is_new[s][i] && t.is_new[o][k] && p == t.position[o][k]);
      }
    }
  }
  for (int q = 0; q < n; ++q) {
    z3::expr explained = t.initial.members[q];
    for (int s = 0; s < 3; ++s) {
      for (int i = 0; i < t.rows_per_source; ++i) explained = explained || (t.is_new[s][i] && t.position[s][i] == d.Const(q));
    }
    claim = claim && z3::implies(t.initial.members[q], t.output.members[q]) && z3::implies(t.output.members[q], explained);
  }
  std::vector<ShownValue> inputs{ShowInt("output_rows", t.output_rows), ShowSet("output_dv", t.initial)};
  for (int s = 0; s < 3; ++s) {
    const std::string n_s = std::to_string(s);
    inputs.push_back(ShowInt("start" + n_s, t.runs[s].start));
    inputs.push_back(ShowInt("live" + n_s, t.runs[s].live));
    inputs.push_back(ShowSet("compacted" + n_s, t.compacted[s]));
    inputs.push_back(ShowSet("before" + n_s, t.before[s]));
    inputs.push_back(ShowSet("after" + n_s, t.after[s]));
  }
  return {"4a.three_sources_share_one_output",
          "three sources (rows 0.." + std::to_string(t.rows_per_source - 1) +
              " each) whose runs pass the tiling check, remapped in turn onto one output DV (rows 0.." +
              std::to_string(n - 1) + "): every new row lands in its own source's run, no two sources' rows meet, "
              "and the DV holds its initial rows and those images only",
          Expectation::kValid, z3::implies(t.tiles && t.ok, claim), inputs,
          {ShowBool("tiles", t.tiles), ShowBool("ok", t.ok), ShowSet("output_dv'", t.output)}};
}

Obligation RemapThreeSourcesPremiseSatisfiable(const Z3Domain& d) {
  const SharedOutput t = RunSharedOutput(d);
  z3::expr premise = t.tiles && t.ok;
  for (int s = 0; s < 3; ++s) {
    z3::expr any_new = d.False();
    for (int i = 0; i < t.rows_per_source; ++i) any_new = any_new || t.is_new[s][i];
    premise = premise && any_new;
  }
  return {"4a.three_sources_premise_satisfiable",
          "three tiled sources can each be remapped with a new row (must fail)" + Bound(d), Expectation::kRefutable,
          !premise, {ShowInt("output_rows", t.output_rows)}, {ShowBool("ok", t.ok), ShowSet("output_dv'", t.output)}};
}

Obligation RemapStaysInsideItsRun(const Z3Domain& d) {
  const Probes p = RunProbes(d, ProbeRow::kOneRowSet);
  z3::expr claim = d.False();
  for (int q = 0; q < d.universe(); ++q) claim = claim || p.first.output.members[q];  // x1 lands somewhere
  for (int q = 0; q < d.universe(); ++q) {
    const z3::expr in_run = p.run.start <= d.Const(q) && d.Const(q) < p.run.start + p.run.live;
    claim = claim && z3::implies(p.first.output.members[q], in_run);
  }
  return MakeProbe("remap.stays_inside_its_run",
                   "ok => a new row lands at one or more output positions, all inside its source's run [start, "
                   "start + live)",
                   z3::implies(IsNewRow(d, p, p.first) && p.first.ok, claim), p, d);
}

Obligation RemapIsInjective(const Z3Domain& d) {
  const Probes p = RunProbes(d, ProbeRow::kOneRowSet);
  z3::expr claim = d.True();
  for (int q = 0; q < d.universe(); ++q) claim = claim && !(p.first.output.members[q] && p.second.output.members[q]);
  const z3::expr premise =
      IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) && d.IsEmpty(d.Intersect(p.first.row, p.second.row)) &&
      p.first.ok && p.second.ok;
  return MakeProbe("remap.is_injective", "ok => two distinct new rows never land on a common output position",
                   z3::implies(premise, claim), p, d);
}

Obligation RemapPreservesOrder(const Z3Domain& d) {
  const Probes p = RunProbes(d, ProbeRow::kInteger);
  z3::expr claim = d.True();
  for (int a = 0; a < d.universe(); ++a) {
    for (int b = 0; b <= a; ++b) claim = claim && !(p.first.output.members[a] && p.second.output.members[b]);
  }
  const z3::expr premise =
      IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) && FirstRowBelowSecond(d, p) && p.first.ok && p.second.ok;
  return MakeProbe("remap.preserves_order", "ok => of two new rows x1 < x2, x1 lands before x2 in the output",
                   z3::implies(premise, claim), p, d);
}

Obligation RemapProbePremiseSatisfiable(const Z3Domain& d) {
  const Probes p = RunProbes(d, ProbeRow::kOneRowSet);
  z3::expr second_shifted = d.False();  // some compacted row lies below x2
  for (int j = 0; j < d.universe(); ++j) {
    for (int k = j + 1; k < d.universe(); ++k) second_shifted = second_shifted || (p.compacted.members[j] && p.second.row.members[k]);
  }
  const z3::expr premise = IsNewRow(d, p, p.first) && IsNewRow(d, p, p.second) && FirstRowBelowSecond(d, p) &&
                           p.first.ok && p.second.ok && second_shifted;
  Obligation o = MakeProbe("remap.probe_premise_satisfiable",
                           "two new rows, the second past a compacted row, can both be remapped (must fail)", !premise,
                           p, d);
  o.expectation = Expectation::kRefutable;
  return o;
}

Obligation RemapCarriesExactlyNewDeletions(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  return Make("remap.carries_exactly_new_deletions",
              "ok => each row of after - before lands at start + i - rank(i) in the run, and nothing else is added",
              Expectation::kValid, z3::implies(r.ok, CarriesExactlyNewDeletions(d, r)), r, d);
}

Obligation RemapWithoutGuardCarriesExactlyNewDeletions(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  return Make("remap.no_guard.carries_exactly_new_deletions",
              "without the guard, the remap carries exactly the new deletions (must fail)", Expectation::kRefutable,
              CarriesExactlyNewDeletions(d, r), r, d);
}

Obligation RemapNeverOkPastACompactedRow(const Z3Domain& d) {
  const RemapRun r = RunKernel(d);
  z3::expr shifted_row = d.context().bool_val(false);
  for (int i = 0; i < d.universe(); ++i) shifted_row = shifted_row || (r.is_new[i] && r.rank[i] > d.Const(0));
  return Make("remap.never_ok_past_a_compacted_row",
              "ok never holds with a new row past a compacted row (must fail: the premise is satisfiable)",
              Expectation::kRefutable, z3::implies(shifted_row, !r.ok), r, d);
}

}  // namespace rlc::proofs
