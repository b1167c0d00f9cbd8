// CompositionCapture: what a compaction writer calls, while it writes one bin, so that its
// tombstones can record where each source's rows landed (docs/cases.md#c-4-capture,
// docs/formats.md#d).
//
// Concern: the writer reports the rows it actually wrote, in write order, by the source each row
// came from (ObserveRows; consecutive rows of one source fold into one run), not what it planned.
// Finish checks the gate of kernel/capture.h (one output, one task, no ZORDER/CLUSTER BY, every
// source with statistics, exactly one run per source, each run as long as its source's live rows)
// and returns the tombstones: a dataChange=false "remove from" each source's add, tagged with
// compactedInto / compactionInfo (delta/composition_tags.h) when the gate passes and capture is
// on, untagged otherwise (then a later conflict aborts, as Delta's does). Sources are matched by
// decoded path; a row from an unknown source fails the gate.
//
// Capture is on when the compaction's transaction has the forward or the reverse flag
// (docs/decisions.md#names: the OPTIMIZE's own flags decide).
//
// Thread-safety: one writer, one thread.
#ifndef RLC_IMPL_CONFLICT_COMPOSITION_CAPTURE_H_
#define RLC_IMPL_CONFLICT_COMPOSITION_CAPTURE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "impl/conflict/flags.h"
#include "impl/delta/actions.h"

namespace rlc::conflict {

class CompositionCapture {
 public:
  // The bin's source files, as active when the compaction read them (their DVs included).
  explicit CompositionCapture(std::vector<delta::AddFile> sources);

  // `rows` consecutive rows written from the source at `source_path` (as written in the log).
  void ObserveRows(std::string_view source_path, int64_t rows);

  struct Outcome {
    std::vector<delta::RemoveFile> tombstones;  // one per source, in the constructor's order
    bool tagged = false;
    std::string why_untagged;  // empty when tagged
  };
  // `outputs`: the output adds' paths (the gate wants exactly one); `tasks`: how many tasks wrote
  // the bin; `multi_dimensional`: ZORDER BY or CLUSTER BY.
  Outcome Finish(const Flags& compaction_flags, const std::vector<std::string>& outputs, int tasks,
                 bool multi_dimensional, int64_t deletion_timestamp_ms) const;

 private:
  struct Run {
    int source = -1;  // index into sources_, -1 when unknown
    int64_t rows = 0;
  };
  std::vector<delta::AddFile> sources_;
  std::map<std::string, int> source_index_;  // decoded path -> index into sources_
  std::vector<Run> runs_;
};

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_COMPOSITION_CAPTURE_H_
