// The tiling check (docs/decisions.md#composition-tags): before any remap onto an output,
// the runs of all sources compacted into it must tile it exactly.
//
// Concern: each source's tags give a run [start, start + live) with live =
// sourceNumPhysicalRecords - |tombstone DV|. The runs tile the output's numRecords rows when every
// run lies inside [0, output_rows), no two runs overlap, and their lengths sum to output_rows;
// together these say the runs are contiguous from 0 with no gap and no overlap, whatever order the
// tags came in (no sorting, so the check stays a formula a proof can state). An empty run (a source
// with no live row) overlaps nothing and covers nothing; the capture gate never writes one.
//
// Written over a ValueDomain (value_domain.h); the number of runs is shape.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_TILING_H_
#define RLC_IMPL_KERNEL_TILING_H_

#include <vector>

#include "impl/kernel/remap.h"
#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
typename D::Bool RunsTileOutput(const D& d, const std::vector<SourceRun<D>>& runs,
                                const typename D::Int& output_rows) {
  typename D::Bool ok = d.True();
  typename D::Int total = d.Const(0);
  for (const SourceRun<D>& r : runs) {
    ok = d.And(ok, d.And(d.Le(d.Const(0), r.start), d.Le(d.Const(0), r.live)));
    ok = d.And(ok, d.Le(d.Add(r.start, r.live), output_rows));
    total = d.Add(total, r.live);
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    for (size_t j = i + 1; j < runs.size(); ++j) {
      const typename D::Bool i_first = d.Le(d.Add(runs[i].start, runs[i].live), runs[j].start);
      const typename D::Bool j_first = d.Le(d.Add(runs[j].start, runs[j].live), runs[i].start);
      ok = d.And(ok, d.Or(i_first, j_first));
    }
  }
  return d.And(ok, d.Eq(total, output_rows));
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_TILING_H_
