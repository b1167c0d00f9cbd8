#include "impl/base/cpus.h"

#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <thread>

namespace rlc {

unsigned CpusAvailable() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1u, static_cast<unsigned>(CPU_COUNT(&set)));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace rlc
