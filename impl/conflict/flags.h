// Flags: the loser's settings that switch the reconcile cases on (all default off).
//
// Concern: the names, as Delta spells them (docs/decisions.md#names): each flag is keyed
// `spark.databricks.delta.<name>`, and the short `<name>` is accepted as an alias. Flags belong
// to a transaction: the loser's flags decide which cases run in its conflict check.
//
// Thread-safety: plain value.
#ifndef RLC_IMPL_CONFLICT_FLAGS_H_
#define RLC_IMPL_CONFLICT_FLAGS_H_

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"

namespace rlc::conflict {

inline constexpr std::string_view kFlagPrefix = "spark.databricks.delta.";

// Short names (without the prefix).
inline constexpr std::string_view kRowLevelConcurrencyFlag = "rowLevelConcurrency.enabled";
inline constexpr std::string_view kExcludeNoDataChangeFlag =
    "conflictDetection.excludeNoDataChangeFiles.enabled";
inline constexpr std::string_view kDataSkippingFlag = "conflictDetection.dataSkipping.enabled";
inline constexpr std::string_view kValueExactFlag =
    "conflictDetection.dataSkipping.valueExact.enabled";
inline constexpr std::string_view kValueExactMaxBytesFlag =
    "conflictDetection.dataSkipping.valueExact.maxBytes";
inline constexpr std::string_view kOptimizeReconcileFlag =
    "optimize.conflictReconciliation.enabled";
inline constexpr std::string_view kOptimizeReconcileReverseFlag =
    "optimize.conflictReconciliation.reverse.enabled";

// A case of the catalogue; its value is the case's row (impl/conflict/case_catalogue.h, which
// names them). Declared opaque here so that a new case is a row there and nothing here.
enum class CaseId : uint8_t;
inline constexpr size_t kMaxCases = 32;

struct Flags {
  std::bitset<kMaxCases> cases;                      // bit i: the catalogue's i-th case on
  int64_t value_exact_max_bytes = int64_t{1} << 30;  // <= 0: unbounded (Case 1 exact tier)

  bool On(CaseId c) const { return cases.test(static_cast<size_t>(c)); }
  Flags& SetCase(CaseId c, bool on) {
    cases.set(static_cast<size_t>(c), on);
    return *this;
  }

  bool AnyOn() const;
  bool EveryOn() const;  // every case of the catalogue on

  // Every case on (maxBytes at its default): what "all" means in a scenario and a race.
  static Flags Every();
  // Bit i of `bits` switches the catalogue's i-th case (impl/conflict/case_catalogue.h).
  static Flags Subset(uint64_t bits);

  // Sets one flag from "name" (full or short) and a value ("true"/"false", or an integer for
  // maxBytes). Unknown names and bad values are kInvalidArgument naming the flag.
  Status Set(std::string_view name, std::string_view value);
  // "name=value", as given on the command line.
  Status SetFromAssignment(std::string_view assignment);

  // Every flag as "spark.databricks.delta.<name>=<value>", for reports and replay commands.
  std::vector<std::string> ToAssignments() const;
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_FLAGS_H_
