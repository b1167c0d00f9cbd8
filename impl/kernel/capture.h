// Case 4's capture gate: may a compaction record where each source's rows landed?
// (docs/cases.md#c-4-capture, docs/formats.md#d; docs/decisions.md#composition-tags.)
//
// Concern: the compaction writer reports the runs it observed in the row stream it wrote (not its
// plan): consecutive rows from one source fold into one run (source, rows). The gate passes only
// when, stronger than the reference's sum test,
//   1. the bin was written by one task into one output, and it is not a multi-dimensional
//      clustering (ZORDER, CLUSTER BY);
//   2. every bin source has a known live-row count, the runs name each bin source exactly once
//      (one run per source, no unknown source), and
//   3. each run's length equals its source's live-row count (so the sum matches too).
// On success each source's tags follow: rowOffsetInTarget = the rows of all runs before its run
// (write order), sourceNumPhysicalRecords = its run's rows + its read-time DV's cardinality.
// On failure every tombstone stays untagged (the later conflict then aborts, as Delta does).
//
// Written over a ValueDomain (value_domain.h); sources are numbered by the caller (shape).
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_KERNEL_CAPTURE_H_
#define RLC_IMPL_KERNEL_CAPTURE_H_

#include <optional>
#include <vector>

#include "impl/kernel/value_domain.h"

namespace rlc::kernel {

template <ValueDomain D>
struct BinSource {
  std::optional<typename D::Int> live_rows;  // numRecords - |read-time DV|; nullopt: unknown
  typename D::Int dv_cardinality;            // |read-time DV|
};

template <ValueDomain D>
struct ObservedRun {
  int source = -1;  // index into the bin; -1: a row whose source could not be mapped
  typename D::Int rows;
};

struct CaptureShape {
  int outputs = 0;
  int tasks = 0;
  bool multi_dimensional = false;  // ZORDER BY or CLUSTER BY
};

template <ValueDomain D>
struct CaptureTags {
  typename D::Bool ok;
  std::vector<typename D::Int> row_offset;  // per bin source
  std::vector<typename D::Int> source_physical_rows;
};

template <ValueDomain D>
CaptureTags<D> CheckCapture(const D& d, const CaptureShape& shape,
                            const std::vector<BinSource<D>>& bin,
                            const std::vector<ObservedRun<D>>& runs) {
  CaptureTags<D> tags{d.False(), {}, {}};
  if (shape.outputs != 1 || shape.tasks != 1 || shape.multi_dimensional) return tags;
  if (bin.empty() || runs.size() != bin.size()) return tags;
  std::vector<bool> seen(bin.size(), false);
  for (const ObservedRun<D>& r : runs) {
    if (r.source < 0 || static_cast<size_t>(r.source) >= bin.size() || seen[r.source]) return tags;
    if (!bin[r.source].live_rows.has_value()) return tags;
    seen[r.source] = true;
  }
  typename D::Bool ok = d.True();
  typename D::Int offset = d.Const(0);
  tags.row_offset.assign(bin.size(), d.Const(0));
  tags.source_physical_rows.assign(bin.size(), d.Const(0));
  for (const ObservedRun<D>& r : runs) {
    const BinSource<D>& source = bin[r.source];
    ok = d.And(ok, d.And(d.Lt(d.Const(0), r.rows), d.Eq(r.rows, *source.live_rows)));
    tags.row_offset[r.source] = offset;
    tags.source_physical_rows[r.source] = d.Add(r.rows, source.dv_cardinality);
    offset = d.Add(offset, r.rows);
  }
  tags.ok = ok;
  return tags;
}

}  // namespace rlc::kernel

#endif  // RLC_IMPL_KERNEL_CAPTURE_H_
