// CpusAvailable: how many CPUs the calling thread may run on.
//
// Concern: the few places that put work on a second thread (a large winner's two halves, the
// freeing of a large winner's summary) do so only where a second CPU is free. The answer is the
// thread's affinity, which `taskset` and containers narrow, not the machine's count.
//
// Thread-safety: a pure query.
#ifndef RLC_IMPL_BASE_CPUS_H_
#define RLC_IMPL_BASE_CPUS_H_

namespace rlc {

// At least 1.
unsigned CpusAvailable();

}  // namespace rlc

#endif  // RLC_IMPL_BASE_CPUS_H_
