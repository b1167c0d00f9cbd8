#include "proofs/stats_obligations.h"

#include <string>
#include <utility>
#include <vector>

#include "impl/kernel/stats_leaf.h"
#include "proofs/obligations.h"

namespace rlc::proofs {
namespace {

// ---- null facts ------------------------------------------------------------------------------

struct NullsRun {
  z3::expr rows, has_rows, has_null_count, null_count;
  Z3Domain::Set nulls, dv;
  z3::expr truthful;  // the statistics describe the file
  kernel::NullFacts<Z3Domain> facts;
};

NullsRun RunNullFacts(const Z3Domain& d) {
  NullsRun r{d.FreshInt("rows"),
             d.context().bool_const("has_rows"),
             d.context().bool_const("has_null_count"),
             d.FreshInt("null_count"),
             d.FreshSet("nulls"),
             d.FreshSet("dv"),
             d.True(),
             {d.True(), d.True()}};
  r.truthful = d.Const(0) <= r.rows && r.rows <= d.Const(d.universe()) &&
               z3::implies(r.has_null_count, r.null_count == d.Cardinality(r.nulls));
  for (int j = 0; j < d.universe(); ++j) {  // only physical rows hold NULL or are deleted
    r.truthful =
        r.truthful && z3::implies(r.nulls.members[j] || r.dv.members[j], d.Const(j) < r.rows);
  }
  r.facts = kernel::NullFactsFromCounts(d, r.has_rows, r.rows, r.has_null_count, r.null_count);
  return r;
}

std::vector<ShownValue> Show(const NullsRun& r) {
  return {ShowInt("rows", r.rows),
          ShowBool("has_rows", r.has_rows),
          ShowBool("has_null_count", r.has_null_count),
          ShowInt("null_count", r.null_count),
          ShowSet("nulls", r.nulls),
          ShowSet("dv", r.dv)};
}

std::vector<ShownValue> ShowFacts(const NullsRun& r) {
  return {ShowBool("may_be_null", r.facts.may_be_null),
          ShowBool("may_be_non_null", r.facts.may_be_non_null)};
}

std::string Rows(const Z3Domain& d) {
  return " (rows 0.." + std::to_string(d.universe() - 1) + ")";
}
constexpr char kUnbounded[] = " (unbounded: every integer)";

// ---- leaf ------------------------------------------------------------------------------------

struct LeafInputs {
  kernel::ValueBounds<Z3Domain> bounds;
  z3::expr prefix_end, x, v;
  z3::expr x_starts_with_upper;
  z3::expr v_admitted;  // the bounds are true of v
};

LeafInputs FreshLeaf(const Z3Domain& d) {
  z3::context& c = d.context();
  LeafInputs in{{c.bool_const("has_lower"), d.FreshInt("lower"), c.bool_const("has_upper"),
                 d.FreshInt("upper"), c.bool_const("upper_is_prefix")},
                d.FreshInt("prefix_end"),
                d.FreshInt("x"),
                d.FreshInt("v"),
                d.True(),
                d.True()};
  const kernel::ValueBounds<Z3Domain>& b = in.bounds;
  auto starts_with_upper = [&](const z3::expr& s) { return b.upper <= s && s < in.prefix_end; };
  in.x_starts_with_upper = starts_with_upper(in.x);
  in.v_admitted =
      b.upper < in.prefix_end && z3::implies(b.has_lower, b.lower <= in.v) &&
      z3::implies(b.has_upper, in.v <= b.upper || (b.upper_is_prefix && starts_with_upper(in.v)));
  return in;
}

std::vector<ShownValue> Show(const LeafInputs& in) {
  return {ShowBool("has_lower", in.bounds.has_lower),
          ShowInt("lower", in.bounds.lower),
          ShowBool("has_upper", in.bounds.has_upper),
          ShowInt("upper", in.bounds.upper),
          ShowBool("upper_is_prefix", in.bounds.upper_is_prefix),
          ShowInt("prefix_end", in.prefix_end),
          ShowInt("x", in.x),
          ShowInt("v", in.v)};
}

struct NamedOp {
  kernel::LeafOp op;
  const char* name;
  z3::expr (*holds)(const z3::expr& v, const z3::expr& x);
};

const NamedOp kOps[] = {
    {kernel::LeafOp::kEq, "eq", [](const z3::expr& v, const z3::expr& x) { return v == x; }},
    {kernel::LeafOp::kNe, "ne", [](const z3::expr& v, const z3::expr& x) { return v != x; }},
    {kernel::LeafOp::kLt, "lt", [](const z3::expr& v, const z3::expr& x) { return v < x; }},
    {kernel::LeafOp::kLe, "le", [](const z3::expr& v, const z3::expr& x) { return v <= x; }},
    {kernel::LeafOp::kGt, "gt", [](const z3::expr& v, const z3::expr& x) { return v > x; }},
    {kernel::LeafOp::kGe, "ge", [](const z3::expr& v, const z3::expr& x) { return v >= x; }},
};

}  // namespace

Obligation NullFactsAdmitEveryLiveRow(const Z3Domain& d) {
  const NullsRun r = RunNullFacts(d);
  z3::expr live_null = d.False(), live_value = d.False();
  for (int j = 0; j < d.universe(); ++j) {
    const z3::expr live = d.Const(j) < r.rows && !r.dv.members[j];
    live_null = live_null || (live && r.nulls.members[j]);
    live_value = live_value || (live && !r.nulls.members[j]);
  }
  const z3::expr claim = z3::implies(live_null, r.facts.may_be_null) &&
                         z3::implies(live_value, r.facts.may_be_non_null);
  return {"case1.null_facts_admit_every_live_row",
          "the null facts Case 1 reads from numRecords and nullCount admit every live row, "
          "whatever the DV deleted" +
              Rows(d),
          Expectation::kValid,
          z3::implies(r.truthful, claim),
          Show(r),
          ShowFacts(r)};
}

Obligation NullFactsPremiseSatisfiable(const Z3Domain& d) {
  const NullsRun r = RunNullFacts(d);
  const z3::expr premise = r.truthful && !r.facts.may_be_null && r.rows > d.Const(1) &&
                           !d.IsEmpty(r.dv) && d.Lt(d.Cardinality(r.dv), r.rows);
  return {
      "case1.null_facts_premise_satisfiable",
      "the null facts can rule NULL out of a file with a DV and live rows (must fail)" + Rows(d),
      Expectation::kRefutable,
      !premise,
      Show(r),
      ShowFacts(r)};
}

Obligation LeafAdmitsEveryConsistentValue(const Z3Domain& d) {
  const LeafInputs in = FreshLeaf(d);
  z3::expr claim = d.True();
  std::vector<ShownValue> kernel_values;
  for (const NamedOp& op : kOps) {
    const kernel::LeafPossible<Z3Domain> p =
        kernel::CompareWithLiteral(d, in.bounds, op.op, in.x, in.x_starts_with_upper);
    const z3::expr holds = op.holds(in.v, in.x);
    claim = claim && z3::implies(holds, p.can_be_true) && z3::implies(!holds, p.can_be_false);
    kernel_values.push_back(ShowBool(std::string(op.name) + ".can_be_true", p.can_be_true));
    kernel_values.push_back(ShowBool(std::string(op.name) + ".can_be_false", p.can_be_false));
  }
  return {
      "case1.leaf_admits_every_consistent_value",
      std::string(
          "for =, <>, <, <=, >, >= and any value the statistics' bounds admit (a truncated string "
          "maximum admitting every string it prefixes), the leaf allows the comparison's outcome") +
          kUnbounded,
      Expectation::kValid,
      z3::implies(in.v_admitted, claim),
      Show(in),
      std::move(kernel_values)};
}

Obligation LeafPremiseSatisfiable(const Z3Domain& d) {
  const LeafInputs in = FreshLeaf(d);
  const kernel::LeafPossible<Z3Domain> ge =
      kernel::CompareWithLiteral(d, in.bounds, kernel::LeafOp::kGe, in.x, in.x_starts_with_upper);
  const z3::expr premise =
      in.v_admitted && in.bounds.has_upper && in.bounds.upper_is_prefix && !ge.can_be_true;
  return {
      "case1.leaf_premise_satisfiable",
      std::string("the leaf can rule `v >= x` out under a truncated string maximum (must fail)") +
          kUnbounded,
      Expectation::kRefutable,
      !premise,
      Show(in),
      {ShowBool("ge.can_be_true", ge.can_be_true), ShowBool("ge.can_be_false", ge.can_be_false)}};
}

// This file's obligations, in the order they are reported (obligations.h).
const ObligationTable kObligations("stats", {
                                                {&NullFactsAdmitEveryLiveRow, kNullsUniverse},
                                                {&NullFactsPremiseSatisfiable, kNullsUniverse},
                                                {&LeafAdmitsEveryConsistentValue, kNoRows},
                                                {&LeafPremiseSatisfiable, kNoRows},
                                            });

}  // namespace rlc::proofs
