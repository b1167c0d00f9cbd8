#include "proofs/obligations.h"

#include <map>
#include <string>
#include <utility>

namespace rlc::proofs {

namespace {

// The tables by name, filled as each file's table is constructed (before main runs).
std::map<std::string, std::vector<RegisteredObligation>>& Tables() {
  static std::map<std::string, std::vector<RegisteredObligation>> tables;
  return tables;
}

}  // namespace

ObligationTable::ObligationTable(std::string_view name, std::vector<RegisteredObligation> entries) {
  std::vector<RegisteredObligation>& table = Tables()[std::string(name)];
  table.insert(table.end(), entries.begin(), entries.end());
}

const std::vector<RegisteredObligation>& AllObligations() {
  static const std::vector<RegisteredObligation> all = [] {
    std::vector<RegisteredObligation> out;
    for (const auto& [name, table] : Tables()) out.insert(out.end(), table.begin(), table.end());
    return out;
  }();
  return all;
}

std::string BoundText(int universe, Layout layout) {
  const std::string rows = "rows 0.." + std::to_string(universe - 1);
  switch (layout) {
    case Layout::kRows:
      return universe == kNoRows ? "unbounded" : rows;
    case Layout::kSourceRowsEveryOutputRow:
      return "source " + rows + ", every output row";
    case Layout::kThreeSourcesEveryOutputRow:
      return "3 sources x " + rows + ", every output row";
    case Layout::kChildren:
      return "3 children or items";
  }
  return rows;
}

ObligationRun RunObligation(const RegisteredObligation& entry) {
  z3::context context;
  const Z3Domain domain(context, entry.universe);
  const Obligation obligation = entry.build(domain);
  ProofResult result = Check(obligation, entry.timeout_ms);
  const bool met = MetExpectation(obligation, result);
  return {obligation.expectation, obligation.statement, std::move(result), met};
}

}  // namespace rlc::proofs
