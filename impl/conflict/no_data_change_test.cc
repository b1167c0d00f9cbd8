// Case 3 (conflictDetection.excludeNoDataChangeFiles.enabled), end to end through the checker:
// one test per rule and per guard of no_data_change.h.
#include "impl/conflict/no_data_change.h"

#include <gtest/gtest.h>

#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/case_test_support.h"

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders
using delta::Action;

constexpr char kFlag[] = "conflictDetection.excludeNoDataChangeFiles.enabled";

// An UPDATE loser that read f1 (id > 5) and rewrote it; unpartitioned, so every counted add
// conflicts unless a case leaves it out.
PendingTransaction UpdateLoser(bool flag = true) {
  return LoserOf({"id > 5"}, {"f1"},
                 {InfoOf("UPDATE"), RemoveOf("f1"), AddOf("f1-new", IdStats(10, 0, 9))},
                 flag ? std::vector<std::string>{kFlag} : std::vector<std::string>{});
}

// An INSERT ... SELECT loser: read f1, only appends (append-only as docs/cases.md#c-3 means it).
PendingTransaction AppendOnlyLoser() {
  return LoserOf({"id > 5"}, {"f1"}, {InfoOf("WRITE"), AddOf("new", IdStats(3, 0, 2))}, {kFlag});
}

// OPTIMIZE of f2 (10 rows, ids 0..9, 2 deleted) and f3 (5 rows, ids 20..24) into c1.
std::vector<Action> Optimize(int64_t output_rows, int64_t output_min = 0, int64_t output_max = 24) {
  delta::RemoveFile f2 = RemoveOf("f2", false);
  f2.stats = IdStats(10, 0, 9);
  f2.deletion_vector = InlineDv({3, 4});
  delta::RemoveFile f3 = RemoveOf("f3", false);
  f3.stats = IdStats(5, 20, 24);
  return {InfoOf("OPTIMIZE"), f2, f3,
          AddOf("c1", IdStats(output_rows, output_min, output_max), false)};
}

// The read snapshot: f1 (the loser's read), and the OPTIMIZE's sources f2 and f3 as Optimize()
// removes them. A remove counts as the version the table holds, not as the remover describes it.
struct TableWithSources : CaseCheck {
  TableWithSources() {
    Active(AddOf("f1", IdStats(10, 0, 9)));
    delta::AddFile f2 = AddOf("f2", IdStats(10, 0, 9));
    f2.deletion_vector = InlineDv({3, 4});
    Active(f2);
    Active(AddOf("f3", IdStats(5, 20, 24)));
  }
};

TEST(NoDataChange, FlagOffARelocationIsAChangedDataAdd) {
  TableWithSources check;
  const Verdict v = check.Run(UpdateLoser(false), {WinnerAt(1, Optimize(13))});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentAppend);
  EXPECT_EQ(v.abort->path, "c1");
}

TEST(NoDataChange, ConservedOptimizeLeavesTheAppendCheck) {
  TableWithSources check;
  const Verdict v = check.Run(UpdateLoser(), {WinnerAt(1, Optimize(13))});
  EXPECT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(v.actions, UpdateLoser().actions);  // Case 3 filters, never rewrites
  EXPECT_TRUE(v.events.empty());                // and has no event
}

TEST(NoDataChange, LoneNoDataChangeAddOfANewPathConflicts) {
  // The reference trusts dataChange=false; a writer that adds rows under it must still conflict.
  TableWithSources check;
  const Verdict v = check.Run(
      UpdateLoser(), {WinnerAt(1, {InfoOf("OPTIMIZE"), AddOf("sneaky", IdStats(4, 6, 9), false)})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentAppend);
  EXPECT_EQ(v.abort->path, "sneaky");
}

TEST(NoDataChange, StatisticsOnlyReAddOfAnActiveFileLeavesTheAppendCheck) {
  TableWithSources check;
  check.Active(AddOf("f9", R"({"numRecords":10})"));
  const Verdict v =
      check.Run(UpdateLoser(),
                {WinnerAt(1, {InfoOf("COMPUTE STATS"), AddOf("f9", IdStats(10, 0, 9), false)})});
  EXPECT_TRUE(v.commits()) << Show(v);
}

TEST(NoDataChange, ReAddWithAnotherDvThanTheReadSnapshotsIsNotStatisticsOnly) {
  TableWithSources check;
  check.Active(AddOf("f9", R"({"numRecords":10})"));
  delta::AddFile re_add = AddOf("f9", IdStats(10, 0, 9), false);
  re_add.deletion_vector = InlineDv({1});
  // Without a remove of the version active at the read, the log would hold two: replay refuses
  // the commit, and so does the check.
  check.ExpectRefused(UpdateLoser(), {WinnerAt(1, {InfoOf("COMPUTE STATS"), re_add})},
                      "two active versions");
  // With that remove, it is a DV update, and no statistics-only re-add.
  delta::RemoveFile remove = RemoveOf("f9");
  remove.data_change = false;
  const Verdict v =
      check.Run(UpdateLoser(), {WinnerAt(1, {InfoOf("COMPUTE STATS"), remove, re_add})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->path, "f9");
}

TEST(NoDataChange, ReAddInAnotherPartitionIsNotStatisticsOnly) {
  // A dataChange=false re-add of the very version the loser read, but under other partition
  // values, moves the file's rows into that partition: no statistics-only re-add.
  TableWithSources check;
  delta::AddFile at_read = AddOf("f9", IdStats(10, 0, 9));
  at_read.partition_values = {{"part", "0"}};
  check.Active(at_read);
  delta::AddFile moved = at_read;
  moved.data_change = false;
  moved.partition_values = {{"part", "1"}};
  const Verdict v = check.Run(UpdateLoser(), {WinnerAt(1, {InfoOf("COMPUTE STATS"), moved})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->path, "f9");
  // The same re-add in its own partition is one.
  delta::AddFile same = at_read;
  same.data_change = false;
  EXPECT_TRUE(check.Run(UpdateLoser(), {WinnerAt(1, {InfoOf("COMPUTE STATS"), same})}).commits());
}

TEST(NoDataChange, ReAddOfAFileAnEarlierWinnerRemovedIsNotStatisticsOnly) {
  // Winner 1 deletes f9 outright (the loser did not read it); winner 2 brings it back with
  // dataChange=false: rows reappear, so it is not a statistics-only re-add.
  TableWithSources check;
  check.Active(AddOf("f9", R"({"numRecords":10})"));
  const Verdict v = check.Run(
      UpdateLoser(), {WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f9")}),
                      WinnerAt(2, {InfoOf("RESTORE"), AddOf("f9", IdStats(10, 0, 9), false)})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->winner_version, 2);
  EXPECT_EQ(v.abort->path, "f9");
}

TEST(NoDataChange, UnequalLiveRowCountsAreNotARelocation) {
  // f2 holds 8 live rows (10 minus a DV of 2) and f3 5: an output of 15 rows adds two.
  TableWithSources check;
  const Verdict v = check.Run(UpdateLoser(), {WinnerAt(1, Optimize(15))});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->path, "c1");
}

TEST(NoDataChange, OutputBoundsOutsideTheSourcesAreNotARelocation) {
  TableWithSources check;
  EXPECT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, Optimize(13, 0, 99))}).commits());
  EXPECT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, Optimize(13, -1, 24))}).commits());
}

TEST(NoDataChange, UnknownRowCountIsNotARelocation) {
  TableWithSources check;
  check.Active(AddOf("f3", std::nullopt));  // f3: no statistics in the table
  std::vector<Action> optimize = Optimize(13);
  std::get<delta::RemoveFile>(optimize[2]).stats.reset();
  EXPECT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, optimize)}).commits());
  // The active add supplies the count when the remove has none.
  check.Active(AddOf("f3", IdStats(5, 20, 24)));
  EXPECT_TRUE(check.Run(UpdateLoser(), {WinnerAt(1, optimize)}).commits());
}

TEST(NoDataChange, TheRemoversCountIsNotTrusted) {
  // The remove claims f3 held 3 rows (so that 11 live rows seem to go in and come out); the
  // table says 5: the counts then do not match, and neither do the remove's statistics.
  TableWithSources check;
  std::vector<Action> optimize = Optimize(11);
  std::get<delta::RemoveFile>(optimize[2]).stats = IdStats(3, 20, 24);
  ASSERT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, optimize)}).commits());
  // A remove of a version the table does not hold is no relocation either.
  std::vector<Action> ghost = Optimize(13);
  std::get<delta::RemoveFile>(ghost[2]).deletion_vector = InlineDv({0});
  std::get<delta::RemoveFile>(ghost[2]).stats.reset();
  EXPECT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, ghost)}).commits());
}

TEST(NoDataChange, RowsMovedIntoAnotherPartitionAreNoRelocation) {
  // part=a/f1 (ids 0..3) is "relocated" into part=b/c1 and part=a/c2: four rows in, four rows out,
  // bounds enclosed, but partition b gains a row it never had and partition a loses one.
  TableWithSources check;
  check.read_table.metadata = TestTable({"part"});
  delta::AddFile source = AddOf("part=a/f1", IdStats(4, 0, 3));
  source.partition_values = {{"part", "a"}};
  check.Active(source);
  delta::AddFile moved = AddOf("part=b/c1", IdStats(1, 3, 3), false);
  moved.partition_values = {{"part", "b"}};
  delta::AddFile kept = AddOf("part=a/c2", IdStats(3, 0, 2), false);
  kept.partition_values = {{"part", "a"}};
  delta::RemoveFile r = RemoveOf("part=a/f1", false);
  const std::vector<Action> relocation = {InfoOf("OPTIMIZE"), r, moved, kept};
  // An INSERT ... SELECT that read partition a: a row of it is gone, yet the commit counts match.
  const PendingTransaction loser = LoserOf(
      {"part = 'a'"}, {"part=a/f1"}, {InfoOf("WRITE"), AddOf("new", IdStats(2, 10, 11))}, {kFlag});
  const Verdict v = check.Run(loser, {WinnerAt(1, relocation)});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentAppend);
  EXPECT_EQ(v.abort->path, "part=a/c2");
  // Kept within its partition, the same relocation leaves the append check.
  moved.path = "part=a/c1";
  moved.partition_values = {{"part", "a"}};
  EXPECT_TRUE(check.Run(loser, {WinnerAt(1, {InfoOf("OPTIMIZE"), r, moved, kept})}).commits());
}

TEST(NoDataChange, DvLargerThanItsFileIsNotARelocation) {
  TableWithSources check;
  delta::RemoveFile f2 = RemoveOf("f2", false);
  f2.stats = IdStats(1, 0, 9);
  f2.deletion_vector = InlineDv({0, 1, 2});  // deletes 3 of 1 rows: 1 - 3 = -2 live
  const std::vector<Action> bad = {InfoOf("OPTIMIZE"), f2, RemoveOf("f4", false),
                                   AddOf("c1", IdStats(0, 0, 9), false)};
  check.Active(AddOf("f4", IdStats(2, 0, 9)));  // 2 live: the totals would balance at 0
  EXPECT_FALSE(check.Run(UpdateLoser(), {WinnerAt(1, bad)}).commits());
}

TEST(NoDataChange, RelocatedReadFileLeavesRemovedVsReadForAnAppendOnlyLoser) {
  TableWithSources check;
  check.Active(AddOf("f1", IdStats(4, 6, 9)));
  delta::RemoveFile f1 = RemoveOf("f1", false);
  f1.stats = IdStats(4, 6, 9);
  const std::vector<Action> optimize = {InfoOf("OPTIMIZE"), f1,
                                        AddOf("c1", IdStats(4, 6, 9), false)};
  const Verdict v = check.Run(AppendOnlyLoser(), {WinnerAt(1, optimize)});
  EXPECT_TRUE(v.commits()) << Show(v);
  // A DML loser (it removes) still gets ConcurrentDeleteReadException.
  PendingTransaction dml = AppendOnlyLoser();
  dml.actions.push_back(RemoveOf("f0"));
  const Verdict dml_verdict = check.Run(dml, {WinnerAt(1, optimize)});
  ASSERT_FALSE(dml_verdict.commits());
  EXPECT_EQ(dml_verdict.abort->kind, ConflictKind::kConcurrentDeleteRead);
  // So does a loser whose add carries a DV.
  PendingTransaction dv_loser = AppendOnlyLoser();
  delta::AddFile with_dv = AddOf("f0", IdStats(3, 0, 2));
  with_dv.deletion_vector = InlineDv({0});
  dv_loser.actions.push_back(with_dv);
  EXPECT_EQ(check.Run(dv_loser, {WinnerAt(1, optimize)}).abort->kind,
            ConflictKind::kConcurrentDeleteRead);
}

TEST(NoDataChange, UnconservedNoDataChangeRemoveIsADeleteEvenForAnAppendOnlyLoser) {
  TableWithSources check;
  delta::RemoveFile f1 = RemoveOf("f1", false);
  f1.stats = IdStats(4, 6, 9);  // 4 live rows leave, none arrive
  const Verdict v = check.Run(AppendOnlyLoser(), {WinnerAt(1, {InfoOf("OPTIMIZE"), f1})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->path, "f1");
}

TEST(NoDataChange, WholeTableReadOfAnAppendOnlyLoserIgnoresARelocation) {
  TableWithSources check;
  PendingTransaction loser = AppendOnlyLoser();
  loser.read_whole_table = true;
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(13))});
  EXPECT_TRUE(v.commits()) << Show(v);
  loser.flags.SetCase(CaseId::kExcludeNoDataChange, false);
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, Optimize(13))}).commits());
}

TEST(NoDataChange, RemovedVsRemovedIsUnchanged) {
  TableWithSources check;
  PendingTransaction loser = UpdateLoser();
  loser.actions.push_back(RemoveOf("f2"));
  const Verdict v = check.Run(loser, {WinnerAt(1, Optimize(13))});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteDelete);
  EXPECT_EQ(v.abort->path, "f2");
}

TEST(NoDataChange, GenuineChangesAreAlwaysKept) {
  TableWithSources check;
  std::vector<Action> mixed = Optimize(13);
  mixed.push_back(AddOf("appended", IdStats(1, 7, 7)));  // dataChange=true
  const Verdict v = check.Run(UpdateLoser(), {WinnerAt(1, mixed)});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->path, "appended");
}

TEST(NoDataChange, AppendOnlyMeansNoRemoveAndNoDvAdd) {
  EXPECT_TRUE(IsAppendOnly(AppendOnlyLoser()));
  EXPECT_FALSE(IsAppendOnly(UpdateLoser()));
  PendingTransaction t = AppendOnlyLoser();
  delta::AddFile a = AddOf("x", std::nullopt);
  a.deletion_vector = InlineDv({2});
  t.actions.push_back(a);
  EXPECT_FALSE(IsAppendOnly(t));
}

}  // namespace
}  // namespace rlc::conflict

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders

TEST(NoDataChange, ReadsFollowRelocatedRows) {
  // Found by tests/property/reconcile_filters_property_test.cc: winner 1 relocates f1 (which the
  // append-only loser read) into c1; winner 2 then deletes c1 outright. The loser's read rows are
  // gone: c1 must count as read once the relocation left removed-vs-read.
  TableWithSources check;
  check.Active(AddOf("f1", IdStats(4, 6, 9)));
  delta::RemoveFile f1 = RemoveOf("f1", false);
  f1.stats = IdStats(4, 6, 9);
  const std::vector<delta::Action> optimize = {InfoOf("OPTIMIZE"), f1,
                                               AddOf("c1", IdStats(4, 6, 9), false)};
  const Verdict v =
      check.Run(LoserOf({"id > 5"}, {"f1"}, {InfoOf("WRITE"), AddOf("new", IdStats(3, 0, 2))},
                        {"conflictDetection.excludeNoDataChangeFiles.enabled"}),
                {WinnerAt(1, optimize), WinnerAt(2, {InfoOf("DELETE"), RemoveOf("c1")})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->winner_version, 2);
  EXPECT_EQ(v.abort->path, "c1");
}

}  // namespace
}  // namespace rlc::conflict
