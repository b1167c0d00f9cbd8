// Case 4: the capture gate (composition_capture.h), 4a forward and 4b reverse remap
// (optimize_reconciliation.h), end to end through the checker: one test per rule and per
// abort-on-doubt condition.
#include "impl/conflict/optimize_reconciliation.h"

#include <gtest/gtest.h>

#include "impl/conflict/case_test_support.h"
#include "impl/conflict/composition_capture.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/deletion_vector_loader.h"

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders
using delta::Action;

constexpr char kForward[] = "optimize.conflictReconciliation.enabled";
constexpr char kReverse[] = "optimize.conflictReconciliation.reverse.enabled";

Flags FlagsOf(std::vector<std::string> names) {
  Flags f;
  for (const std::string& n : names) EXPECT_TRUE(f.Set(n, "true").ok());
  return f;
}

// The bin: f1 (10 rows, row 0 deleted before the OPTIMIZE read it) and f2 (10 rows), compacted
// into c1: f1's 9 live rows at [0, 9), f2's 10 at [9, 19).
delta::AddFile F1() {
  delta::AddFile a = AddOf("f1", IdStats(10, 0, 9));
  a.deletion_vector = InlineDv({0});
  return a;
}
delta::AddFile F2() { return AddOf("f2", IdStats(10, 10, 19)); }

struct OptimizeOptions {
  std::vector<std::string> flags = {kForward};
  std::vector<std::pair<std::string, int64_t>> runs = {{"f1", 9}, {"f2", 10}};
  std::vector<std::string> outputs = {"c1"};
  int tasks = 1;
  bool zorder = false;
};

std::vector<Action> Optimize(const OptimizeOptions& o = {}) {
  CompositionCapture capture({F1(), F2()});
  for (const auto& [path, rows] : o.runs) capture.ObserveRows(path, rows);
  const CompositionCapture::Outcome out =
      capture.Finish(FlagsOf(o.flags), o.outputs, o.tasks, o.zorder, 1700000000000);
  delta::CommitInfo info = InfoOf("OPTIMIZE");
  if (o.zorder) info.operation_parameters.push_back({"zOrderBy", R"("[\"id\"]")"});
  std::vector<Action> actions = {info};
  for (const delta::RemoveFile& r : out.tombstones) actions.push_back(r);
  actions.push_back(AddOf("c1", IdStats(19, 0, 19), /*data_change=*/false));
  return actions;
}

// The table the OPTIMIZE read: f1 and f2 active, as the tags must agree with.
struct TableWithBin : CaseCheck {
  TableWithBin() {
    Active(F1());
    Active(F2());
  }
};

// The OPTIMIZE as the loser (it read f1 and f2).
PendingTransaction OptimizeLoser(std::vector<std::string> flags = {kForward},
                                 OptimizeOptions o = {}) {
  o.flags = {kForward};
  return LoserOf({}, {"f1", "f2"}, Optimize(o), flags);
}

// A DELETE by DV of `path` as the winner.
std::vector<Action> DvDelete(const delta::AddFile& before, std::vector<uint64_t> new_dv) {
  delta::RemoveFile r = RemoveOf(before.path);
  r.deletion_vector = before.deletion_vector;
  delta::AddFile a = before;
  a.deletion_vector = InlineDv(new_dv);
  return {InfoOf("DELETE"), r, a};
}

std::vector<uint64_t> DvRows(CaseCheck& check, const std::optional<dv::DvDescriptor>& d) {
  if (!d.has_value()) return {};
  Result<dv::RowBitmap> rows = delta::LoadDeletionVector(check.storage, "/t", *d);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? rows->ToVector() : std::vector<uint64_t>{};
}

template <typename T>
const T* Find(const Verdict& v, const std::string& path) {
  for (const Action& a : v.actions) {
    if (const auto* x = std::get_if<T>(&a); x && x->path == path) return x;
  }
  return nullptr;
}

// ---- capture
// -------------------------------------------------------------------------------------

TEST(CompositionCapture, GatePassesAndTagsRecordTheRuns) {
  const std::vector<Action> optimize = Optimize();
  const auto& f1 = std::get<delta::RemoveFile>(optimize[1]);
  const auto& f2 = std::get<delta::RemoveFile>(optimize[2]);
  EXPECT_FALSE(f1.data_change);
  EXPECT_EQ(f1.deletion_vector, F1().deletion_vector);  // the tombstone carries the read-time DV
  EXPECT_EQ(delta::ParseCompositionTags(*f1.tags),
            (delta::CompositionTag{"c1", 0, 10}));  // 9 live + 1 deleted
  EXPECT_EQ(delta::ParseCompositionTags(*f2.tags), (delta::CompositionTag{"c1", 9, 10}));
}

TEST(CompositionCapture, EachGateConditionLeavesTheTombstonesUntagged) {
  auto untagged = [](const OptimizeOptions& o, std::vector<delta::AddFile> sources = {F1(), F2()}) {
    CompositionCapture capture(std::move(sources));
    for (const auto& [path, rows] : o.runs) capture.ObserveRows(path, rows);
    const CompositionCapture::Outcome out =
        capture.Finish(FlagsOf(o.flags), o.outputs, o.tasks, o.zorder, 1);
    for (const delta::RemoveFile& r : out.tombstones) EXPECT_EQ(r.tags.has_value(), out.tagged);
    EXPECT_EQ(out.why_untagged.empty(), out.tagged);
    return !out.tagged;
  };
  EXPECT_TRUE(untagged({.flags = {}}));                                 // capture off
  EXPECT_FALSE(untagged({.flags = {kReverse}}));                        // either flag captures
  EXPECT_TRUE(untagged({.runs = {{"f1", 4}, {"f2", 10}, {"f1", 5}}}));  // interleaved
  EXPECT_TRUE(untagged({.runs = {{"f1", 8}, {"f2", 11}}}));             // counts off, sum right
  EXPECT_TRUE(untagged({.runs = {{"f1", 9}, {"elsewhere", 10}}}));      // unknown source
  EXPECT_TRUE(untagged({.runs = {{"f1", 9}}}));                         // a source without a run
  EXPECT_TRUE(untagged({.outputs = {"c1", "c2"}}));
  EXPECT_TRUE(untagged({.tasks = 2}));
  EXPECT_TRUE(untagged({.zorder = true}));
  delta::AddFile no_stats = F2();
  no_stats.stats.reset();
  EXPECT_TRUE(untagged({}, {F1(), no_stats}));
}

// ---- 4a: the OPTIMIZE loses
// ------------------------------------------------------------------------

TEST(ForwardRemap, DeleteOnASourceMovesOntoTheOutput) {
  TableWithBin check;
  // The winner deletes f1's row 3 (rank 2: row 0 was deleted before) and f2's row 5 (9 + 5).
  std::vector<Action> winner = DvDelete(F1(), {0, 3});
  std::vector<Action> f2 = DvDelete(F2(), {5});
  winner.insert(winner.end(), f2.begin() + 1, f2.end());
  const Verdict v = check.Run(OptimizeLoser(), {WinnerAt(1, winner)});
  ASSERT_TRUE(v.commits()) << Show(v);
  const auto* output = Find<delta::AddFile>(v, "c1");
  ASSERT_NE(output, nullptr);
  EXPECT_EQ(DvRows(check, output->deletion_vector), (std::vector<uint64_t>{2, 14}));
  EXPECT_FALSE(output->data_change);
  const auto* tombstone = Find<delta::RemoveFile>(v, "f2");
  EXPECT_EQ(DvRows(check, tombstone->deletion_vector),
            (std::vector<uint64_t>{5}));  // the winner's file
  EXPECT_FALSE(tombstone->data_change);
  EXPECT_FALSE(
      delta::ParseCompositionTags(tombstone->tags.value_or(delta::StringMap{})).has_value());
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].name, kRemappedEvent);
  EXPECT_EQ(v.events[0].data.at("resolvedSources"), "2");
  EXPECT_EQ(v.events[0].data.at("outputsRemapped"), "1");
}

TEST(ForwardRemap, OneRebuiltTombstoneUntagsItsWholeOutput) {
  // The winner touches f1 only. f1's tombstone now removes the winner's file and cannot keep its
  // tags; f2's must go too, or the committed log would hold an output its tags do not tile.
  TableWithBin check;
  const Verdict v = check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F1(), {0, 3}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  for (const char* source : {"f1", "f2"}) {
    const auto* tombstone = Find<delta::RemoveFile>(v, source);
    ASSERT_NE(tombstone, nullptr) << source;
    EXPECT_FALSE(
        delta::ParseCompositionTags(tombstone->tags.value_or(delta::StringMap{})).has_value())
        << source;
  }
}

TEST(ForwardRemap, ReferenceWorkedExamples) {
  // docs/formats.md#d3: file 2 holds 100 rows after a file of 100 live rows; pre-deleted {0, 1, 5}
  // and a delete of physical row 50 land at output 147.
  delta::AddFile a = AddOf("a", IdStats(100, 0, 99));
  delta::AddFile b = AddOf("b", IdStats(100, 100, 199));
  b.deletion_vector = InlineDv({0, 1, 5});
  CompositionCapture capture({a, b});
  capture.ObserveRows("a", 100);
  capture.ObserveRows("b", 97);
  const CompositionCapture::Outcome out = capture.Finish(FlagsOf({kForward}), {"c"}, 1, false, 1);
  ASSERT_TRUE(out.tagged) << out.why_untagged;
  std::vector<Action> optimize = {InfoOf("OPTIMIZE"), out.tombstones[0], out.tombstones[1],
                                  AddOf("c", IdStats(197, 0, 199), false)};
  CaseCheck check;
  check.Active(a);
  check.Active(b);
  const Verdict v = check.Run(LoserOf({}, {"a", "b"}, optimize, {kForward}),
                              {WinnerAt(1, DvDelete(b, {0, 1, 5, 50}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c")->deletion_vector),
            (std::vector<uint64_t>{147}));
}

TEST(ForwardRemap, FlagOffAborts) {
  TableWithBin check;
  EXPECT_FALSE(check.Run(OptimizeLoser({}), {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
}

TEST(ForwardRemap, UntaggedTombstonesAbort) {
  TableWithBin check;
  OptimizeOptions interleaved;
  interleaved.runs = {{"f1", 4}, {"f2", 10}, {"f1", 5}};
  EXPECT_FALSE(check.Run(OptimizeLoser({kForward}, interleaved), {WinnerAt(1, DvDelete(F2(), {5}))})
                   .commits());
}

TEST(ForwardRemap, MultiDimensionalClusteringAborts) {
  // Tags present (written by another engine), but the commit says ZORDER BY.
  TableWithBin check;
  PendingTransaction loser = OptimizeLoser();
  std::get<delta::CommitInfo>(loser.actions[0])
      .operation_parameters.push_back({"zOrderBy", R"("[\"id\"]")"});
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
}

TEST(ForwardRemap, WinnerRemovingASourceOutrightDeletesItsWholeRun) {
  // The DELETE removed f2 (no DV) whole: f2's run [9, 19) of c1 is deleted, the OPTIMIZE's own
  // tombstone of f2 gives way to the winner's, and f1's tombstone loses its tags (c1 is no longer
  // tiled by tagged sources).
  TableWithBin check;
  const Verdict v = check.Run(OptimizeLoser(), {WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f2")})});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c1")->deletion_vector),
            (std::vector<uint64_t>{9, 10, 11, 12, 13, 14, 15, 16, 17, 18}));
  EXPECT_EQ(Find<delta::RemoveFile>(v, "f2"), nullptr);
  const auto* f1 = Find<delta::RemoveFile>(v, "f1");
  ASSERT_NE(f1, nullptr);
  EXPECT_FALSE(f1->tags.has_value() && delta::ParseCompositionTags(*f1->tags).has_value());
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].data.at("resolvedSources"), "1");
  // A whole removal of another version of f1 than the one compacted (without its DV) aborts.
  EXPECT_FALSE(
      check.Run(OptimizeLoser(), {WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f1")})}).commits());
  // So does one the flag does not cover.
  EXPECT_FALSE(
      check.Run(OptimizeLoser({}), {WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f2")})}).commits());
}

TEST(ForwardRemap, TagsThatDoNotTileTheOutputAbort) {
  TableWithBin check;
  PendingTransaction loser = OptimizeLoser();
  auto& f2 = std::get<delta::RemoveFile>(loser.actions[2]);
  delta::WriteCompositionTags({"c1", 10, 10}, &*f2.tags);  // a gap at row 9
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
  // An output without numRecords cannot be checked either.
  PendingTransaction no_count = OptimizeLoser();
  std::get<delta::AddFile>(no_count.actions[3]).stats.reset();
  EXPECT_FALSE(check.Run(no_count, {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
}

TEST(ForwardRemap, OverlappingRunsAbortEvenInsideTheOutput) {
  // f2's tag says offset 8: both runs fit in c1's 19 rows but overlap at 8. Remapping through it
  // would put f2's row 5 at 13, a row of f1's run.
  TableWithBin check;
  PendingTransaction loser = OptimizeLoser();
  delta::WriteCompositionTags({"c1", 8, 10}, &*std::get<delta::RemoveFile>(loser.actions[2]).tags);
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
}

TEST(ForwardRemap, WinnerRemovingAnotherDvThanTheTombstoneIsRefused) {
  // The winner's remove names f1 with DV {0, 5}, not the {0} the OPTIMIZE compacted and tombstoned
  // (the version active at the read): its add would leave two active versions of f1, which log
  // replay refuses, and so does the check.
  TableWithBin check;
  delta::AddFile seen = F1();
  seen.deletion_vector = InlineDv({0, 5});
  check.ExpectRefused(OptimizeLoser(), {WinnerAt(1, DvDelete(seen, {0, 3, 5}))},
                      "two active versions");
}

TEST(ForwardRemap, RowOutsideTheRunAborts) {
  TableWithBin check;
  EXPECT_FALSE(check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {10}))})
                   .commits());  // f2 has rows 0..9
}

TEST(ForwardRemap, WinnerStartingFromOtherRowsIsRefusedOrRevivingAborts) {
  TableWithBin check;
  delta::AddFile other = F1();
  other.deletion_vector = InlineDv({1});  // not the DV the OPTIMIZE compacted: replay refuses
  check.ExpectRefused(OptimizeLoser(), {WinnerAt(1, DvDelete(other, {1, 3}))},
                      "two active versions");
  EXPECT_FALSE(
      check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F1(), {3}))}).commits());  // revives row 0
}

TEST(ForwardRemap, DvsMustBeWritable) {
  TableWithBin check;
  check.read_table.metadata.configuration = {};
  EXPECT_FALSE(check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {5}))}).commits());
  CaseCheck no_writer;
  EXPECT_FALSE(
      no_writer.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {5}))}, /*with_files=*/false)
          .commits());
}

TEST(ForwardRemap, SuccessiveWinnersOnOneSourceCompose) {
  // The reference aborts the second (its G4, docs/gaps.md#g4): the rebuilt tombstone lost the
  // tags. The run is kept here, so the second winner's new row maps through the same run.
  TableWithBin check;
  delta::AddFile after_first = F2();
  after_first.deletion_vector = InlineDv({5});
  const Verdict v = check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {5})),
                                                WinnerAt(2, DvDelete(after_first, {5, 7}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c1")->deletion_vector),
            (std::vector<uint64_t>{14, 16}));
  EXPECT_EQ(DvRows(check, Find<delta::RemoveFile>(v, "f2")->deletion_vector),
            (std::vector<uint64_t>{5, 7}));
  EXPECT_EQ(v.events.size(), 2u);
}

TEST(ForwardRemap, ARewriteOfTheSameDvIsRefusedAsReplayRefusesIt) {
  // f1's DV removed and added again with the same unique id in one commit (the reference's G16,
  // docs/gaps.md#g16): replay cannot tell whether the file stays, so it refuses the commit, and the
  // check, reading a winner as replay does, refuses it too.
  TableWithBin check;
  check.ExpectRefused(OptimizeLoser(), {WinnerAt(1, DvDelete(F1(), {0}))},
                      "added and removed with the same deletion vector");
}

// ---- 4b: the DML loses to the OPTIMIZE
// -----------------------------------------------------------

// A DELETE that read f2 through `id = 15` and deleted its row 5 by DV.
PendingTransaction DmlLoser(std::vector<std::string> flags = {kReverse}) {
  return LoserOf({"id = 15"}, {"f2"}, DvDelete(F2(), {5}), flags);
}

OptimizeOptions ReverseCapture() {
  OptimizeOptions o;
  o.flags = {kReverse};
  return o;
}

TEST(ReverseRemap, DmlDeletesMoveOntoTheOutput) {
  TableWithBin check;
  const Verdict v = check.Run(DmlLoser(), {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(Find<delta::AddFile>(v, "f2"), nullptr);  // the loser's actions on f2 are gone
  EXPECT_EQ(Find<delta::RemoveFile>(v, "f2"), nullptr);
  const auto* remove = Find<delta::RemoveFile>(v, "c1");
  const auto* add = Find<delta::AddFile>(v, "c1");
  ASSERT_NE(remove, nullptr);
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(remove->data_change);
  EXPECT_FALSE(remove->deletion_vector.has_value());  // the output had no DV
  EXPECT_TRUE(add->data_change);
  EXPECT_EQ(DvRows(check, add->deletion_vector), (std::vector<uint64_t>{14}));
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].name, kReverseRemappedEvent);
  EXPECT_EQ(v.events[0].data.at("remappedSources"), "1");
  EXPECT_EQ(v.events[0].data.at("outputsRemapped"), "1");
}

TEST(ReverseRemap, FlagOffAborts) {
  TableWithBin check;
  EXPECT_FALSE(check.Run(DmlLoser({}), {WinnerAt(1, Optimize(ReverseCapture()))}).commits());
}

TEST(ReverseRemap, OnlyAPureCompaction) {
  TableWithBin check;
  std::vector<Action> with_append = Optimize(ReverseCapture());
  with_append.push_back(AddOf("new", IdStats(1, 5, 5)));  // dataChange=true
  EXPECT_FALSE(check.Run(DmlLoser(), {WinnerAt(1, with_append)}).commits());
  std::vector<Action> changes_data = Optimize(ReverseCapture());
  std::get<delta::AddFile>(changes_data[3]).data_change =
      true;  // the output itself claims new data
  EXPECT_FALSE(check.Run(DmlLoser(), {WinnerAt(1, changes_data)}).commits());
  std::vector<Action> untagged = Optimize(ReverseCapture());
  std::get<delta::RemoveFile>(untagged[1]).tags.reset();
  EXPECT_FALSE(check.Run(DmlLoser(), {WinnerAt(1, untagged)}).commits());
  std::vector<Action> extra_output = Optimize(ReverseCapture());
  extra_output.push_back(AddOf("c2", IdStats(0, 0, 0), false));  // an add no source names
  EXPECT_FALSE(check.Run(DmlLoser(), {WinnerAt(1, extra_output)}).commits());
  // Tags on a ZORDER commit (copied from elsewhere: our capture refuses to write them) are refused.
  std::vector<Action> zordered = Optimize(ReverseCapture());
  std::get<delta::CommitInfo>(zordered[0])
      .operation_parameters.push_back({"zOrderBy", R"("[\"id\"]")"});
  EXPECT_FALSE(check.Run(DmlLoser(), {WinnerAt(1, zordered)}).commits());
}

TEST(ReverseRemap, LoserMustHaveReadTheSourceAsTheCompactionDid) {
  // The loser read f1 without a DV; the OPTIMIZE compacted it with row 0 deleted.
  TableWithBin check;
  delta::AddFile f1_without_dv = F1();
  f1_without_dv.deletion_vector.reset();
  const PendingTransaction loser =
      LoserOf({"id = 3"}, {"f1"}, DvDelete(f1_without_dv, {3}), {kReverse});
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))}).commits());
  // Read as compacted (row 0 deleted), the delete of row 3 lands at rank 2.
  const Verdict v = check.Run(LoserOf({"id = 3"}, {"f1"}, DvDelete(F1(), {0, 3}), {kReverse}),
                              {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c1")->deletion_vector),
            (std::vector<uint64_t>{2}));
}

TEST(ReverseRemap, LoserThatReadMoreDeletedRowsThanTheCompactionAborts) {
  // The loser read f1 with rows 0 and 1 deleted; the OPTIMIZE compacted it with only row 0 deleted,
  // so row 1 is live in c1. Remapping the loser's new row 3 alone would leave row 1 alive.
  TableWithBin check;
  delta::AddFile read_more = F1();
  read_more.deletion_vector = InlineDv({0, 1});
  const PendingTransaction loser =
      LoserOf({"id = 3"}, {"f1"}, DvDelete(read_more, {0, 1, 3}), {kReverse});
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))}).commits());
}

TEST(ReverseRemap, EveryTouchedSourceMustBeRemapped) {
  // H1 (docs/cases.md#h1): the loser also removed f1 outright; that cannot move onto the output.
  TableWithBin check;
  PendingTransaction loser = DmlLoser();
  loser.actions.push_back(RemoveOf("f1"));
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))}).commits());
}

TEST(ReverseRemap, ASourceRemovedWholeDeletesItsRunOnTheOutput) {
  // The DELETE removed f2 whole (all of ids 10..19): its run [9, 19) of c1 goes.
  TableWithBin check;
  const PendingTransaction loser =
      LoserOf({"id >= 10"}, {"f2"}, {InfoOf("DELETE"), RemoveOf("f2")}, {kReverse});
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(Find<delta::RemoveFile>(v, "f2"), nullptr);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c1")->deletion_vector),
            (std::vector<uint64_t>{9, 10, 11, 12, 13, 14, 15, 16, 17, 18}));
  // f1 read with row 0 deleted, as compacted: its 9 live rows [0, 9) go.
  delta::RemoveFile f1 = RemoveOf("f1");
  f1.deletion_vector = F1().deletion_vector;
  const Verdict both = check.Run(LoserOf({"id >= 0"}, {"f1"}, {InfoOf("DELETE"), f1}, {kReverse}),
                                 {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(both.commits()) << Show(both);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(both, "c1")->deletion_vector),
            (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(ReverseRemap, OtherLoserActionsAreKept) {
  TableWithBin check;
  PendingTransaction loser = DmlLoser({kReverse, "conflictDetection.dataSkipping.enabled"});
  loser.actions.push_back(AddOf("image", IdStats(1, 99, 99)));  // an UPDATE's new image
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_NE(Find<delta::AddFile>(v, "image"), nullptr);
}

TEST(ReverseRemap, ReadsFollowTheCompactedRows) {
  // The loser read f1 and f2 and, in the end, deleted nothing new (a no-op DV update of f1), so it
  // does not rewrite c1. After the remap its reads of f1 and f2 are reads of c1: a later winner
  // deleting c1 outright must still conflict with it.
  TableWithBin check;
  const PendingTransaction loser =
      LoserOf({"id = 3"}, {"f1", "f2"}, DvDelete(F1(), {0}), {kReverse});
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture())),
                                      WinnerAt(2, {InfoOf("DELETE"), RemoveOf("c1")})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->winner_version, 2);
  EXPECT_EQ(v.abort->path, "c1");
}

TEST(ReverseRemap, NoNewRowDropsTheNoOpWithoutTouchingTheOutput) {
  TableWithBin check;
  const PendingTransaction loser = LoserOf({"id = 3"}, {"f1"}, DvDelete(F1(), {0}), {kReverse});
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(ReverseCapture()))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(Find<delta::AddFile>(v, "c1"), nullptr);
  EXPECT_EQ(v.events[0].data.at("outputsRemapped"), "0");
}

}  // namespace
}  // namespace rlc::conflict

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders

// A compaction whose tags still tile c1 but miscount its two sources: f1 claims 11 physical rows
// (10 live) and f2 starts one row later with 9. A DELETE of f2's first row would land on f1's
// last row of c1.
std::vector<delta::Action> MiscountedOptimize() {
  std::vector<delta::Action> optimize = Optimize();
  auto& f1 = std::get<delta::RemoveFile>(optimize[1]);
  auto& f2 = std::get<delta::RemoveFile>(optimize[2]);
  delta::WriteCompositionTags({"c1", 0, 11}, &*f1.tags);
  delta::WriteCompositionTags({"c1", 10, 9}, &*f2.tags);
  return optimize;
}

TEST(CompositionTags, CountsMustAgreeWithTheTable) {
  // f1 holds 10 physical rows, not 11: the tags are refuted without reading a row, both ways.
  TableWithBin check;
  EXPECT_FALSE(check
                   .Run(LoserOf({}, {"f1", "f2"}, MiscountedOptimize(), {kForward}),
                        {WinnerAt(1, DvDelete(F2(), {0}))})
                   .commits());
  PendingTransaction dml = LoserOf({"id = 10"}, {"f2"}, DvDelete(F2(), {0}), {kReverse});
  EXPECT_FALSE(check.Run(dml, {WinnerAt(1, MiscountedOptimize())}).commits());
  // Honest tags reconcile both ways.
  EXPECT_TRUE(check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {0}))}).commits());
  EXPECT_TRUE(check.Run(dml, {WinnerAt(1, Optimize({.flags = {kReverse}}))}).commits());
}

TEST(CompositionTags, RowsMustBeWhereTheTagsSay) {
  // Counts that agree with the table, but runs swapped: f2's rows written first in c1 while the
  // tags say f1's are. With rows to read, the runs are refuted; without, the counts are trusted.
  TableWithBin check;
  std::vector<int64_t> f1_ids, f2_ids, c1_ids;
  for (int64_t id = 0; id < 10; ++id) f1_ids.push_back(id);
  for (int64_t id = 10; id < 20; ++id) f2_ids.push_back(id);
  check.files.PutRows("f1", IdRows(f1_ids));
  check.files.PutRows("f2", IdRows(f2_ids));
  c1_ids = f2_ids;  // f2's 10 rows, then f1's 9 live ones (id 0 was deleted)
  c1_ids.insert(c1_ids.end(), f1_ids.begin() + 1, f1_ids.end());
  check.files.PutRows("c1", IdRows(c1_ids));
  EXPECT_FALSE(check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {0}))}).commits());
  // Written as the tags say, the runs hold: the delete of id 10 lands on c1's position 9.
  c1_ids = std::vector<int64_t>(f1_ids.begin() + 1, f1_ids.end());
  c1_ids.insert(c1_ids.end(), f2_ids.begin(), f2_ids.end());
  check.files.PutRows("c1", IdRows(c1_ids));
  const Verdict v = check.Run(OptimizeLoser(), {WinnerAt(1, DvDelete(F2(), {0}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, Find<delta::AddFile>(v, "c1")->deletion_vector),
            (std::vector<uint64_t>{9}));
}

}  // namespace
}  // namespace rlc::conflict
