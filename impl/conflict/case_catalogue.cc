#include "impl/conflict/case_catalogue.h"

namespace rlc::conflict {

std::vector<MutantEntry> AllMutants() {
  std::vector<MutantEntry> all;
  for (const CaseEntry& c : kCases) all.insert(all.end(), c.mutants.begin(), c.mutants.end());
  all.insert(all.end(), std::begin(kCheckerMutants), std::end(kCheckerMutants));
  return all;
}

const MutantEntry* FindMutant(std::string_view name) {
  for (const CaseEntry& c : kCases) {
    for (const MutantEntry& m : c.mutants) {
      if (m.name == name) return &m;
    }
  }
  for (const MutantEntry& m : kCheckerMutants) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

}  // namespace rlc::conflict
