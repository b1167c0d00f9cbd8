#include "proofs/catalogue.h"

#include "proofs/obligations.h"

namespace rlc::proofs {

std::vector<ObligationOutcome> ProveObligations(const std::string& name_prefix) {
  std::vector<ObligationOutcome> out;
  for (const RegisteredObligation& entry : AllObligations()) {
    // The name is known only once built; building is cheap next to solving.
    z3::context probe_context;
    const std::string name = entry.build(Z3Domain(probe_context, entry.universe)).name;
    if (name.rfind(name_prefix, 0) != 0) continue;
    const ObligationRun run = RunObligation(entry);
    ObligationOutcome o;
    o.name = name;
    o.statement = run.statement;
    o.solver_ms = run.result.solver_ms;
    o.bound = entry.universe == kNoRows ? "unbounded" : "rows 0.." + std::to_string(entry.universe - 1);
    o.counterexample = run.result.counterexample;
    // A value prints as "name = text": the table keeps the text.
    auto pairs = [](const std::vector<DecodedValue>& values) {
      std::vector<std::pair<std::string, std::string>> out;
      for (const DecodedValue& v : values) out.emplace_back(v.name, PrintValue(v).substr(v.name.size() + 3));
      return out;
    };
    o.inputs = pairs(run.result.decoded.inputs);
    o.kernel_values = pairs(run.result.decoded.kernel_values);
    const bool must_hold = run.expectation == Expectation::kValid;
    switch (run.result.verdict) {
      case Verdict::kProved: o.result = must_hold ? (entry.universe == kNoRows ? "proved" : "bounded-proved") : "vacuous"; break;
      case Verdict::kRefuted: o.result = must_hold ? "refuted" : "expected-refutation"; break;
      case Verdict::kUnknown: o.result = "unknown"; o.counterexample = run.result.reason; break;
    }
    o.ok = run.met;
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace rlc::proofs
