#include "impl/base/mutants.h"

#include <atomic>
#include <cstdlib>
#include <string>

namespace rlc::mutants {
namespace {

std::atomic<int>& Slot() {
  static std::atomic<int> slot{-1};  // -1: not read from the environment yet
  return slot;
}

}  // namespace

const std::vector<MutantInfo>& AllMutants() {
  static const std::vector<MutantInfo> all = {
#define RLC_MUTANT_INFO(id, name, what) {Mutant::id, name, what},
      RLC_MUTANT_LIST(RLC_MUTANT_INFO)
#undef RLC_MUTANT_INFO
  };
  return all;
}

std::optional<Mutant> MutantByName(std::string_view name) {
  for (const MutantInfo& m : AllMutants()) {
    if (name == m.name) return m.id;
  }
  return std::nullopt;
}

bool Compiled() {
#if defined(RLC_MUTANTS)
  return true;
#else
  return false;
#endif
}

bool InKernel(Mutant m) {
  switch (m) {
    case Mutant::kDataSkippingGeOffByOne:
    case Mutant::kDataSkippingOrFirstDisjunct:
    case Mutant::kDataSkippingNullsIgnored:
    case Mutant::kExactTierDeletedRows:
    case Mutant::kOneBOutrightRemoveIgnored:
    case Mutant::kCase2NoOverlapTest:
    case Mutant::kCase2LoserDvOnly:
    case Mutant::kCase2WinnerDvOnly:
    case Mutant::kRemapRankOffByOne:
    case Mutant::kRemapIgnoresCompactedDv:
    case Mutant::kReverseRemapNoH1:
      return true;
    default:
      return false;
  }
}

void Select(Mutant m) { Slot().store(static_cast<int>(m), std::memory_order_relaxed); }

Mutant Selected() {
  int v = Slot().load(std::memory_order_relaxed);
  if (v < 0) {
    const char* env = std::getenv("RLC_MUTANT");
    const std::optional<Mutant> m = env == nullptr ? std::nullopt : MutantByName(env);
    v = static_cast<int>(m.value_or(Mutant::kNone));
    Slot().store(v, std::memory_order_relaxed);
  }
  return static_cast<Mutant>(v);
}

}  // namespace rlc::mutants
