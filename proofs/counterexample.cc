#include "proofs/counterexample.h"

#include "impl/base/assert.h"

namespace rlc::proofs {

namespace {

// model_completion: a term the model leaves open gets some value, so every line is total.
bool IsTrueIn(const z3::model& model, const z3::expr& term) {
  return model.eval(term, true).is_true();
}

std::string PrintLine(const char* label, const std::vector<DecodedValue>& values) {
  std::string line = label;
  for (size_t i = 0; i < values.size(); ++i) line += (i == 0 ? " " : ", ") + PrintValue(values[i]);
  return line + "\n";
}

}  // namespace

ShownValue ShowSet(const std::string& name, const Z3Domain::Set& set, int window) {
  if (!set.array) return {name, ShownKind::kSet, set.members};
  RLC_ASSERT(window > 0);
  std::vector<z3::expr> terms;
  for (int j = 0; j < window; ++j)
    terms.push_back(z3::select(*set.array, set.array->ctx().int_val(j)));
  return {name, ShownKind::kSet, terms};
}

ShownValue ShowInt(const std::string& name, const z3::expr& value) {
  RLC_ASSERT(value.is_int());
  return {name, ShownKind::kInt, {value}};
}

ShownValue ShowBool(const std::string& name, const z3::expr& value) {
  RLC_ASSERT(value.is_bool());
  return {name, ShownKind::kBool, {value}};
}

DecodedValue DecodeValue(const z3::model& model, const ShownValue& value) {
  DecodedValue decoded{value.name, value.kind, {}, {}, false};
  switch (value.kind) {
    case ShownKind::kSet:
      for (size_t j = 0; j < value.terms.size(); ++j) {
        if (IsTrueIn(model, value.terms[j])) decoded.members.push_back(static_cast<int64_t>(j));
      }
      break;
    case ShownKind::kInt:
      RLC_ASSERT(value.terms.size() == 1);
      // Decimal with a plain minus sign, where to_string would print "(- 5)".
      decoded.decimal = model.eval(value.terms[0], true).get_decimal_string(0);
      break;
    case ShownKind::kBool:
      RLC_ASSERT(value.terms.size() == 1);
      decoded.boolean = IsTrueIn(model, value.terms[0]);
      break;
  }
  return decoded;
}

DecodedCounterexample DecodeCounterexample(const z3::model& model,
                                           const std::vector<ShownValue>& inputs,
                                           const std::vector<ShownValue>& kernel_values) {
  DecodedCounterexample decoded;
  for (const ShownValue& v : inputs) decoded.inputs.push_back(DecodeValue(model, v));
  for (const ShownValue& v : kernel_values) decoded.kernel_values.push_back(DecodeValue(model, v));
  return decoded;
}

const DecodedValue& DecodedCounterexample::Input(const std::string& name) const {
  for (const DecodedValue& v : inputs) {
    if (v.name == name) return v;
  }
  RLC_ASSERT(false);  // the caller names an input the obligation shows
  return inputs.front();
}

std::string PrintValue(const DecodedValue& value) {
  std::string text = value.name + " = ";
  switch (value.kind) {
    case ShownKind::kSet: {
      std::string members;
      for (int64_t m : value.members) members += (members.empty() ? "" : ", ") + std::to_string(m);
      return text + "{" + members + "}";
    }
    case ShownKind::kInt:
      return text + value.decimal;
    case ShownKind::kBool:
      return text + (value.boolean ? "true" : "false");
  }
  RLC_ASSERT(false);  // every ShownKind is handled above
  return text;
}

std::string PrintCounterexample(const DecodedCounterexample& counterexample) {
  std::string text;
  if (!counterexample.inputs.empty()) text += PrintLine("inputs:", counterexample.inputs);
  if (!counterexample.kernel_values.empty())
    text += PrintLine("kernel:", counterexample.kernel_values);
  return text;
}

}  // namespace rlc::proofs
