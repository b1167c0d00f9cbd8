// Case 2 (rowLevelConcurrency.enabled), end to end through the checker: one test per rule and per
// guard of row_level_concurrency.h and kernel/dv_merge.h.
#include "impl/conflict/row_level_concurrency.h"

#include <gtest/gtest.h>

#include "impl/conflict/case_test_support.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/delta/stats.h"

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders
using delta::Action;

constexpr char kRlc[] = "rowLevelConcurrency.enabled";
constexpr char kSkipping[] = "conflictDetection.dataSkipping.enabled";

// A DELETE by DV of `path`: remove(path, old) + add(path, new).
std::vector<Action> DvDelete(const std::string& operation, const std::string& path,
                             std::vector<uint64_t> old_dv, std::vector<uint64_t> new_dv) {
  delta::RemoveFile r = RemoveOf(path);
  if (!old_dv.empty()) r.deletion_vector = InlineDv(old_dv);
  delta::AddFile a = AddOf(path, IdStats(10, 0, 9));
  a.deletion_vector = InlineDv(new_dv);
  a.tags = delta::StringMap{{"INSERTION_TIME", "1"}};
  return {InfoOf(operation), r, a};
}

// The loser: a DELETE that read f1 through `id = <row>` and deleted `rows` by DV.
PendingTransaction Loser(std::vector<uint64_t> old_dv, std::vector<uint64_t> new_dv,
                         std::vector<std::string> flags = {kRlc}) {
  std::vector<Action> actions = DvDelete("DELETE", "f1", std::move(old_dv), std::move(new_dv));
  return LoserOf({"id = 3"}, {"f1"}, actions, flags);
}

std::vector<uint64_t> DvRows(CaseCheck& check, const std::optional<dv::DvDescriptor>& d) {
  if (!d.has_value()) return {};
  Result<dv::RowBitmap> rows = delta::LoadDeletionVector(check.storage, "/t", *d);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? rows->ToVector() : std::vector<uint64_t>{};
}

// f1 and f2 hold ids 0..9 at positions 0..9: Case 2 reads the rows a winner newly deleted.
struct RowsCheck : CaseCheck {
  RowsCheck() {
    for (const char* path : {"f1", "f2"}) {
      files.PutRows(path, IdRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
      Active(AddOf(path, IdStats(10, 0, 9)));  // in the read snapshot, without a DV
    }
  }
};

const delta::AddFile* FindAdd(const Verdict& v, const std::string& path) {
  for (const Action& a : v.actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->path == path) return add;
  }
  return nullptr;
}

const delta::RemoveFile* FindRemove(const Verdict& v, const std::string& path) {
  for (const Action& a : v.actions) {
    if (const auto* r = std::get_if<delta::RemoveFile>(&a); r && r->path == path) return r;
  }
  return nullptr;
}

TEST(RowLevelConcurrency, DisjointDeletesMergeTheirDvs) {
  RowsCheck check;
  const Verdict v = check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  const delta::AddFile* add = FindAdd(v, "f1");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(DvRows(check, add->deletion_vector),
            (std::vector<uint64_t>{3, 7}));  // read back from the file
  EXPECT_EQ(add->deletion_vector->storage_type, 'u');
  EXPECT_TRUE(add->data_change);
  EXPECT_FALSE(delta::ParseStats(*add->stats)->tight_bounds);
  // The remove now replaces the winner's file: its DV, its tags, dataChange=true.
  const delta::RemoveFile* remove = FindRemove(v, "f1");
  ASSERT_NE(remove, nullptr);
  EXPECT_EQ(DvRows(check, remove->deletion_vector), (std::vector<uint64_t>{7}));
  EXPECT_TRUE(remove->data_change);
  EXPECT_EQ(remove->extended_file_metadata, true);
  EXPECT_EQ(remove->deletion_timestamp_ms, 1700000000000);
  EXPECT_EQ(remove->tags, (delta::StringMap{{"INSERTION_TIME", "1"}}));
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].name, kDeletionVectorsMergedEvent);
  EXPECT_EQ(v.events[0].data.at("winningCommitVersion"), "1");
  EXPECT_EQ(v.events[0].data.at("resolvedPaths"), "1");
  EXPECT_EQ(v.events[0].data.at("winningOperation"), "DELETE");
}

// An add with a DV must give numRecords (commit rule 5): a loser whose DV update carries no count
// (the file was added without statistics) would commit a merged add the log calls corrupt.
TEST(RowLevelConcurrency, ALoserAddWithoutARowCountIsNotMerged) {
  RowsCheck check;
  PendingTransaction loser = Loser({}, {3});
  for (Action& a : loser.actions) {
    if (auto* add = std::get_if<delta::AddFile>(&a)) add->stats.reset();
  }
  const Verdict v = check.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))});
  EXPECT_FALSE(v.commits()) << Show(v);
}

TEST(RowLevelConcurrency, FlagOffAborts) {
  CaseCheck check;
  EXPECT_FALSE(
      check.Run(Loser({}, {3}, {}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
}

TEST(RowLevelConcurrency, SameRowDeletedByBothAborts) {
  CaseCheck check;
  const Verdict v =
      check.Run(Loser({}, {3, 4}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {4, 7}))});
  ASSERT_FALSE(v.commits());
  EXPECT_TRUE(v.events.empty());
}

TEST(RowLevelConcurrency, RowsDeletedBeforeTheReadAreNotAnOverlap) {
  RowsCheck check;
  delta::AddFile read = AddOf("f1", IdStats(10, 0, 9));
  read.deletion_vector = InlineDv({1});
  check.Active(read);
  const Verdict v =
      check.Run(Loser({1}, {1, 3}), {WinnerAt(1, DvDelete("DELETE", "f1", {1}, {1, 7}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, FindAdd(v, "f1")->deletion_vector), (std::vector<uint64_t>{1, 3, 7}));
}

TEST(RowLevelConcurrency, WinnerStartingFromOtherRowsAborts) {
  // The winner removed f1 with DV {2}; the loser read it with no DV: not the same pre-image.
  CaseCheck check;
  EXPECT_FALSE(
      check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {2}, {2, 7}))}).commits());
}

TEST(RowLevelConcurrency, ARevivedRowAborts) {
  CaseCheck check;
  // The loser drops row 1 from the DV it read (a revival): the union would undo it.
  EXPECT_FALSE(
      check.Run(Loser({1}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {1}, {1, 7}))}).commits());
  // The winner revives row 1.
  EXPECT_FALSE(
      check.Run(Loser({1}, {1, 3}), {WinnerAt(1, DvDelete("DELETE", "f1", {1}, {7}))}).commits());
}

TEST(RowLevelConcurrency, DvsMustBeWritable) {
  CaseCheck check;
  check.read_table.metadata.configuration = {{"delta.isolationLevel", "WriteSerializable"}};
  EXPECT_FALSE(
      check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
  CaseCheck no_feature;
  no_feature.read_table.protocol.writer_features = std::vector<std::string>{};
  EXPECT_FALSE(
      no_feature.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
}

TEST(RowLevelConcurrency, NoDvWriterAborts) {
  CaseCheck check;
  EXPECT_FALSE(check
                   .Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))},
                        /*with_files=*/false)
                   .commits());
}

TEST(RowLevelConcurrency, UnreadableDvLeavesTheFileUnresolved) {
  CaseCheck check;
  std::vector<Action> winner = DvDelete("DELETE", "f1", {}, {7});
  std::get<delta::AddFile>(winner[2]).deletion_vector->cardinality = 2;  // the loader refuses it
  EXPECT_FALSE(check.Run(Loser({}, {3}), {WinnerAt(1, winner)}).commits());
}

TEST(RowLevelConcurrency, SuccessiveWinnersCompose) {
  RowsCheck check;
  const Verdict v = check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {2})),
                                               WinnerAt(2, DvDelete("DELETE", "f1", {2}, {2, 4}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, FindAdd(v, "f1")->deletion_vector), (std::vector<uint64_t>{2, 3, 4}));
  EXPECT_EQ(DvRows(check, FindRemove(v, "f1")->deletion_vector),
            (std::vector<uint64_t>{2, 4}));  // winner 2's
  EXPECT_EQ(v.events.size(), 2u);
}

TEST(RowLevelConcurrency, WinnerRemovingTheWholeFileAborts) {
  CaseCheck check;
  const Verdict v = check.Run(Loser({}, {3}), {WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f1")})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
}

TEST(RowLevelConcurrency, EachFileIsDecidedOnItsOwn) {
  // f1's deletes are disjoint, f2's overlap: f1 merges, f2 still conflicts, so the loser aborts.
  RowsCheck check;
  std::vector<Action> loser_actions = DvDelete("DELETE", "f1", {}, {3});
  std::vector<Action> f2 = DvDelete("DELETE", "f2", {}, {5});
  loser_actions.insert(loser_actions.end(), f2.begin() + 1, f2.end());
  PendingTransaction loser = LoserOf({"id = 3"}, {"f1", "f2"}, loser_actions, {kRlc});
  std::vector<Action> winner = DvDelete("DELETE", "f1", {}, {7});
  std::vector<Action> w2 = DvDelete("DELETE", "f2", {}, {5});
  winner.insert(winner.end(), w2.begin() + 1, w2.end());
  const Verdict v = check.Run(loser, {WinnerAt(1, winner)});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->path, "f2");
}

TEST(RowLevelConcurrency, DeleteAgainstUpdateOnDisjointRowsReconcilesWithCase1) {
  // The UPDATE winner moved row 7 of f1 (id 7 -> 15) into a new file u1; the DELETE loser deleted
  // row 3 (id 3). Case 2 merges f1's DVs; Case 1 prunes u1 (it cannot hold id = 3).
  RowsCheck check;
  std::vector<Action> update = DvDelete("UPDATE", "f1", {}, {7});
  update.push_back(AddOf("u1", IdStats(1, 15, 15)));
  const Verdict v = check.Run(Loser({}, {3}, {kRlc, kSkipping}), {WinnerAt(1, update)});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(DvRows(check, FindAdd(v, "f1")->deletion_vector), (std::vector<uint64_t>{3, 7}));
  // With rowLevelConcurrency alone, the image file is an append the loser should have seen.
  const Verdict alone = check.Run(Loser({}, {3}, {kRlc}), {WinnerAt(1, update)});
  ASSERT_FALSE(alone.commits());
  EXPECT_EQ(alone.abort->kind, ConflictKind::kConcurrentAppend);
  EXPECT_EQ(alone.abort->path, "u1");
}

TEST(RowLevelConcurrency, ResolvedPathsStayRead) {
  // A later winner removing f1 outright still meets the loser's read of f1.
  RowsCheck check;
  const Verdict v = check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7})),
                                               WinnerAt(2, {InfoOf("DELETE"), RemoveOf("f1")})});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->winner_version, 2);
  // After the merge, the loser's read files still hold f1.
  const Verdict merged =
      check.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))});
  ASSERT_TRUE(merged.commits()) << Show(merged);
  EXPECT_EQ(merged.read_files, (std::vector<std::string>{"f1"}));
}

TEST(RowLevelConcurrency, WinnerDeletingARowTheLoserReadAborts) {
  // The loser deleted row 3 and also read id 7 (a MERGE whose key rows it did not all change);
  // the winner deleted row 7. Disjoint DVs, but the loser read a row the winner deleted.
  RowsCheck check;
  PendingTransaction loser =
      LoserOf({"id = 3 OR id = 7"}, {"f1"}, DvDelete("MERGE", "f1", {}, {3}), {kRlc});
  const Verdict v = check.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))});
  ASSERT_FALSE(v.commits());
  EXPECT_TRUE(v.events.empty());
  // A winner deleting a row the loser did not read still merges.
  const Verdict other = check.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {8}))});
  EXPECT_TRUE(other.commits()) << Show(other);
}

TEST(RowLevelConcurrency, AWholeTableReadAborts) {
  RowsCheck check;
  PendingTransaction loser = Loser({}, {3});
  loser.read_whole_table = true;
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
}

TEST(RowLevelConcurrency, UnreadableRowsAbortUnlessStatisticsClearTheFile) {
  CaseCheck no_rows;  // no row reader for f1
  no_rows.Active(AddOf("f1", IdStats(10, 0, 9)));
  EXPECT_FALSE(
      no_rows.Run(Loser({}, {3}), {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
  // The pre-image's statistics (ids 0..9) rule out every read row: no row needs reading.
  PendingTransaction loser =
      LoserOf({"id = 50"}, {"f1"}, DvDelete("DELETE", "f1", {}, {3}), {kRlc});
  EXPECT_TRUE(no_rows.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
}

TEST(RowLevelConcurrency, AVersionTheReadSnapshotDoesNotHoldIsRefused) {
  // Both removed f1 with DV {1}, but the loser's snapshot held f1 without a DV: the winner's add
  // would leave two active versions of f1, which log replay refuses, and so does the check (no
  // merge on a version the log never had active).
  RowsCheck check;
  check.ExpectRefused(Loser({1}, {1, 3}), {WinnerAt(1, DvDelete("DELETE", "f1", {1}, {1, 7}))},
                      "two active versions");
}

TEST(RowLevelConcurrency, ALoserWithoutReadPredicatesAborts) {
  RowsCheck check;
  PendingTransaction loser = LoserOf({}, {"f1"}, DvDelete("DELETE", "f1", {}, {3}), {kRlc});
  EXPECT_FALSE(check.Run(loser, {WinnerAt(1, DvDelete("DELETE", "f1", {}, {7}))}).commits());
}

}  // namespace
}  // namespace rlc::conflict
