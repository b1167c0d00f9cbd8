#include "proofs/truth_value_obligations.h"

#include <string>
#include <vector>

#include "impl/kernel/truth_values.h"
#include "proofs/obligations.h"

namespace rlc::proofs {
namespace {

using MayTake = kernel::MayTake<Z3Domain>;

// One row's SQL truth value: True, False, or neither (Unknown).
struct RowValue {
  z3::expr is_true, is_false;
  z3::expr Unknown() const { return !is_true && !is_false; }
  z3::expr WellFormed() const { return !(is_true && is_false); }
};

RowValue FreshValue(const Z3Domain& d, const std::string& name) {
  return {d.context().bool_const((name + ".true").c_str()),
          d.context().bool_const((name + ".false").c_str())};
}

// Kleene's AND and OR (SQL's three-valued logic).
RowValue KleeneAnd(const RowValue& a, const RowValue& b) {
  return {a.is_true && b.is_true, a.is_false || b.is_false};
}
RowValue KleeneOr(const RowValue& a, const RowValue& b) {
  return {a.is_true || b.is_true, a.is_false && b.is_false};
}
RowValue KleeneOp(bool is_and, const RowValue& a, const RowValue& b) {
  return is_and ? KleeneAnd(a, b) : KleeneOr(a, b);
}

MayTake FreshAnswer(const Z3Domain& d, const std::string& name) {
  z3::context& c = d.context();
  return {c.bool_const((name + ".can_be_true").c_str()),
          c.bool_const((name + ".can_be_false").c_str()),
          c.bool_const((name + ".can_be_unknown").c_str())};
}

z3::expr Covers(const MayTake& answer, const RowValue& value) {
  return z3::implies(value.is_true, answer.can_be_true) &&
         z3::implies(value.is_false, answer.can_be_false) &&
         z3::implies(value.Unknown(), answer.can_be_unknown);
}

void ShowAnswer(std::vector<ShownValue>& out, const std::string& name, const MayTake& m) {
  out.push_back(ShowBool(name + ".can_be_true", m.can_be_true));
  out.push_back(ShowBool(name + ".can_be_false", m.can_be_false));
  out.push_back(ShowBool(name + ".can_be_unknown", m.can_be_unknown));
}

void ShowValue(std::vector<ShownValue>& out, const std::string& name, const RowValue& v) {
  out.push_back(ShowBool(name + ".true", v.is_true));
  out.push_back(ShowBool(name + ".false", v.is_false));
}

constexpr char kUnbounded[] = " (unbounded: every Bool, any number of children)";

// ---- connectives -------------------------------------------------------------------------------

// The fold's state against the Kleene AND/OR V of the children folded so far. For AND the
// primary value is True, the secondary False; for OR the reverse.
z3::expr FoldInvariant(const kernel::ConnectiveFold<Z3Domain>& f, const RowValue& v) {
  const z3::expr primary = f.is_and ? v.is_true : v.is_false;
  const z3::expr secondary = f.is_and ? v.is_false : v.is_true;
  return z3::implies(primary, f.all_primary && f.all_no_secondary) &&
         z3::implies(secondary, f.any_secondary) &&
         z3::implies(v.Unknown(), f.any_unknown && f.all_no_secondary);
}

kernel::ConnectiveFold<Z3Domain> FreshFold(const Z3Domain& d, bool is_and,
                                           const std::string& name) {
  z3::context& c = d.context();
  return {is_and, c.bool_const((name + ".all_primary").c_str()),
          c.bool_const((name + ".any_secondary").c_str()),
          c.bool_const((name + ".any_unknown").c_str()),
          c.bool_const((name + ".all_no_secondary").c_str())};
}

}  // namespace

Obligation NegationKeepsEveryRowValue(const Z3Domain& d) {
  const MayTake child = FreshAnswer(d, "child");
  const RowValue v = FreshValue(d, "child_value");
  const MayTake answer = kernel::Negation(d, child);
  const RowValue negated{v.is_false, v.is_true};
  std::vector<ShownValue> inputs;
  ShowAnswer(inputs, "child", child);
  ShowValue(inputs, "child_value", v);
  std::vector<ShownValue> kernel_values;
  ShowAnswer(kernel_values, "not", answer);
  return {"case1.negation_keeps_every_row_value",
          std::string("NOT: an answer covering the child's value gives one covering NOT's") +
              kUnbounded,
          Expectation::kValid,
          z3::implies(v.WellFormed() && Covers(child, v), Covers(answer, negated)),
          inputs,
          kernel_values};
}

Obligation ConnectiveFoldKeepsEveryRowValue(const Z3Domain& d) {
  z3::expr claim = d.True();
  std::vector<ShownValue> inputs;
  for (bool is_and : {true, false}) {
    const std::string op = is_and ? "and" : "or";
    // Base: nothing folded; V is AND's identity True, OR's False.
    const RowValue identity{d.context().bool_val(is_and), d.context().bool_val(!is_and)};
    claim = claim && FoldInvariant(kernel::BeginConnective(d, is_and), identity);
    // Step: any state satisfying the invariant, any child whose answer covers its value.
    const kernel::ConnectiveFold<Z3Domain> fold = FreshFold(d, is_and, op + ".fold");
    const RowValue so_far = FreshValue(d, op + ".so_far");
    const MayTake child = FreshAnswer(d, op + ".child");
    const RowValue value = FreshValue(d, op + ".child_value");
    const z3::expr premise =
        so_far.WellFormed() && value.WellFormed() && FoldInvariant(fold, so_far);
    claim = claim && z3::implies(premise && Covers(child, value),
                                 FoldInvariant(kernel::StepConnective(d, fold, child),
                                               KleeneOp(is_and, so_far, value)));
    // Finish: the invariant makes the answer cover the value.
    claim = claim && z3::implies(premise, Covers(kernel::FinishConnective(d, fold), so_far));
    ShowValue(inputs, op + ".so_far", so_far);
    ShowAnswer(inputs, op + ".child", child);
    ShowValue(inputs, op + ".child_value", value);
  }
  return {
      "case1.connective_fold_keeps_every_row_value",
      std::string(
          "AND and OR by induction over their children: BeginConnective, StepConnective and "
          "FinishConnective keep an answer covering the Kleene AND/OR of the children's values") +
          kUnbounded,
      Expectation::kValid,
      claim,
      inputs,
      {}};
}

Obligation ConnectiveRunsEveryChild(const Z3Domain& d) {
  constexpr int kChildren = 3;
  std::vector<MayTake> children;
  std::vector<RowValue> values;
  std::vector<ShownValue> inputs;
  z3::expr premise = d.True();
  for (int i = 0; i < kChildren; ++i) {
    const std::string name = "child" + std::to_string(i);
    children.push_back(FreshAnswer(d, name));
    values.push_back(FreshValue(d, name + "_value"));
    premise = premise && values.back().WellFormed() && Covers(children.back(), values.back());
    ShowAnswer(inputs, name, children.back());
    ShowValue(inputs, name + "_value", values.back());
  }
  z3::expr claim = d.True();
  std::vector<ShownValue> kernel_values;
  for (bool is_and : {true, false}) {
    RowValue whole = values[0];
    for (int i = 1; i < kChildren; ++i) whole = KleeneOp(is_and, whole, values[i]);
    const MayTake answer = kernel::Connective(d, children, is_and);
    claim = claim && Covers(answer, whole);
    ShowAnswer(kernel_values, is_and ? "and" : "or", answer);
  }
  return {"case1.connective_runs_every_child",
          "Connective itself on three children, AND and OR: answers covering each child's value "
          "give one "
          "covering the whole's (3 children, every Bool)",
          Expectation::kValid,
          z3::implies(premise, claim),
          inputs,
          kernel_values};
}

Obligation NullTestKeepsEveryRowValue(const Z3Domain& d) {
  z3::context& c = d.context();
  const z3::expr row_is_null = c.bool_const("row_is_null");
  const z3::expr may_be_null = c.bool_const("may_be_null"),
                 may_be_non_null = c.bool_const("may_be_non_null");
  const z3::expr facts_cover =
      z3::implies(row_is_null, may_be_null) && z3::implies(!row_is_null, may_be_non_null);
  const MayTake is_null = kernel::NullTest(d, may_be_null, may_be_non_null, true);
  const MayTake is_not_null = kernel::NullTest(d, may_be_null, may_be_non_null, false);
  const z3::expr claim = Covers(is_null, {row_is_null, !row_is_null}) &&
                         Covers(is_not_null, {!row_is_null, row_is_null});
  std::vector<ShownValue> kernel_values;
  ShowAnswer(kernel_values, "is_null", is_null);
  ShowAnswer(kernel_values, "is_not_null", is_not_null);
  return {
      "case1.null_test_keeps_every_row_value",
      std::string(
          "IS NULL and IS NOT NULL: null facts covering the row give answers covering its value") +
          " (unbounded: every Bool)",
      Expectation::kValid,
      z3::implies(facts_cover, claim),
      {ShowBool("row_is_null", row_is_null), ShowBool("may_be_null", may_be_null),
       ShowBool("may_be_non_null", may_be_non_null)},
      kernel_values};
}

Obligation ComparisonKeepsEveryRowValue(const Z3Domain& d) {
  z3::context& c = d.context();
  const z3::expr left_null = c.bool_const("left_is_null"),
                 right_null = c.bool_const("right_is_null");
  const z3::expr holds = c.bool_const("comparison_holds");  // of the two non-NULL values
  const z3::expr lmn = c.bool_const("left.may_be_null"), lmv = c.bool_const("left.may_be_non_null");
  const z3::expr rmn = c.bool_const("right.may_be_null"),
                 rmv = c.bool_const("right.may_be_non_null");
  const z3::expr leaf_true = c.bool_const("leaf.can_be_true"),
                 leaf_false = c.bool_const("leaf.can_be_false");
  const z3::expr premise =
      z3::implies(left_null, lmn) && z3::implies(!left_null, lmv) && z3::implies(right_null, rmn) &&
      z3::implies(!right_null, rmv) &&
      z3::implies(!left_null && !right_null,
                  z3::implies(holds, leaf_true) && z3::implies(!holds, leaf_false));
  const MayTake answer = kernel::Comparison(d, lmn, lmv, rmn, rmv, leaf_true, leaf_false);
  const z3::expr some_null = left_null || right_null;
  const RowValue value{!some_null && holds, !some_null && !holds};
  std::vector<ShownValue> kernel_values;
  ShowAnswer(kernel_values, "comparison", answer);
  return {"case1.comparison_keeps_every_row_value",
          "a OP b: null facts of both sides and a leaf answer covering the comparison of the "
          "non-NULL values "
          "give an answer covering the row's value (unbounded: every Bool)",
          Expectation::kValid,
          z3::implies(premise, Covers(answer, value)),
          {ShowBool("left_is_null", left_null), ShowBool("right_is_null", right_null),
           ShowBool("comparison_holds", holds), ShowBool("left.may_be_null", lmn),
           ShowBool("left.may_be_non_null", lmv), ShowBool("right.may_be_null", rmn),
           ShowBool("right.may_be_non_null", rmv), ShowBool("leaf.can_be_true", leaf_true),
           ShowBool("leaf.can_be_false", leaf_false)},
          kernel_values};
}

namespace {

// ---- IN --------------------------------------------------------------------------------------

// The row: v NULL or a value; for the items folded so far, whether a non-NULL one equals v and
// whether one is NULL.
struct InRow {
  z3::expr v_is_null, may_be_null, may_be_non_null;
  z3::expr NullFactsCover() const {
    return z3::implies(v_is_null, may_be_null) && z3::implies(!v_is_null, may_be_non_null);
  }
};

struct InSoFar {
  z3::expr any_equal, any_null_item;
};

z3::expr InInvariant(const InRow& row, const kernel::InListFold<Z3Domain>& f,
                     const InSoFar& so_far) {
  return f.has_null == so_far.any_null_item &&
         z3::implies(!row.v_is_null, z3::implies(so_far.any_equal, f.any_may_equal) &&
                                         z3::implies(f.some_all_equal, so_far.any_equal));
}

// An item's facts from the leaf's `=`, true of the row's non-NULL v; `equal`: v equals it.
z3::expr ItemFactsCover(const InRow& row, const kernel::InListItem<Z3Domain>& item,
                        const z3::expr& equal) {
  if (item.is_null) return row.v_is_null.ctx().bool_val(true);  // a NULL item has no facts
  return z3::implies(!row.v_is_null,
                     z3::implies(equal, item.may_equal) && z3::implies(item.all_equal, equal));
}

InSoFar Folded(const InSoFar& so_far, const kernel::InListItem<Z3Domain>& item,
               const z3::expr& equal) {
  if (item.is_null) return {so_far.any_equal, so_far.any_null_item.ctx().bool_val(true)};
  return {so_far.any_equal || equal, so_far.any_null_item};
}

// SQL: NULL IN (...) is Unknown; else True if a non-NULL item equals v, else Unknown if an item is
// NULL, else False.
RowValue InValue(const InRow& row, const InSoFar& all) {
  return {!row.v_is_null && all.any_equal, !row.v_is_null && !all.any_equal && !all.any_null_item};
}

InRow FreshInRow(const Z3Domain& d) {
  z3::context& c = d.context();
  return {c.bool_const("v_is_null"), c.bool_const("may_be_null"), c.bool_const("may_be_non_null")};
}

kernel::InListItem<Z3Domain> FreshItem(const Z3Domain& d, bool is_null, const std::string& name) {
  z3::context& c = d.context();
  return {is_null, c.bool_const((name + ".may_equal").c_str()),
          c.bool_const((name + ".all_equal").c_str())};
}

}  // namespace

Obligation InListFoldKeepsEveryRowValue(const Z3Domain& d) {
  z3::context& c = d.context();
  const InRow row = FreshInRow(d);
  // Base.
  z3::expr claim = InInvariant(row, kernel::BeginInList(d), {c.bool_val(false), c.bool_val(false)});
  // Step, for a NULL item and a non-NULL one.
  const kernel::InListFold<Z3Domain> fold{c.bool_const("fold.any_may_equal"),
                                          c.bool_const("fold.has_null"),
                                          c.bool_const("fold.some_all_equal")};
  const InSoFar so_far{c.bool_const("so_far.any_equal"), c.bool_const("so_far.any_null_item")};
  const z3::expr equal = c.bool_const("v_equals_item");
  std::vector<ShownValue> inputs{ShowBool("v_is_null", row.v_is_null),
                                 ShowBool("v_equals_item", equal)};
  for (bool is_null : {true, false}) {
    const kernel::InListItem<Z3Domain> item = FreshItem(d, is_null, is_null ? "null_item" : "item");
    claim = claim && z3::implies(InInvariant(row, fold, so_far) && ItemFactsCover(row, item, equal),
                                 InInvariant(row, kernel::StepInList(d, fold, item),
                                             Folded(so_far, item, equal)));
    if (!is_null) {
      inputs.push_back(ShowBool("item.may_equal", item.may_equal));
      inputs.push_back(ShowBool("item.all_equal", item.all_equal));
    }
  }
  // Finish.
  claim = claim &&
          z3::implies(InInvariant(row, fold, so_far) && row.NullFactsCover(),
                      Covers(kernel::FinishInList(d, fold, row.may_be_null, row.may_be_non_null),
                             InValue(row, so_far)));
  return {
      "case1.in_list_fold_keeps_every_row_value",
      std::string(
          "IN by induction over its items: BeginInList, StepInList and FinishInList keep an answer "
          "covering the row's value, given null facts and item facts that cover the row") +
          " (unbounded: every Bool, any number of items)",
      Expectation::kValid,
      claim,
      inputs,
      {}};
}

Obligation InListRunsEveryItem(const Z3Domain& d) {
  constexpr int kItems = 3;
  z3::context& c = d.context();
  const InRow row = FreshInRow(d);
  std::vector<ShownValue> inputs{ShowBool("v_is_null", row.v_is_null),
                                 ShowBool("may_be_null", row.may_be_null),
                                 ShowBool("may_be_non_null", row.may_be_non_null)};
  std::vector<z3::expr> equal;
  for (int i = 0; i < kItems; ++i) {
    equal.push_back(c.bool_const(("v_equals_item" + std::to_string(i)).c_str()));
    inputs.push_back(ShowBool("v_equals_item" + std::to_string(i), equal.back()));
  }
  z3::expr claim = d.True();
  for (int nulls = 0; nulls < (1 << kItems); ++nulls) {  // every pattern of NULL items
    std::vector<kernel::InListItem<Z3Domain>> items;
    z3::expr premise = row.NullFactsCover();
    InSoFar all{c.bool_val(false), c.bool_val(false)};
    for (int i = 0; i < kItems; ++i) {
      const bool is_null = (nulls >> i) & 1;
      items.push_back(FreshItem(d, is_null, "item" + std::to_string(i)));
      premise = premise && ItemFactsCover(row, items.back(), equal[i]);
      all = Folded(all, items.back(), equal[i]);
    }
    claim =
        claim &&
        z3::implies(premise, Covers(kernel::InList(d, items, row.may_be_null, row.may_be_non_null),
                                    InValue(row, all)));
  }
  for (int i = 0; i < kItems; ++i) {
    const kernel::InListItem<Z3Domain> item = FreshItem(d, false, "item" + std::to_string(i));
    inputs.push_back(ShowBool("item" + std::to_string(i) + ".may_equal", item.may_equal));
    inputs.push_back(ShowBool("item" + std::to_string(i) + ".all_equal", item.all_equal));
  }
  return {"case1.in_list_runs_every_item",
          "InList itself on three items, each NULL or not: covering facts give an answer covering "
          "the row's "
          "value (3 items, every Bool)",
          Expectation::kValid,
          claim,
          inputs,
          {}};
}

Obligation TruthValuesPremiseSatisfiable(const Z3Domain& d) {
  z3::context& c = d.context();
  // An AND of two covered children that cannot be True.
  const std::vector<MayTake> children{FreshAnswer(d, "child0"), FreshAnswer(d, "child1")};
  const std::vector<RowValue> values{FreshValue(d, "child0_value"), FreshValue(d, "child1_value")};
  z3::expr premise = d.True();
  for (int i = 0; i < 2; ++i)
    premise = premise && values[i].WellFormed() && Covers(children[i], values[i]);
  premise = premise && !kernel::Connective(d, children, true).can_be_true;
  premise = premise && kernel::Connective(d, children, false).can_be_true &&
            !kernel::Connective(d, children, false).can_be_false;
  // IS NULL that cannot be True, on a row its facts cover.
  const z3::expr row_is_null = c.bool_const("row_is_null");
  const z3::expr may_be_null = c.bool_const("may_be_null"),
                 may_be_non_null = c.bool_const("may_be_non_null");
  premise = premise && z3::implies(row_is_null, may_be_null) &&
            z3::implies(!row_is_null, may_be_non_null) &&
            !kernel::NullTest(d, may_be_null, may_be_non_null, true).can_be_true;
  // An IN of two non-NULL items that cannot be True, its facts covering the row.
  const InRow row = FreshInRow(d);
  std::vector<kernel::InListItem<Z3Domain>> items{FreshItem(d, false, "item0"),
                                                  FreshItem(d, false, "item1")};
  const z3::expr e0 = c.bool_const("v_equals_item0"), e1 = c.bool_const("v_equals_item1");
  premise = premise && row.NullFactsCover() && ItemFactsCover(row, items[0], e0) &&
            ItemFactsCover(row, items[1], e1) &&
            !kernel::InList(d, items, row.may_be_null, row.may_be_non_null).can_be_true;
  std::vector<ShownValue> inputs;
  for (int i = 0; i < 2; ++i) {
    ShowAnswer(inputs, "child" + std::to_string(i), children[i]);
    ShowValue(inputs, "child" + std::to_string(i) + "_value", values[i]);
  }
  return {"case1.truth_values_premise_satisfiable",
          "covering answers can rule values out: an AND not True, an OR not False, IS NULL not "
          "True, IN not True "
          "(must fail)",
          Expectation::kRefutable,
          !premise,
          inputs,
          {}};
}

// This file's obligations, in the order they are reported (obligations.h).
const ObligationTable kObligations(
    "truth_value", {
                       {&NegationKeepsEveryRowValue, kNoRows},
                       {&ConnectiveFoldKeepsEveryRowValue, kNoRows},
                       {&ConnectiveRunsEveryChild, kNoRows, kSolverTimeoutMs, Layout::kChildren},
                       {&NullTestKeepsEveryRowValue, kNoRows},
                       {&ComparisonKeepsEveryRowValue, kNoRows},
                       {&InListFoldKeepsEveryRowValue, kNoRows},
                       {&InListRunsEveryItem, kNoRows, kSolverTimeoutMs, Layout::kChildren},
                       {&TruthValuesPremiseSatisfiable, kNoRows},
                   });

}  // namespace rlc::proofs
