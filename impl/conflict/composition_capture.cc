#include "impl/conflict/composition_capture.h"

#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/conflict/rewrite_inputs.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/stats.h"
#include "impl/kernel/capture.h"

namespace rlc::conflict {

CompositionCapture::CompositionCapture(std::vector<delta::AddFile> sources)
    : sources_(std::move(sources)) {
  for (size_t i = 0; i < sources_.size(); ++i)
    source_index_[DecodedPath(sources_[i].path)] = static_cast<int>(i);
}

void CompositionCapture::ObserveRows(std::string_view source_path, int64_t rows) {
  if (rows <= 0) return;
  const auto it = source_index_.find(DecodedPath(std::string(source_path)));
  const int source = it == source_index_.end() ? -1 : it->second;
  if (RLC_MUTANT(
          "capture-records-plan")) {  // one run per source, in the order sources first appear
    for (Run& run : runs_) {
      if (run.source == source) {
        run.rows += rows;
        return;
      }
    }
  }
  if (!runs_.empty() && runs_.back().source == source) {
    runs_.back().rows += rows;
  } else {
    runs_.push_back({source, rows});
  }
}

CompositionCapture::Outcome CompositionCapture::Finish(const Flags& compaction_flags,
                                                       const std::vector<std::string>& outputs,
                                                       int tasks, bool multi_dimensional,
                                                       int64_t deletion_timestamp_ms) const {
  Outcome out;
  for (const delta::AddFile& s : sources_)
    out.tombstones.push_back(RemoveFrom(s, deletion_timestamp_ms, false));
  if (!compaction_flags.On(CaseId::kOptimizeReconcile) &&
      !compaction_flags.On(CaseId::kOptimizeReconcileReverse)) {
    out.why_untagged = "capture is off (neither optimize.conflictReconciliation flag is set)";
    return out;
  }
  using Domain = ConcreteDomain;
  std::vector<kernel::BinSource<Domain>> bin;
  for (const delta::AddFile& s : sources_) {
    kernel::BinSource<Domain> b;
    b.dv_cardinality = s.deletion_vector.has_value() ? s.deletion_vector->cardinality : 0;
    if (s.stats.has_value()) {
      Result<std::optional<int64_t>> n = delta::ParseNumRecords(*s.stats);
      if (n.ok() && n->has_value()) b.live_rows = Int128(**n) - b.dv_cardinality;
    }
    bin.push_back(b);
  }
  std::vector<kernel::ObservedRun<Domain>> runs;
  for (const Run& r : runs_) runs.push_back({r.source, r.rows});
  const kernel::CaptureShape shape{static_cast<int>(outputs.size()), tasks, multi_dimensional};
  const kernel::CaptureTags<Domain> tags = kernel::CheckCapture(Domain{}, shape, bin, runs);
  if (!tags.ok) {
    out.why_untagged = "the capture gate failed: " + std::to_string(outputs.size()) +
                       " output(s), " + std::to_string(tasks) + " task(s), " +
                       std::to_string(runs_.size()) + " run(s) for " +
                       std::to_string(sources_.size()) + " source(s)" +
                       (multi_dimensional ? ", a multi-dimensional clustering" : "");
    return out;
  }
  for (size_t i = 0; i < sources_.size(); ++i) {
    delta::CompositionTag tag;
    tag.output_path = outputs[0];
    tag.row_offset_in_target = static_cast<int64_t>(tags.row_offset[i]);
    tag.source_num_physical_records = static_cast<int64_t>(tags.source_physical_rows[i]);
    delta::StringMap map = out.tombstones[i].tags.value_or(delta::StringMap{});
    delta::WriteCompositionTags(tag, &map);
    out.tombstones[i].tags = std::move(map);
  }
  out.tagged = true;
  return out;
}

}  // namespace rlc::conflict
