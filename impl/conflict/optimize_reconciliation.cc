#include "impl/conflict/optimize_reconciliation.h"

#include <algorithm>

#include "impl/base/limits.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/stats.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/tiling.h"
#include "impl/base/mutants.h"

namespace rlc::conflict {
namespace {

using Domain = ConcreteDomain;

std::optional<int64_t> NumRecords(const std::optional<std::string>& stats) {
  if (!stats.has_value()) return std::nullopt;
  Result<std::optional<int64_t>> n = delta::ParseNumRecords(*stats);
  return n.ok() ? *n : std::nullopt;
}

std::optional<int64_t> NumRecords(const delta::AddFile& add) { return NumRecords(add.stats); }

bool SameDv(const std::optional<dv::DvDescriptor>& a, const std::optional<dv::DvDescriptor>& b) {
  return a.has_value() == b.has_value() && (!a.has_value() || a->UniqueId() == b->UniqueId());
}

kernel::SourceRun<Domain> RunOf(const CompactedSource& s) { return {s.start, s.live}; }

// Every physical row of a compacted source: what a removal of the whole file deletes.
dv::RowBitmap EveryRow(const CompactedSource& s) {
  dv::RowBitmap rows;
  const int64_t physical = s.live + static_cast<int64_t>(s.compacted.Cardinality());
  if (physical > 0) rows.AddRange(0, static_cast<uint64_t>(physical));
  return rows;
}

// The remap of one source onto its output's accumulating DV.
bool Remap(const CompactedSource& source, int64_t output_rows, const dv::RowBitmap& before,
           const dv::RowBitmap& after, dv::RowBitmap& output_dv) {
  return kernel::RemapOntoOutput(Domain{}, RunOf(source), Int128(output_rows), static_cast<int64_t>(kRowIndexMax),
                                 source.compacted, before, after, output_dv);
}

Event RemapEvent(const char* name, const char* sources_key, const WinnerSummary& winner, size_t sources,
                 size_t outputs) {
  Event e;
  e.name = name;
  e.winner_version = winner.version;
  e.data = {{"winningCommitVersion", std::to_string(winner.version)},
            {sources_key, std::to_string(sources)},
            {"outputsRemapped", std::to_string(outputs)},
            {"winningOperation", winner.operation}};
  return e;
}

std::optional<delta::CommitInfo> CommitInfoOf(const std::vector<delta::Action>& actions) {
  for (const delta::Action& a : actions) {
    if (const auto* info = std::get_if<delta::CommitInfo>(&a)) return *info;
  }
  return std::nullopt;
}


// Whether each source's run in `output` holds the source's live rows, in order. True when some
// file has no row reader (then the counts are all there is).
bool RunsHoldTheirSources(const std::string& output, const std::vector<std::string>& paths,
                          const std::map<std::string, CompactedSource>& sources, const CompositionInputs& in) {
  if (in.files == nullptr || RLC_MUTANT(kTagsTrustedBeyondTiling)) return true;
  const std::vector<predicate::ColumnPath> columns = TableColumns(in.read_metadata);
  if (columns.empty()) return false;
  Result<std::vector<RowTuple>> written = ReadRows(*in.files, output, dv::RowBitmap(), columns);
  if (!written.ok()) return written.status().code() == StatusCode::kUnsupported;  // doubt: the output's rows unreadable
  for (const std::string& path : paths) {
    const CompactedSource& s = sources.at(path);
    Result<std::vector<RowTuple>> live = ReadRows(*in.files, path, s.compacted, columns);
    if (!live.ok()) return live.status().code() == StatusCode::kUnsupported;  // doubt: a source's rows unreadable
    if (static_cast<int64_t>(live->size()) != s.live || s.start < 0 ||  // doubt: a run holds other rows
        s.start + s.live > static_cast<int64_t>(written->size()) ||
        !std::equal(live->begin(), live->end(), written->begin() + s.start)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::map<std::string, CompactedSource> CompactedSources(const std::vector<const delta::RemoveFile*>& removes,
                                                        const std::map<std::string, const delta::AddFile*>& outputs,
                                                        const CompositionInputs& in) {
  std::map<std::string, CompactedSource> sources;
  std::set<std::string> broken_outputs;  // an output one of whose sources is unusable
  std::map<std::string, std::vector<std::string>> by_output;
  for (const delta::RemoveFile* r : removes) {
    if (!r->tags.has_value()) continue;  // doubt: an untagged tombstone
    const std::optional<delta::CompositionTag> tag = delta::ParseCompositionTags(*r->tags);
    if (!tag.has_value()) continue;  // doubt: malformed tags
    const std::string output = DecodedPath(tag->output_path);
    if (outputs.count(output) == 0) continue;  // doubt: tags naming no output of the commit
    const std::optional<dv::RowBitmap> compacted = in.dvs.Load(r->deletion_vector);
    // The source as the table holds it: its physical rows are what the tag claims.
    const std::optional<TableView::Removed> source = in.view.RemovedFile(*r);
    const std::optional<int64_t> physical = source.has_value() ? NumRecords(source->stats) : std::nullopt;
    const bool miscounted = physical != tag->source_num_physical_records && !RLC_MUTANT(kTagsTrustedBeyondTiling);
    if (!compacted.has_value() || miscounted) {  // doubt: a count the table refutes
      broken_outputs.insert(output);
      continue;
    }
    CompactedSource s;
    s.output = output;
    s.start = tag->row_offset_in_target;
    s.live = tag->source_num_physical_records - static_cast<int64_t>(compacted->Cardinality());
    s.compacted = *compacted;
    const std::string path = DecodedPath(r->path);
    by_output[output].push_back(path);
    sources[path] = std::move(s);
  }
  // Every output must be tiled by its tagged sources (a source without tags leaves a gap), and
  // hold their rows where they can be read.
  for (const auto& [output, paths] : by_output) {
    const std::optional<int64_t> rows = NumRecords(outputs.at(output)->stats);
    std::vector<kernel::SourceRun<Domain>> runs;
    for (const std::string& p : paths) runs.push_back(RunOf(sources.at(p)));
    const bool tiled = broken_outputs.count(output) == 0 && rows.has_value() &&
                       kernel::RunsTileOutput(Domain{}, runs, Int128(*rows)) &&
                       RunsHoldTheirSources(outputs.at(output)->path, paths, sources, in);
    if (!tiled) {  // doubt: runs that do not tile, or hold other rows
      for (const std::string& p : paths) sources.erase(p);
    }
  }
  return sources;
}

void ResolveOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in, PendingTransaction& loser,
                              std::set<std::string>& resolved, std::vector<Event>& events) {
  if (!DeletionVectorsWritable(in.read_metadata, in.read_protocol) || !in.dvs.can_write()) return;
  // The loser's own composition, read once from its original tombstones and kept across winners.
  std::map<std::string, size_t> loser_adds, loser_removes;
  for (size_t i = 0; i < loser.actions.size(); ++i) {
    if (const auto* a = std::get_if<delta::AddFile>(&loser.actions[i])) loser_adds[DecodedPath(a->path)] = i;
    if (const auto* r = std::get_if<delta::RemoveFile>(&loser.actions[i])) loser_removes[DecodedPath(r->path)] = i;
  }
  if (!in.composition.built) {
    in.composition.built = true;
    if (!IsMultiDimensionalClustering(CommitInfoOf(loser.actions))) {
      std::vector<const delta::RemoveFile*> removes;
      std::map<std::string, const delta::AddFile*> outputs;
      for (const auto& [path, i] : loser_removes) removes.push_back(&std::get<delta::RemoveFile>(loser.actions[i]));
      for (const auto& [path, i] : loser_adds) outputs[path] = &std::get<delta::AddFile>(loser.actions[i]);
      const TableView read_view(in.read_files);  // the OPTIMIZE's own sources: its read snapshot's
      in.composition.sources = CompactedSources(removes, outputs, {in.dvs, read_view, in.files, in.read_metadata});
    }
  }
  if (in.composition.sources.empty()) return;  // doubt: no usable composition
  // Shared: sources the winner updated by DV (an add with a DV of a path it removed), or removed
  // outright (nullptr: the winner re-adds no version of the path; every row the compaction carried
  // is then deleted, and the run says where they are).
  std::map<std::string, const delta::RemoveFile*> winner_removes;
  for (const delta::RemoveFile& r : winner.removed_files) winner_removes[DecodedPath(r.path)] = &r;
  std::map<std::string, const delta::AddFile*> shared;
  std::set<std::string> winner_adds;
  const auto compacted_by_loser = [&](const std::string& path) {
    return in.composition.sources.count(path) != 0 && loser_removes.count(path) != 0;
  };
  for (const delta::AddFile& a : winner.added_files) {
    const std::string path = DecodedPath(a.path);
    winner_adds.insert(path);
    if (a.deletion_vector.has_value() && winner_removes.count(path) != 0 && compacted_by_loser(path)) shared[path] = &a;
  }
  for (const auto& [path, remove] : winner_removes) {
    if (winner_adds.count(path) == 0 && compacted_by_loser(path)) shared[path] = nullptr;
  }
  if (shared.empty()) return;  // doubt: no compacted source the winner changed
  std::map<std::string, dv::RowBitmap> output_dvs, seeds;  // by output, seeded once from its DV
  for (const auto& [path, winner_add] : shared) {
    const CompactedSource& source = in.composition.sources.at(path);
    const auto& tombstone = std::get<delta::RemoveFile>(loser.actions[loser_removes.at(path)]);
    auto output_it = loser_adds.find(source.output);
    if (output_it == loser_adds.end()) return;  // invariant: the loser's outputs stay among its actions
    const auto& output = std::get<delta::AddFile>(loser.actions[output_it->second]);
    const std::optional<int64_t> output_rows = NumRecords(output);
    if (!output_rows || !SameDv(winner_removes.at(path)->deletion_vector, tombstone.deletion_vector)) return;  // doubt: other pre-images, or no row count
    if (output_dvs.count(source.output) == 0) {
      const std::optional<dv::RowBitmap> seed = in.dvs.Load(output.deletion_vector);
      if (!seed) return;
      output_dvs[source.output] = *seed;
      seeds[source.output] = *seed;
    }
    const std::optional<dv::RowBitmap> before = in.dvs.Load(tombstone.deletion_vector);
    const std::optional<dv::RowBitmap> after =
        winner_add != nullptr ? in.dvs.Load(winner_add->deletion_vector) : EveryRow(source);
    if (!before || !after || !Remap(source, *output_rows, *before, *after, output_dvs[source.output])) return;  // doubt: a DV unreadable, or a row outside its run
  }
  // Every shared source remapped: write the changed outputs' DVs, then rebuild the actions.
  std::map<size_t, delta::AddFile> rebuilt_outputs;
  for (const auto& [output, rows] : output_dvs) {
    if (rows == seeds.at(output)) continue;  // nothing new deleted there
    const std::optional<dv::DvDescriptor> written = in.dvs.Write(rows);
    if (!written) return;
    const size_t i = loser_adds.at(output);
    std::optional<delta::AddFile> add = WithDeletionVector(std::get<delta::AddFile>(loser.actions[i]), *written);
    if (!add) return;
    rebuilt_outputs[i] = std::move(*add);
  }
  if (RLC_MUTANT(kForwardRemapDropsOutputDv)) rebuilt_outputs.clear();
  for (auto& [i, add] : rebuilt_outputs) loser.actions[i] = std::move(add);
  std::set<std::string> sources, outputs_rebuilt;
  std::vector<size_t> superseded;  // tombstones of sources the winner removed itself
  for (const auto& [path, winner_add] : shared) {
    if (winner_add != nullptr) {
      loser.actions[loser_removes.at(path)] = RemoveFrom(*winner_add, in.now_ms, /*data_change=*/false);
    } else {
      superseded.push_back(loser_removes.at(path));
    }
    sources.insert(path);
    outputs_rebuilt.insert(in.composition.sources.at(path).output);
  }
  // A rebuilt tombstone carries the winner's DV, not the one the compaction read, so it cannot
  // keep its tags (a later remap would rank against the wrong DV). Its output's other sources
  // lose theirs too: a half-tagged output tiles nothing, and the log must not claim it does.
  // A later DML against this compaction then aborts, as in the reference.
  for (const auto& [path, i] : loser_removes) {
    const auto source = in.composition.sources.find(path);
    if (RLC_MUTANT(kRebuiltTombstoneKeepsTags)) break;
    if (source != in.composition.sources.end() && outputs_rebuilt.count(source->second.output) != 0) {
      delta::EraseCompositionTags(&std::get<delta::RemoveFile>(loser.actions[i]).tags);
    }
  }
  std::sort(superseded.rbegin(), superseded.rend());
  for (size_t i : superseded) loser.actions.erase(loser.actions.begin() + static_cast<std::ptrdiff_t>(i));
  resolved.insert(sources.begin(), sources.end());
  DropReadFiles(sources, loser);
  events.push_back(RemapEvent(kRemappedEvent, "resolvedSources", winner, sources.size(), rebuilt_outputs.size()));
}

void ResolveReverseOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in, PendingTransaction& loser,
                                     std::set<std::string>& resolved, std::vector<Event>& events) {
  if (!DeletionVectorsWritable(in.read_metadata, in.read_protocol) || !in.dvs.can_write()) return;
  // A pure compaction: every remove tagged onto one of its adds, every add an output, no add
  // changing data, not a multi-dimensional clustering, every output tiled.
  if (winner.removed_files.empty() || winner.added_files.empty()) return;  // doubt: no compaction
  if (IsMultiDimensionalClustering(winner.commit_info)) return;  // doubt: ZORDER or CLUSTER BY
  std::map<std::string, const delta::AddFile*> outputs;
  for (const delta::AddFile& a : winner.added_files) {
    if (a.data_change) return;  // doubt: an add that changes data
    outputs[DecodedPath(a.path)] = &a;
  }
  std::vector<const delta::RemoveFile*> removes;
  for (const delta::RemoveFile& r : winner.removed_files) removes.push_back(&r);
  const std::map<std::string, CompactedSource> sources =
      CompactedSources(removes, outputs, {in.dvs, in.view, in.files, in.read_metadata});
  if (sources.size() != winner.removed_files.size()) return;  // doubt: a source without usable tags
  std::set<std::string> referenced;
  for (const auto& [path, s] : sources) referenced.insert(s.output);
  if (referenced.size() != outputs.size()) return;  // doubt: an add no source names
  // The loser's DV updates of compacted sources, and every compacted source it touched (H1).
  std::map<std::string, size_t> loser_dv_adds, loser_removes;
  std::set<std::string> touched, loser_adds;
  for (size_t i = 0; i < loser.actions.size(); ++i) {
    std::string path;
    if (const auto* a = std::get_if<delta::AddFile>(&loser.actions[i])) {
      path = DecodedPath(a->path);
      loser_adds.insert(path);
      if (a->deletion_vector.has_value()) loser_dv_adds[path] = i;
    } else if (const auto* r = std::get_if<delta::RemoveFile>(&loser.actions[i])) {
      path = DecodedPath(r->path);
      loser_removes[path] = i;
    } else {
      continue;
    }
    if (sources.count(path) != 0) touched.insert(path);
  }
  std::vector<std::string> shared;
  for (const auto& [path, i] : loser_dv_adds) {
    if (sources.count(path) == 0 || loser_removes.count(path) == 0) continue;
    // A DV update written dataChange=false is a deletion passed off as a relocation: not remapped
    // (and then H1 refuses the whole loser).
    const auto& add = std::get<delta::AddFile>(loser.actions[i]);
    const auto& remove = std::get<delta::RemoveFile>(loser.actions[loser_removes.at(path)]);
    if (add.data_change && remove.data_change) shared.push_back(path);
  }
  // A compacted source the loser removed whole (no version of it re-added): all its rows go, and
  // its run says where they are in the output.
  std::set<std::string> removed_whole;
  for (const auto& [path, i] : loser_removes) {
    if (sources.count(path) == 0 || loser_adds.count(path) != 0) continue;
    if (!std::get<delta::RemoveFile>(loser.actions[i]).data_change) continue;
    shared.push_back(path);
    removed_whole.insert(path);
  }
  if (shared.empty()) return;  // doubt: nothing of the loser's on compacted sources
  // H1, with sources numbered by their order in `sources`.
  std::map<std::string, int64_t> number;
  for (const auto& [path, s] : sources) number.emplace(path, static_cast<int64_t>(number.size()));
  dv::RowBitmap touched_numbers, remapped_numbers;
  for (const std::string& p : touched) touched_numbers.Add(static_cast<uint64_t>(number.at(p)));
  for (const std::string& p : shared) remapped_numbers.Add(static_cast<uint64_t>(number.at(p)));
  if (!kernel::EveryTouchedSourceRemapped(Domain{}, touched_numbers, remapped_numbers)) return;  // doubt: H1: a touched source not remapped
  std::map<std::string, dv::RowBitmap> output_dvs, seeds;
  for (const std::string& path : shared) {
    const CompactedSource& source = sources.at(path);
    const delta::AddFile& output = *outputs.at(source.output);
    const std::optional<int64_t> output_rows = NumRecords(output);
    if (!output_rows) return;
    if (output_dvs.count(source.output) == 0) {
      const std::optional<dv::RowBitmap> seed = in.dvs.Load(output.deletion_vector);
      if (!seed) return;
      output_dvs[source.output] = *seed;
      seeds[source.output] = *seed;
    }
    const auto& loser_remove = std::get<delta::RemoveFile>(loser.actions[loser_removes.at(path)]);
    const std::optional<dv::RowBitmap> read = in.dvs.Load(loser_remove.deletion_vector);
    const std::optional<dv::RowBitmap> wanted =
        removed_whole.count(path) != 0
            ? EveryRow(source)
            : in.dvs.Load(std::get<delta::AddFile>(loser.actions[loser_dv_adds.at(path)]).deletion_vector);
    if (!read || !wanted) return;  // doubt: a DV unreadable
    const bool remapped = kernel::ReverseRemapOntoOutput(Domain{}, RunOf(source), Int128(*output_rows),
                                                         static_cast<int64_t>(kRowIndexMax), source.compacted, *read,
                                                         *wanted, output_dvs[source.output]);
    if (!remapped) return;  // invariant: checked tags give each row of its source a place in its run
  }
  // Rebuild: the loser's actions on remapped sources give way to the changed outputs.
  std::vector<delta::Action> rebuilt;
  for (const auto& [output, rows] : output_dvs) {
    if (rows == seeds.at(output)) continue;  // nothing new deleted there
    const std::optional<dv::DvDescriptor> written = in.dvs.Write(rows);
    if (!written) return;
    std::optional<delta::AddFile> add = WithDeletionVector(*outputs.at(output), *written);
    if (!add) return;
    add->data_change = true;
    rebuilt.push_back(RemoveFrom(*outputs.at(output), in.now_ms, /*data_change=*/true));
    rebuilt.push_back(std::move(*add));
  }
  const std::set<std::string> remapped(shared.begin(), shared.end());
  std::vector<delta::Action> actions;
  for (delta::Action& a : loser.actions) {
    const auto* add = std::get_if<delta::AddFile>(&a);
    const auto* remove = std::get_if<delta::RemoveFile>(&a);
    if ((add && remapped.count(DecodedPath(add->path))) || (remove && remapped.count(DecodedPath(remove->path)))) {
      continue;
    }
    actions.push_back(std::move(a));
  }
  if (RLC_MUTANT(kReverseRemapDropsDeletes)) rebuilt.clear();
  const size_t outputs_remapped = rebuilt.size() / 2;
  for (delta::Action& a : rebuilt) actions.push_back(std::move(a));
  loser.actions = std::move(actions);
  std::set<std::string> all_sources;
  for (const auto& [path, s] : sources) all_sources.insert(path);
  resolved.insert(all_sources.begin(), all_sources.end());
  for (const auto& [output, add] : outputs) resolved.insert(output);
  // The rows the loser read in a compacted source now live in its output: the output is read.
  std::set<std::string> read_outputs;
  for (const std::string& p : loser.read_files) {
    auto it = sources.find(DecodedPath(p));
    if (it != sources.end()) read_outputs.insert(it->second.output);
  }
  DropReadFiles(all_sources, loser);
  for (const std::string& output : read_outputs) {
    if (std::find_if(loser.read_files.begin(), loser.read_files.end(),
                     [&](const std::string& p) { return DecodedPath(p) == output; }) == loser.read_files.end()) {
      loser.read_files.push_back(outputs.at(output)->path);
    }
  }
  events.push_back(RemapEvent(kReverseRemappedEvent, "remappedSources", winner, shared.size(), outputs_remapped));
}

}  // namespace rlc::conflict
