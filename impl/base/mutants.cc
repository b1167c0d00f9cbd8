#include "impl/base/mutants.h"

#include <array>
#include <atomic>
#include <cstdlib>

namespace rlc::mutants {
namespace {

// The selected name, copied (a caller's name need not outlive the selection).
struct Selection {
  std::array<char, kMaxNameLength> name{};
  std::atomic<int> length{-1};  // -1: not read from the environment yet
};

Selection& Slot() {
  static Selection slot;
  return slot;
}

void Store(std::string_view name) {
  Selection& s = Slot();
  if (name.size() > kMaxNameLength) name = {};
  name.copy(s.name.data(), name.size());
  s.length.store(static_cast<int>(name.size()), std::memory_order_release);
}

}  // namespace

bool Compiled() {
#if defined(RLC_MUTANTS)
  return true;
#else
  return false;
#endif
}

void Select(std::string_view name) { Store(name); }

std::string_view Selected() {
  Selection& s = Slot();
  int length = s.length.load(std::memory_order_acquire);
  if (length < 0) {
    const char* env = std::getenv("RLC_MUTANT");
    Store(env == nullptr ? std::string_view() : std::string_view(env));
    length = s.length.load(std::memory_order_acquire);
  }
  return std::string_view(s.name.data(), static_cast<size_t>(length));
}

bool IsSelected(std::string_view name) { return Selected() == name; }

}  // namespace rlc::mutants
