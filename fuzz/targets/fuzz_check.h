// FUZZ_CHECK: the fuzz targets' assertion.
//
// Concern: a property that must hold for every input (a round trip, an agreement between two
// decoders) stops the fuzzer with the failed condition and its place. It is on in every build,
// independent of NDEBUG and of RLC_ASSERT, so a finding is never compiled away.
//
// Thread-safety: stateless.
#ifndef RLC_FUZZ_TARGETS_FUZZ_CHECK_H_
#define RLC_FUZZ_TARGETS_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                  \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__); \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)

#endif  // RLC_FUZZ_TARGETS_FUZZ_CHECK_H_
