#include "cli/prove.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/junit.h"
#include "impl/base/mutants.h"
#include "impl/conflict/case_catalogue.h"
#include "proofs/catalogue.h"

namespace rlc::cli {
namespace {

bool WriteJunit(const std::string& file, const std::vector<proofs::ObligationOutcome>& outcomes,
                double seconds) {
  std::vector<JunitCase> cases;
  for (const auto& o : outcomes) {
    cases.push_back({"proofs", o.name, o.solver_ms / 1000, o.ok, o.result,
                     o.statement + "\n" + o.counterexample,
                     o.result + " (" + o.bound + "): " + o.statement});
  }
  std::ofstream out(file);
  out << JunitXml("rlc prove", cases, seconds);
  return static_cast<bool>(out);
}

// --mutants: which obligations refute each kernel mutant (exit 1 when one refutes none).
int RunProveMutants(const ProveCommand& c, std::ostream& out, std::ostream& err) {
  if (!mutants::Compiled()) {
    err << "rlc prove --mutants: this build carries no mutants; configure one with "
           "-DRLC_MUTANTS=ON\n";
    return 2;
  }
  int unrefuted = 0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const conflict::MutantEntry& m : conflict::AllMutants()) {
    if (!m.in_kernel) continue;
    mutants::Select(m.name);
    const std::vector<proofs::ObligationOutcome> outcomes =
        proofs::ProveObligations(c.case_prefix, c.jobs);
    mutants::Select("");
    std::vector<const proofs::ObligationOutcome*> refuting;
    for (const auto& o : outcomes) {
      if (o.result == "refuted") refuting.push_back(&o);
    }
    unrefuted += refuting.empty() ? 1 : 0;
    if (c.json) {
      nlohmann::ordered_json names = nlohmann::ordered_json::array();
      for (const auto* o : refuting)
        names.push_back({{"obligation", o->name}, {"counterexample", o->counterexample}});
      rows.push_back({{"mutant", m.name}, {"refutedBy", names}});
      continue;
    }
    out << m.name << ": " << (refuting.empty() ? "NOT REFUTED" : "refuted by") << "\n";
    for (const auto* o : refuting) {
      out << "  " << o->name << "\n";
      for (size_t start = 0; start < o->counterexample.size();) {
        const size_t end = o->counterexample.find('\n', start);
        out << "    " << o->counterexample.substr(start, end - start) << "\n";
        start = end == std::string::npos ? o->counterexample.size() : end + 1;
      }
    }
  }
  if (c.json) out << nlohmann::ordered_json{{"kernelMutants", rows}}.dump() << "\n";
  return unrefuted == 0 ? 0 : 1;
}

void PrintOutcomes(const std::vector<proofs::ObligationOutcome>& outcomes, int failed,
                   double seconds, bool json, std::ostream& out) {
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& o : outcomes) {
      list.push_back({{"name", o.name},
                      {"result", o.result},
                      {"bound", o.bound},
                      {"ms", o.solver_ms},
                      {"statement", o.statement},
                      {"ok", o.ok},
                      {"counterexample", o.counterexample}});
    }
    out << nlohmann::ordered_json{{"obligations", list}, {"failed", failed}, {"seconds", seconds}}
               .dump()
        << "\n";
    return;
  }
  for (const auto& o : outcomes) {
    char line[256];
    std::snprintf(line, sizeof line, "%-44s %-20s %9.1f ms  %s", o.name.c_str(), o.result.c_str(),
                  o.solver_ms, o.bound.c_str());
    out << line << "\n    " << o.statement << "\n";
    if (!o.ok && !o.counterexample.empty()) out << o.counterexample << "\n";
  }
  out << outcomes.size() << " obligations, " << failed << " not as expected, " << seconds << " s\n";
}

}  // namespace

int RunProve(const ProveCommand& c, std::ostream& out, std::ostream& err) {
  if (c.mutants) return RunProveMutants(c, out, err);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<proofs::ObligationOutcome> outcomes =
      proofs::ProveObligations(c.case_prefix, c.jobs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcomes.empty()) {
    err << "rlc prove: no obligation's name starts with '" << c.case_prefix << "'\n";
    return 2;
  }
  int failed = 0;
  for (const auto& o : outcomes) failed += o.ok ? 0 : 1;
  if (!c.junit_file.empty() && !WriteJunit(c.junit_file, outcomes, seconds)) {
    err << "rlc prove: " << c.junit_file << ": cannot write\n";
    return 2;
  }
  PrintOutcomes(outcomes, failed, seconds, c.json, out);
  return failed == 0 ? 0 : 1;
}

}  // namespace rlc::cli
