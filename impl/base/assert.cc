#include "impl/base/assert.h"

#include <cstdio>
#include <cstdlib>

namespace rlc::internal {

void AssertFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "rlc: assertion failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

}  // namespace rlc::internal
