#include "proofs/catalogue.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "proofs/obligations.h"

namespace rlc::proofs {

namespace {

using Clock = std::chrono::steady_clock;

ObligationOutcome NotRun(const std::string& name) {
  ObligationOutcome o;
  o.name = name;
  o.result = "not-run";
  o.ran = false;
  return o;
}

ObligationOutcome Outcome(RegisteredObligation entry, const std::string& name,
                          Clock::time_point deadline) {
  bool capped = false;  // the solver's time cut to the deadline
  if (deadline != Clock::time_point::max()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return NotRun(name);
    if (static_cast<unsigned>(left) < entry.timeout_ms) {
      entry.timeout_ms = static_cast<unsigned>(left);
      capped = true;
    }
  }
  const ObligationRun run = RunObligation(entry);
  if (capped && run.result.verdict == Verdict::kUnknown) return NotRun(name);
  ObligationOutcome o;
  o.name = name;
  o.statement = run.statement;
  o.solver_ms = run.result.solver_ms;
  o.bound = BoundText(entry.universe, entry.layout);
  o.counterexample = run.result.counterexample;
  // A value prints as "name = text": the table keeps the text.
  auto pairs = [](const std::vector<DecodedValue>& values) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const DecodedValue& v : values)
      out.emplace_back(v.name, PrintValue(v).substr(v.name.size() + 3));
    return out;
  };
  o.inputs = pairs(run.result.decoded.inputs);
  o.kernel_values = pairs(run.result.decoded.kernel_values);
  const bool must_hold = run.expectation == Expectation::kValid;
  switch (run.result.verdict) {
    case Verdict::kProved:
      o.result = must_hold ? (o.bound == "unbounded" ? "proved" : "bounded-proved") : "vacuous";
      break;
    case Verdict::kRefuted:
      o.result = must_hold ? "refuted" : "expected-refutation";
      break;
    case Verdict::kUnknown:
      o.result = "unknown";
      o.counterexample = run.result.reason;
      break;
  }
  o.ok = run.met;
  return o;
}

}  // namespace

std::vector<std::string> ObligationNames() {
  std::vector<std::string> names;
  for (const RegisteredObligation& entry : AllObligations()) {
    // The name is known only once built; it does not depend on the universe, so a small one
    // makes the probe cheap (building over 64 rows takes a while for the remap claims).
    z3::context probe_context;
    names.push_back(entry.build(Z3Domain(probe_context, std::min(entry.universe, 4))).name);
  }
  return names;
}

std::vector<ObligationOutcome> ProveObligations(const std::string& name_prefix, int jobs,
                                                Clock::time_point deadline) {
  std::vector<const RegisteredObligation*> chosen;
  std::vector<std::string> names;
  const std::vector<std::string> all_names = ObligationNames();
  for (size_t i = 0; i < all_names.size(); ++i) {
    if (all_names[i].rfind(name_prefix, 0) != 0) continue;
    chosen.push_back(&AllObligations()[i]);
    names.push_back(all_names[i]);
  }
  // Each obligation has its own z3::context, so workers share nothing but the queue. The biggest
  // universes go first (they take longest), so that no worker starts one last; the results keep
  // the registry's order.
  std::vector<size_t> order(chosen.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return chosen[a]->universe > chosen[b]->universe; });
  std::vector<ObligationOutcome> out(chosen.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k = next++; k < order.size(); k = next++)
      out[order[k]] = Outcome(*chosen[order[k]], names[order[k]], deadline);
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < jobs; ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();
  return out;
}

}  // namespace rlc::proofs
