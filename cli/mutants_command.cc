#include "cli/mutants_command.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
#include "impl/base/mutants.h"
#include "impl/conflict/case_catalogue.h"

namespace rlc::cli {
namespace {

// How a mutant's campaign ended: found by a counterexample of the cases ("yes"), or by a history
// the explorer files as Delta's own anomaly reached by a case carrying a loser ("guard": the
// guards of WriteSerializable's blind appends promise none) which the tree without the mutant
// runs clean, so that the history tells the mutant from the tree; or not found ("NO").
struct Finding {
  const char* how = "NO";
  double seconds = 0;
  std::string scenario;
};

// REQUIRES: no mutant selected (the guard findings are re-run on the tree).
Finding Judge(const explorer::Summary& s, std::ostream& err) {
  if (!s.counterexamples.empty())
    return {"yes", s.counterexamples.front().seconds_to_find, s.counterexamples.front().scenario};
  for (const explorer::Counterexample& e : s.case_reached_examples) {
    const std::string name = "history-" + std::to_string(e.history);
    Result<scenario::Scenario> parsed = scenario::ParseScenario(e.scenario, name);
    Result<explorer::ViolationOwner> tree = parsed.ok()
                                                ? explorer::ClassifyHistory(*parsed)
                                                : Result<explorer::ViolationOwner>(parsed.status());
    if (tree.ok() && *tree == explorer::ViolationOwner::kNone)
      return {"guard", e.seconds_to_find, e.scenario};
    err << "rlc mutants: " << name << " was reached by a case, and the tree without the mutant "
        << (tree.ok() ? "rejects it too" : "cannot run it: " + tree.status().ToString()) << "\n";
  }
  return {"NO", s.seconds, ""};
}

}  // namespace

int RunMutants(const MutantsCommand& c, std::ostream& out, std::ostream& err) {
  if (!mutants::Compiled()) {
    err << "rlc mutants: this build carries no mutants; configure one with -DRLC_MUTANTS=ON\n";
    return 2;
  }
  std::vector<conflict::MutantEntry> chosen;
  for (const std::string& name : c.only) {
    if (conflict::FindMutant(name) == nullptr) {
      err << "rlc mutants: no mutant named '" << name << "'\n";
      return 2;
    }
  }
  for (const conflict::MutantEntry& m : conflict::AllMutants()) {
    if (c.only.empty() || std::find(c.only.begin(), c.only.end(), m.name) != c.only.end())
      chosen.push_back(m);
  }
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int missed = 0;
  if (!c.json)
    out << "mutant                               found  seconds  histories  what it breaks\n";
  for (const conflict::MutantEntry& m : chosen) {
    mutants::Select(m.name);
    explorer::ExploreOptions o;
    o.seconds = c.seconds_each;
    o.seed = c.seed;
    o.jobs = c.jobs;
    o.stop_at_first = true;
    o.stop_at_case_reached = true;
    o.determinism_sample = 0;
    Result<explorer::Summary> s = explorer::Explore(o);
    mutants::Select("");
    if (!s.ok()) {
      err << "rlc mutants: " << m.name << ": " << s.status().ToString() << "\n";
      return 2;
    }
    const Finding f = Judge(*s, err);
    const bool found = !f.scenario.empty();
    missed += found ? 0 : 1;
    if (c.json) {
      nlohmann::ordered_json row = {
          {"mutant", m.name},          {"found", found}, {"how", f.how}, {"seconds", f.seconds},
          {"histories", s->histories}, {"what", m.what}};
      if (found) row["counterexample"] = f.scenario;
      rows.push_back(row);
    } else {
      char line[160];
      std::snprintf(line, sizeof line, "%-36s %-6s %7.2f  %9lld  ", std::string(m.name).c_str(),
                    f.how, f.seconds, static_cast<long long>(s->histories));
      out << line << m.what << "\n";
    }
  }
  if (c.json) {
    out << nlohmann::ordered_json{{"seed", c.seed},
                                  {"secondsEach", c.seconds_each},
                                  {"mutants", rows}}
               .dump()
        << "\n";
  } else {
    out << (chosen.size() - static_cast<size_t>(missed)) << " of " << chosen.size()
        << " mutants found\n";
  }
  return missed == 0 ? 0 : 1;
}

}  // namespace rlc::cli
