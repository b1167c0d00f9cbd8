// RLC_ASSERT: programmer errors, checked in every build.
//
// Concern: a broken internal invariant stops the process with the failed condition and its place.
// Bad input never reaches an assertion: decoders return a Status first (the fuzzers check that).
// One condition per assertion, so the message says exactly which one failed.
#ifndef RLC_IMPL_BASE_ASSERT_H_
#define RLC_IMPL_BASE_ASSERT_H_

namespace rlc::internal {
[[noreturn]] void AssertFailed(const char* condition, const char* file, int line);
}  // namespace rlc::internal

#define RLC_ASSERT(condition)                                                        \
  do {                                                                               \
    if (!(condition)) ::rlc::internal::AssertFailed(#condition, __FILE__, __LINE__); \
  } while (0)

#endif  // RLC_IMPL_BASE_ASSERT_H_
