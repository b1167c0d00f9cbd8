#include "impl/conflict/optimize_reconciliation.h"

#include <algorithm>

#include "impl/base/limits.h"
#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/concrete_domain.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/stats.h"
#include "impl/kernel/remap.h"
#include "impl/kernel/tiling.h"

namespace rlc::conflict {
namespace {

using Domain = ConcreteDomain;

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
  return kernel::RemapOntoOutput(Domain{}, RunOf(source), Int128(output_rows),
                                 static_cast<int64_t>(kRowIndexMax), source.compacted, before,
                                 after, output_dv);
}

Event RemapEvent(const char* name, const char* sources_key, const WinnerSummary& winner,
                 size_t sources, size_t outputs) {
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
                          const std::map<std::string, CompactedSource>& sources,
                          const CompositionInputs& in) {
  if (in.files == nullptr || RLC_MUTANT("tags-trusted-beyond-tiling")) return true;
  const std::vector<predicate::ColumnPath> columns = TableColumns(in.read_metadata);
  if (columns.empty()) return false;
  Result<std::vector<RowTuple>> written = ReadRows(*in.files, output, dv::RowBitmap(), columns);
  if (!written.ok())
    return written.status().code() ==
           StatusCode::kUnsupported;  // doubt: the output's rows unreadable
  for (const std::string& path : paths) {
    const CompactedSource& s = sources.at(path);
    Result<std::vector<RowTuple>> live = ReadRows(*in.files, path, s.compacted, columns);
    if (!live.ok())
      return live.status().code() == StatusCode::kUnsupported;  // doubt: a source's rows unreadable
    if (static_cast<int64_t>(live->size()) != s.live ||
        s.start < 0 ||  // doubt: a run holds other rows
        s.start + s.live > static_cast<int64_t>(written->size()) ||
        !std::equal(live->begin(), live->end(), written->begin() + s.start)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::map<std::string, CompactedSource> CompactedSources(
    const std::vector<const delta::RemoveFile*>& removes,
    const std::map<std::string, const delta::AddFile*>& outputs, const CompositionInputs& in) {
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
    const std::optional<int64_t> physical =
        source.has_value() ? delta::NumRecordsOf(source->stats) : std::nullopt;
    const bool miscounted =
        physical != tag->source_num_physical_records && !RLC_MUTANT("tags-trusted-beyond-tiling");
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
    const std::optional<int64_t> rows = delta::NumRecordsOf(outputs.at(output)->stats);
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

namespace {

// The loser's file actions by decoded path: positions in loser.actions.
struct LoserIndex {
  std::map<std::string, size_t> adds, dv_adds, removes;
};

LoserIndex IndexLoser(const PendingTransaction& loser) {
  LoserIndex idx;
  for (size_t i = 0; i < loser.actions.size(); ++i) {
    if (const auto* a = std::get_if<delta::AddFile>(&loser.actions[i])) {
      idx.adds[DecodedPath(a->path)] = i;
      if (a->deletion_vector.has_value()) idx.dv_adds[DecodedPath(a->path)] = i;
    }
    if (const auto* r = std::get_if<delta::RemoveFile>(&loser.actions[i]))
      idx.removes[DecodedPath(r->path)] = i;
  }
  return idx;
}

// The DVs of outputs a remap changes, each seeded once from the output's current DV.
struct OutputDvs {
  std::map<std::string, dv::RowBitmap> rows, seeds;  // by decoded output path

  // The output's accumulating DV; nullptr when its current DV cannot be read.
  dv::RowBitmap* Of(const std::string& output, const std::optional<dv::DvDescriptor>& current,
                    DvStore& dvs) {
    if (rows.count(output) == 0) {
      const std::optional<dv::RowBitmap> seed = dvs.Load(current);
      if (!seed) return nullptr;
      rows[output] = *seed;
      seeds[output] = *seed;
    }
    return &rows[output];
  }
};

// 4a: the OPTIMIZE's own composition, read once from its original tombstones (its read snapshot
// holds their sources) and kept across winners.
void BuildForwardComposition(RewriteInputs& in, const PendingTransaction& loser,
                             const LoserIndex& idx) {
  if (in.composition.built) return;
  in.composition.built = true;
  if (IsMultiDimensionalClustering(CommitInfoOf(loser.actions))) return;
  std::vector<const delta::RemoveFile*> removes;
  std::map<std::string, const delta::AddFile*> outputs;
  for (const auto& [path, i] : idx.removes)
    removes.push_back(&std::get<delta::RemoveFile>(loser.actions[i]));
  for (const auto& [path, i] : idx.adds)
    outputs[path] = &std::get<delta::AddFile>(loser.actions[i]);
  const TableView read_view(in.read_files);
  in.composition.sources =
      CompactedSources(removes, outputs, {in.dvs, read_view, in.files, in.read_metadata});
}

// 4a: the compacted sources the winner updated by DV (an add with a DV of a path it removed), or
// removed outright (nullptr: the winner re-adds no version of the path; every row the compaction
// carried is then deleted, and the run says where they are).
std::map<std::string, const delta::AddFile*> SourcesTheWinnerChanged(const WinnerSummary& winner,
                                                                     const RewriteInputs& in,
                                                                     const LoserIndex& idx) {
  std::set<std::string> winner_removes, winner_adds;
  for (const delta::RemoveFile& r : winner.removed_files)
    winner_removes.insert(DecodedPath(r.path));
  const auto compacted_by_loser = [&](const std::string& path) {
    return in.composition.sources.count(path) != 0 && idx.removes.count(path) != 0;
  };
  std::map<std::string, const delta::AddFile*> shared;
  for (const delta::AddFile& a : winner.added_files) {
    const std::string path = DecodedPath(a.path);
    winner_adds.insert(path);
    if (a.deletion_vector.has_value() && winner_removes.count(path) != 0 &&
        compacted_by_loser(path)) {
      shared[path] = &a;
    }
  }
  for (const std::string& path : winner_removes) {
    if (winner_adds.count(path) == 0 && compacted_by_loser(path)) shared[path] = nullptr;
  }
  return shared;
}

// 4a: whether the winner adds a compacted source (a DV update or a re-add) under other partition
// values than the compaction read it with: readers take a file's partition values from its add,
// so that moves the source's rows, which a remap onto the compaction's output cannot carry. (The
// checker's moved-file rule aborts such a loser too, once 4a has reconciled anything: this guard
// declines before, and says why.)
bool WinnerMovesACompactedSource(const WinnerSummary& winner, const RewriteInputs& in) {
  for (const delta::AddFile& a : winner.added_files) {
    const std::string path = DecodedPath(a.path);
    if (in.composition.sources.count(path) == 0) continue;
    const auto read = in.read_files.find(path);
    if (read == in.read_files.end() || read->second.partition_values != a.partition_values)
      return true;
  }
  return false;
}

// 4a: the winner's newly deleted rows of each shared source carried onto its output's DV. False
// on any doubt (then nothing changes).
bool ForwardRemapAll(const WinnerSummary& winner,
                     const std::map<std::string, const delta::AddFile*>& shared, RewriteInputs& in,
                     const PendingTransaction& loser, const LoserIndex& idx, OutputDvs& dvs) {
  std::map<std::string, const delta::RemoveFile*> winner_removes;
  for (const delta::RemoveFile& r : winner.removed_files) winner_removes[DecodedPath(r.path)] = &r;
  for (const auto& [path, winner_add] : shared) {
    const CompactedSource& source = in.composition.sources.at(path);
    const auto& tombstone = std::get<delta::RemoveFile>(loser.actions[idx.removes.at(path)]);
    const auto output_it = idx.adds.find(source.output);
    if (output_it == idx.adds.end())
      return false;  // invariant: the loser's outputs stay among its actions
    const auto& output = std::get<delta::AddFile>(loser.actions[output_it->second]);
    const std::optional<int64_t> output_rows = delta::NumRecordsOf(output.stats);
    if (!output_rows ||
        !SameDv(winner_removes.at(path)->deletion_vector, tombstone.deletion_vector)) {
      return false;  // doubt: other pre-images, or no row count
    }
    dv::RowBitmap* output_dv = dvs.Of(source.output, output.deletion_vector, in.dvs);
    if (output_dv == nullptr) return false;
    const std::optional<dv::RowBitmap> before = in.dvs.Load(tombstone.deletion_vector);
    const std::optional<dv::RowBitmap> after =
        winner_add != nullptr ? in.dvs.Load(winner_add->deletion_vector) : EveryRow(source);
    if (!before || !after || !Remap(source, *output_rows, *before, *after, *output_dv)) {
      return false;  // doubt: a DV unreadable, or a row outside its run
    }
  }
  return true;
}

// 4a: the OPTIMIZE's tombstones of resolved sources rebuilt from the winner's adds (or dropped,
// for a source the winner removed whole), and the tags of every source of a changed output
// erased. Returns the resolved sources.
std::set<std::string> RebuildTombstones(const std::map<std::string, const delta::AddFile*>& shared,
                                        const RewriteInputs& in, PendingTransaction& loser,
                                        const LoserIndex& idx) {
  std::set<std::string> sources, outputs_rebuilt;
  std::vector<size_t> superseded;  // tombstones of sources the winner removed itself
  for (const auto& [path, winner_add] : shared) {
    if (winner_add != nullptr) {
      loser.actions[idx.removes.at(path)] =
          RemoveFrom(*winner_add, in.now_ms, /*data_change=*/false);
    } else {
      superseded.push_back(idx.removes.at(path));
    }
    sources.insert(path);
    outputs_rebuilt.insert(in.composition.sources.at(path).output);
  }
  // A rebuilt tombstone carries the winner's DV, not the one the compaction read, so it cannot
  // keep its tags (a later remap would rank against the wrong DV). Its output's other sources
  // lose theirs too: a half-tagged output tiles nothing, and the log must not claim it does.
  // A later DML against this compaction then aborts, as in the reference.
  for (const auto& [path, i] : idx.removes) {
    const auto source = in.composition.sources.find(path);
    if (RLC_MUTANT("4a-rebuilt-tombstone-keeps-tags")) break;
    if (source != in.composition.sources.end() &&
        outputs_rebuilt.count(source->second.output) != 0) {
      delta::EraseCompositionTags(&std::get<delta::RemoveFile>(loser.actions[i]).tags);
    }
  }
  std::sort(superseded.rbegin(), superseded.rend());
  for (size_t i : superseded)
    loser.actions.erase(loser.actions.begin() + static_cast<std::ptrdiff_t>(i));
  return sources;
}

// 4b: a pure compaction: every remove tagged onto one of its adds, every add an output, no add
// changing data, not a multi-dimensional clustering, every output tiled. Empty on doubt.
struct WinnerCompaction {
  std::map<std::string, const delta::AddFile*> outputs;  // by decoded path
  std::map<std::string, CompactedSource> sources;
};

// `why` (when the winner looks like a compaction: it adds and removes, every add dataChange=false)
// learns why it is not one 4b can use.
std::optional<WinnerCompaction> PureCompaction(const WinnerSummary& winner, RewriteInputs& in,
                                               std::string* why) {
  if (winner.removed_files.empty() || winner.added_files.empty())
    return std::nullopt;  // doubt: no compaction
  WinnerCompaction c;
  for (const delta::AddFile& a : winner.added_files) {
    if (a.data_change) return std::nullopt;  // doubt: an add that changes data: no compaction
    c.outputs[DecodedPath(a.path)] = &a;
  }
  if (IsMultiDimensionalClustering(winner.commit_info)) {  // doubt: ZORDER or CLUSTER BY
    *why = "the compaction is a ZORDER or CLUSTER BY, which interleaves its sources' rows";
    return std::nullopt;
  }
  std::vector<const delta::RemoveFile*> removes;
  for (const delta::RemoveFile& r : winner.removed_files) removes.push_back(&r);
  c.sources = CompactedSources(removes, c.outputs, {in.dvs, in.view, in.files, in.read_metadata});
  if (c.sources.size() != winner.removed_files.size()) {  // doubt: a source without usable tags
    *why =
        "a compacted source's tombstone carries no usable composition tags (the compacting "
        "engine did not record where its rows went, or the tags disagree with the table)";
    return std::nullopt;
  }
  std::set<std::string> referenced;
  for (const auto& [path, s] : c.sources) referenced.insert(s.output);
  if (referenced.size() != c.outputs.size()) {  // doubt: an add no source names
    *why = "a compaction output is named by no source's tags";
    return std::nullopt;
  }
  return c;
}

// Whether the loser removes a file the winner removed (a compacted source it changed).
bool LoserRemovesAnyOf(const PendingTransaction& loser,
                       const std::vector<delta::RemoveFile>& removed) {
  std::set<std::string> paths;
  for (const delta::RemoveFile& r : removed) paths.insert(DecodedPath(r.path));
  for (const delta::Action& a : loser.actions) {
    const auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r != nullptr && paths.count(DecodedPath(r->path)) != 0) return true;
  }
  return false;
}

// 4b: the compacted sources the loser changed: DV updates written as data changes, and sources
// it removed whole (no version of them re-added: all their rows go, and the run says where).
std::vector<std::string> SourcesTheLoserChanged(const PendingTransaction& loser,
                                                const LoserIndex& idx, const WinnerCompaction& c,
                                                std::set<std::string>& removed_whole) {
  std::vector<std::string> shared;
  for (const auto& [path, i] : idx.dv_adds) {
    if (c.sources.count(path) == 0 || idx.removes.count(path) == 0) continue;
    // A DV update written dataChange=false is a deletion passed off as a relocation: not remapped
    // (and then H1 refuses the whole loser).
    const auto& add = std::get<delta::AddFile>(loser.actions[i]);
    const auto& remove = std::get<delta::RemoveFile>(loser.actions[idx.removes.at(path)]);
    if (add.data_change && remove.data_change) shared.push_back(path);
  }
  for (const auto& [path, i] : idx.removes) {
    if (c.sources.count(path) == 0 || idx.adds.count(path) != 0) continue;
    if (!std::get<delta::RemoveFile>(loser.actions[i]).data_change) continue;
    shared.push_back(path);
    removed_whole.insert(path);
  }
  return shared;
}

// 4b, H1 (docs/cases.md#h1): every compacted source the loser touched (a remove or any add of
// its path) is among those it remaps; sources are numbered by their order in `c.sources`.
bool EveryTouchedSourceRemapped(const LoserIndex& idx, const WinnerCompaction& c,
                                const std::vector<std::string>& shared) {
  std::map<std::string, int64_t> number;
  for (const auto& [path, s] : c.sources) number.emplace(path, static_cast<int64_t>(number.size()));
  dv::RowBitmap touched, remapped;
  for (const auto* actions : {&idx.adds, &idx.removes}) {
    for (const auto& [path, i] : *actions) {
      if (number.count(path) != 0) touched.Add(static_cast<uint64_t>(number.at(path)));
    }
  }
  for (const std::string& p : shared) remapped.Add(static_cast<uint64_t>(number.at(p)));
  return kernel::EveryTouchedSourceRemapped(Domain{}, touched, remapped);
}

// 4b: the loser's deletions on each shared source carried onto its output's DV. False on doubt.
bool ReverseRemapAll(const std::vector<std::string>& shared,
                     const std::set<std::string>& removed_whole, const WinnerCompaction& c,
                     RewriteInputs& in, const PendingTransaction& loser, const LoserIndex& idx,
                     OutputDvs& dvs) {
  for (const std::string& path : shared) {
    const CompactedSource& source = c.sources.at(path);
    const delta::AddFile& output = *c.outputs.at(source.output);
    const std::optional<int64_t> output_rows = delta::NumRecordsOf(output.stats);
    if (!output_rows) return false;
    dv::RowBitmap* output_dv = dvs.Of(source.output, output.deletion_vector, in.dvs);
    if (output_dv == nullptr) return false;
    const auto& loser_remove = std::get<delta::RemoveFile>(loser.actions[idx.removes.at(path)]);
    const std::optional<dv::RowBitmap> read = in.dvs.Load(loser_remove.deletion_vector);
    const std::optional<dv::RowBitmap> wanted =
        removed_whole.count(path) != 0
            ? EveryRow(source)
            : in.dvs.Load(
                  std::get<delta::AddFile>(loser.actions[idx.dv_adds.at(path)]).deletion_vector);
    if (!read || !wanted) return false;  // doubt: a DV unreadable
    if (!kernel::ReverseRemapOntoOutput(Domain{}, RunOf(source), Int128(*output_rows),
                                        static_cast<int64_t>(kRowIndexMax), source.compacted, *read,
                                        *wanted, *output_dv)) {
      return false;  // invariant: checked tags give each row of its source a place in its run
    }
  }
  return true;
}

// 4b: per changed output, a remove of the compacted output and its add with the new DV; nullopt
// when a DV cannot be written.
std::optional<std::vector<delta::Action>> ChangedOutputs(const OutputDvs& dvs,
                                                         const WinnerCompaction& c,
                                                         RewriteInputs& in) {
  std::vector<delta::Action> rebuilt;
  for (const auto& [output, rows] : dvs.rows) {
    if (rows == dvs.seeds.at(output)) continue;  // nothing new deleted there
    const std::optional<dv::DvDescriptor> written = in.dvs.Write(rows);
    if (!written) return std::nullopt;
    std::optional<delta::AddFile> add = WithDeletionVector(*c.outputs.at(output), *written);
    if (!add) return std::nullopt;
    add->data_change = true;
    rebuilt.push_back(RemoveFrom(*c.outputs.at(output), in.now_ms, /*data_change=*/true));
    rebuilt.push_back(std::move(*add));
  }
  return rebuilt;
}

// 4b: the rows the loser read in a compacted source now live in its output: the output is read
// instead.
void MoveReadsOntoOutputs(const WinnerCompaction& c, const std::set<std::string>& all_sources,
                          PendingTransaction& loser) {
  std::set<std::string> read_outputs;
  for (const std::string& p : loser.read_files) {
    auto it = c.sources.find(DecodedPath(p));
    if (it != c.sources.end()) read_outputs.insert(it->second.output);
  }
  DropReadFiles(all_sources, loser);
  for (const std::string& output : read_outputs) {
    const bool already_read =
        std::any_of(loser.read_files.begin(), loser.read_files.end(),
                    [&](const std::string& p) { return DecodedPath(p) == output; });
    if (!already_read) loser.read_files.push_back(c.outputs.at(output)->path);
  }
}

}  // namespace

CaseResolution ResolveOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                        PendingTransaction& loser) {
  CaseResolution out;
  if (!DeletionVectorsWritable(in.read_metadata, in.read_protocol) || !in.dvs.can_write())
    return out;
  const LoserIndex idx = IndexLoser(loser);
  BuildForwardComposition(in, loser, idx);
  if (in.composition.sources.empty()) return out;  // doubt: no usable composition
  const std::map<std::string, const delta::AddFile*> shared =
      SourcesTheWinnerChanged(winner, in, idx);
  if (shared.empty()) return out;                 // doubt: no compacted source the winner changed
  if (WinnerMovesACompactedSource(winner, in)) {  // declined: rows moved partition
    Declined(in.declines, "4a", winner.version, "",
             "the winner adds a compacted source under other partition values, which moves its "
             "rows out of the compaction's output");
    return out;
  }
  OutputDvs output_dvs;
  if (!ForwardRemapAll(winner, shared, in, loser, idx, output_dvs)) {  // declined: a doubt inside
    Declined(in.declines, "4a", winner.version, "",
             "the winner's deletions could not all be carried onto the compacted outputs (a DV "
             "unreadable, a source's count refuted, or a row outside its run)");
    return out;
  }
  // Every shared source remapped: write the changed outputs' DVs, then rebuild the actions.
  std::map<size_t, delta::AddFile> rebuilt_outputs;
  for (const auto& [output, rows] : output_dvs.rows) {
    if (rows == output_dvs.seeds.at(output)) continue;  // nothing new deleted there
    const std::optional<dv::DvDescriptor> written = in.dvs.Write(rows);
    if (!written) {  // declined: the DV not written
      Declined(in.declines, "4a", winner.version, output, "the remapped DV could not be written");
      return out;
    }
    const size_t i = idx.adds.at(output);
    std::optional<delta::AddFile> add =
        WithDeletionVector(std::get<delta::AddFile>(loser.actions[i]), *written);
    if (!add) return out;
    rebuilt_outputs[i] = std::move(*add);
  }
  if (RLC_MUTANT("4a-drops-output-dv")) rebuilt_outputs.clear();
  for (auto& [i, add] : rebuilt_outputs) loser.actions[i] = std::move(add);
  const std::set<std::string> sources = RebuildTombstones(shared, in, loser, idx);
  out.resolved.insert(sources.begin(), sources.end());
  DropReadFiles(sources, loser);
  out.events.push_back(RemapEvent(kRemappedEvent, "resolvedSources", winner, sources.size(),
                                  rebuilt_outputs.size()));
  return out;
}

CaseResolution ResolveReverseOptimizeConflicts(const WinnerSummary& winner, RewriteInputs& in,
                                               PendingTransaction& loser) {
  CaseResolution out;
  if (!DeletionVectorsWritable(in.read_metadata, in.read_protocol) || !in.dvs.can_write())
    return out;
  std::string why;
  const std::optional<WinnerCompaction> c = PureCompaction(winner, in, &why);
  if (!c) {
    if (!why.empty() && LoserRemovesAnyOf(loser, winner.removed_files))
      Declined(in.declines, "4b", winner.version, "", why);
    return out;
  }
  const LoserIndex idx = IndexLoser(loser);
  std::set<std::string> removed_whole;
  const std::vector<std::string> shared = SourcesTheLoserChanged(loser, idx, *c, removed_whole);
  if (shared.empty()) return out;  // doubt: nothing of the loser's on compacted sources
  if (!EveryTouchedSourceRemapped(idx, *c, shared)) {  // doubt: H1: a touched source not remapped
    Declined(in.declines, "4b", winner.version, "",
             "the loser touched a compacted source it could not be remapped from");
    return out;
  }
  OutputDvs output_dvs;
  if (!ReverseRemapAll(shared, removed_whole, *c, in, loser, idx,
                       output_dvs)) {  // declined: a doubt inside
    Declined(in.declines, "4b", winner.version, "",
             "the loser's deletions could not all be carried onto the compacted outputs (a DV "
             "unreadable, or a row outside its run)");
    return out;
  }
  std::optional<std::vector<delta::Action>> rebuilt = ChangedOutputs(output_dvs, *c, in);
  if (!rebuilt) return out;
  // The loser's actions on remapped sources give way to the changed outputs.
  const std::set<std::string> remapped(shared.begin(), shared.end());
  std::vector<delta::Action> actions;
  for (delta::Action& a : loser.actions) {
    const auto* add = std::get_if<delta::AddFile>(&a);
    const auto* remove = std::get_if<delta::RemoveFile>(&a);
    if ((add && remapped.count(DecodedPath(add->path))) ||
        (remove && remapped.count(DecodedPath(remove->path)))) {
      continue;
    }
    actions.push_back(std::move(a));
  }
  if (RLC_MUTANT("4b-drops-deletes")) rebuilt->clear();
  const size_t outputs_remapped = rebuilt->size() / 2;
  for (delta::Action& a : *rebuilt) actions.push_back(std::move(a));
  loser.actions = std::move(actions);
  std::set<std::string> all_sources;
  for (const auto& [path, s] : c->sources) all_sources.insert(path);
  out.resolved.insert(all_sources.begin(), all_sources.end());
  for (const auto& [output, add] : c->outputs) out.resolved.insert(output);
  MoveReadsOntoOutputs(*c, all_sources, loser);
  out.events.push_back(RemapEvent(kReverseRemappedEvent, "remappedSources", winner, shared.size(),
                                  outputs_remapped));
  return out;
}

}  // namespace rlc::conflict
