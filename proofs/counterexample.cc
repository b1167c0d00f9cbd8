#include "proofs/counterexample.h"

#include "impl/base/assert.h"

namespace rlc::proofs {

namespace {

// model_completion: a term the model leaves open gets some value, so every line is total.
bool IsTrueIn(const z3::model& model, const z3::expr& term) { return model.eval(term, true).is_true(); }

std::string PrintLine(const z3::model& model, const char* label, const std::vector<ShownValue>& values) {
  std::string line = label;
  for (size_t i = 0; i < values.size(); ++i) line += (i == 0 ? " " : ", ") + PrintValue(model, values[i]);
  return line + "\n";
}

}  // namespace

ShownValue ShowSet(const std::string& name, const Z3Domain::Set& set) {
  return {name, ShownKind::kSet, set.members};
}

ShownValue ShowInt(const std::string& name, const z3::expr& value) {
  RLC_ASSERT(value.is_int());
  return {name, ShownKind::kInt, {value}};
}

ShownValue ShowBool(const std::string& name, const z3::expr& value) {
  RLC_ASSERT(value.is_bool());
  return {name, ShownKind::kBool, {value}};
}

std::string PrintValue(const z3::model& model, const ShownValue& value) {
  std::string text = value.name + " = ";
  switch (value.kind) {
    case ShownKind::kSet: {
      std::string members;
      for (size_t j = 0; j < value.terms.size(); ++j) {
        if (!IsTrueIn(model, value.terms[j])) continue;
        members += (members.empty() ? "" : ", ") + std::to_string(j);
      }
      return text + "{" + members + "}";
    }
    case ShownKind::kInt:
      RLC_ASSERT(value.terms.size() == 1);
      // Decimal with a plain minus sign, where to_string would print "(- 5)".
      return text + model.eval(value.terms[0], true).get_decimal_string(0);
    case ShownKind::kBool:
      RLC_ASSERT(value.terms.size() == 1);
      return text + (IsTrueIn(model, value.terms[0]) ? "true" : "false");
  }
  RLC_ASSERT(false);  // every ShownKind is handled above
  return text;
}

std::string PrintCounterexample(const z3::model& model, const std::vector<ShownValue>& inputs,
                                const std::vector<ShownValue>& kernel_values) {
  std::string text;
  if (!inputs.empty()) text += PrintLine(model, "inputs:", inputs);
  if (!kernel_values.empty()) text += PrintLine(model, "kernel:", kernel_values);
  return text;
}

}  // namespace rlc::proofs
