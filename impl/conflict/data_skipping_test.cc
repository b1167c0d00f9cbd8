// Case 1 (statistics and exact tiers) and 1b, end to end through the checker: one test per rule
// and per guard of data_skipping.h.
#include "impl/conflict/data_skipping.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/case_test_support.h"

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders
using delta::Action;

constexpr char kSkipping[] = "conflictDetection.dataSkipping.enabled";
constexpr char kExact[] = "conflictDetection.dataSkipping.valueExact.enabled";

// A DELETE loser on an unpartitioned table: read f1 through `predicate`, rewrote it.
PendingTransaction DeleteLoser(std::vector<std::string> flags,
                               std::vector<std::string> predicates = {"id > 5"}) {
  return LoserOf(std::move(predicates), {"f1"}, {InfoOf("DELETE"), RemoveOf("f1")}, flags);
}

// One appending winner (not blind) with these files.
WinningCommit Append(std::vector<delta::AddFile> adds) {
  std::vector<Action> actions = {InfoOf("WRITE")};
  for (delta::AddFile& a : adds) actions.push_back(std::move(a));
  return WinnerAt(1, actions);
}

void ExpectAppendAbortOn(const Verdict& v, const std::string& path) {
  ASSERT_FALSE(v.commits()) << "expected ConcurrentAppendException on " << path;
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentAppend) << Show(v);
  EXPECT_EQ(v.abort->path, path);
}

const Event* FindEvent(const Verdict& v, const std::string& name) {
  for (const Event& e : v.events) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// ---- statistics tier -----------------------------------------------------------------------

TEST(DataSkipping, FlagOffEveryAddConflicts) {
  CaseCheck check;
  ExpectAppendAbortOn(check.Run(DeleteLoser({}), {Append({AddOf("w1", IdStats(3, 0, 4))})}), "w1");
}

TEST(DataSkipping, StatisticsExcludeTheAddAndTheEventCountsIt) {
  CaseCheck check;
  const Verdict v =
      check.Run(DeleteLoser({kSkipping}),
                {Append({AddOf("w1", IdStats(3, 0, 4)), AddOf("w2", IdStats(2, -9, 5))})});
  ASSERT_TRUE(v.commits()) << Show(v);
  EXPECT_EQ(v.actions, DeleteLoser({kSkipping}).actions);
  const Event* e = FindEvent(v, kFilesSkippedEvent);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->winner_version, 1);
  EXPECT_EQ(e->data.at("candidateFiles"), "2");
  EXPECT_EQ(e->data.at("skippedFiles"), "2");
  EXPECT_EQ(e->data.count("arm"), 0u);
}

TEST(DataSkipping, OnlyTheFilesThatMayMatchSurvive) {
  CaseCheck check;
  const Verdict v =
      check.Run(DeleteLoser({kSkipping}),
                {Append({AddOf("w1", IdStats(3, 0, 4)), AddOf("w2", IdStats(2, 4, 6))})});
  ExpectAppendAbortOn(v, "w2");
  const Event* e = FindEvent(v, kFilesSkippedEvent);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->data.at("candidateFiles"), "2");
  EXPECT_EQ(e->data.at("skippedFiles"), "1");
}

TEST(DataSkipping, MissingStatisticsKeepTheAdd) {
  CaseCheck check;
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}), {Append({AddOf("w1", std::nullopt)})}),
                      "w1");
  // numRecords alone says nothing about id.
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}), {Append({AddOf("w1", R"({"numRecords":3})")})}), "w1");
}

TEST(DataSkipping, UnparsableStatisticsKeepTheAdd) {
  CaseCheck check;
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}),
                {Append({AddOf("w1", R"({"numRecords":3,"nullCount":{"id":"x"}})")})}),
      "w1");
}

// A numRecords that is no count makes the winner's commit corrupt, for replay and the check alike
// (delta/commit_rules.h, rule 5): the check refuses it rather than judge it.
TEST(DataSkipping, ANumRecordsThatIsNoCountMakesTheWinnerCorrupt) {
  CaseCheck check;
  CheckEnvironment env;
  env.files = &check.files;
  const Result<Verdict> v =
      CheckConflicts(DeleteLoser({kSkipping}), check.read_table,
                     {Append({AddOf("w1", R"({"numRecords":"many"})")})}, env);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(v.status().message().find("path 'w1': stats.numRecords"), std::string::npos)
      << v.status().message();
}

// A winner of 40,000 adds, every one ruled out by its statistics but those at `kept` (statistics
// that admit id 9, none at all, or a text that does not parse, in turn). Every tenth add's
// statistics are written in another shape (tightBounds last), so that a reader meets new shapes.
WinningCommit LargeAppend(const std::vector<int>& kept) {
  std::vector<delta::AddFile> adds;
  for (int i = 0; i < 40000; ++i) {
    std::string stats = IdStats(3, 0, 4);
    if (i % 10 == 3) stats.insert(stats.size() - 1, R"(,"tightBounds":true)");
    adds.push_back(AddOf("w" + std::to_string(i), stats));
  }
  for (size_t k = 0; k < kept.size(); ++k) {
    std::optional<std::string> stats[] = {IdStats(3, 0, 9), std::nullopt,
                                          R"({"numRecords":3,"nullCount":{"id":-1.5}})"};
    adds[static_cast<size_t>(kept[k])].stats = stats[k % 3];
  }
  return Append(std::move(adds));
}

// A large winner's adds are judged on two threads where two CPUs are free (data_skipping.h): the
// survivors and the reasons must be those of one file after another, on both sides of the half.
TEST(DataSkipping, ALargeWinnersSurvivorsAreEveryKeptFileInOrder) {
  const std::vector<int> kept = {7, 19998, 19999, 20000, 20001, 31337, 39999};
  CaseCheck check;
  CheckEnvironment env;
  env.files = &check.files;
  env.explain_declines = true;
  const Result<Verdict> v =
      CheckConflicts(DeleteLoser({kSkipping}), check.read_table, {LargeAppend(kept)}, env);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ExpectAppendAbortOn(*v, "w7");
  std::vector<std::string> declined;
  for (const Decline& d : v->declines) {
    EXPECT_EQ(d.case_id, "1a");
    declined.push_back(d.path);
  }
  EXPECT_EQ(declined, (std::vector<std::string>{"w7", "w19998", "w19999", "w20000", "w20001",
                                                "w31337", "w39999"}));
  const Event* e = FindEvent(*v, kFilesSkippedEvent);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->data.at("candidateFiles"), "40000");
  EXPECT_EQ(e->data.at("skippedFiles"), "39993");
}

TEST(DataSkipping, ALargeWinnersOneSurvivorInItsLaterHalfAborts) {
  CaseCheck check;
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}), {LargeAppend({36000})}), "w36000");
  ASSERT_TRUE(check.Run(DeleteLoser({kSkipping}), {LargeAppend({})}).commits());
}

// The judge the check runs as it parses a winner (StatisticsJudge) answers as the tier does, and
// is made only where the tier reads statistics; told of a blind append where the check will not
// look at one, it leaves the adds unjudged (the tier judges them if asked after all).
struct JudgeInputs {
  explicit JudgeInputs(PendingTransaction l)
      : loser(std::move(l)), matcher(loser.read_predicates, read_table.metadata) {}
  SkippingInputs Inputs() const {
    return {loser, read_table.metadata, matcher, nullptr, read_table.files, view, nullptr};
  }
  CaseCheck check;
  const ReadTable& read_table = check.read_table;
  PendingTransaction loser;
  ReadPredicateMatcher matcher;
  TableView view{read_table.files};
};

TEST(DataSkipping, TheParsesJudgeAnswersAsTheTierAndOnlyWhereItReadsStatistics) {
  JudgeInputs in(DeleteLoser({kSkipping}));  // id > 5
  const SkippingInputs inputs = in.Inputs();
  const AddJudgeMaker make = StatisticsJudge(inputs, /*skip_blind_appends=*/false);
  ASSERT_TRUE(make);
  const std::unique_ptr<AddJudge> judge = make();
  EXPECT_EQ(judge->Judge(AddOf("w1", IdStats(3, 0, 4))), AddJudgement::kDrop);
  EXPECT_EQ(judge->Judge(AddOf("w2", IdStats(3, 0, 9))), AddJudgement::kKeep);
  EXPECT_EQ(judge->Judge(AddOf("w3", std::nullopt)), AddJudgement::kKeep);
  EXPECT_EQ(judge->Judge(AddOf("w4", R"({"numRecords":"many"})")), AddJudgement::kKeep);
  delta::CommitInfo blind = InfoOf("WRITE");
  blind.is_blind_append = true;
  judge->Saw(blind);  // a blind append the check looks at: still judged
  EXPECT_EQ(judge->Judge(AddOf("w5", IdStats(3, 0, 4))), AddJudgement::kDrop);

  const AddJudgeMaker skipping_blind = StatisticsJudge(inputs, /*skip_blind_appends=*/true);
  const std::unique_ptr<AddJudge> first = skipping_blind(), second = skipping_blind();
  EXPECT_EQ(second->Judge(AddOf("w1", IdStats(3, 0, 4))), AddJudgement::kDrop);
  first->Saw(InfoOf("WRITE"));  // not blind
  EXPECT_EQ(second->Judge(AddOf("w1", IdStats(3, 0, 4))), AddJudgement::kDrop);
  first->Saw(blind);  // one pass saw it: neither judges another add
  EXPECT_EQ(first->Judge(AddOf("w1", IdStats(3, 0, 4))), AddJudgement::kNotJudged);
  EXPECT_EQ(second->Judge(AddOf("w1", IdStats(3, 0, 4))), AddJudgement::kNotJudged);

  // No judge where the tier reads no statistics.
  EXPECT_FALSE(StatisticsJudge(JudgeInputs(DeleteLoser({})).Inputs(), false));
  EXPECT_FALSE(StatisticsJudge(JudgeInputs(DeleteLoser({kSkipping}, {})).Inputs(), false));
  EXPECT_FALSE(StatisticsJudge(JudgeInputs(DeleteLoser({kSkipping}, {"id >"})).Inputs(), false));
  PendingTransaction whole = DeleteLoser({kSkipping});
  whole.read_whole_table = true;
  EXPECT_FALSE(StatisticsJudge(JudgeInputs(whole).Inputs(), false));
  PendingTransaction merge =
      LoserOf({"id > 5"}, {"f1"}, {InfoOf("MERGE"), RemoveOf("f1")}, {kSkipping});
  EXPECT_FALSE(StatisticsJudge(JudgeInputs(merge).Inputs(), false));
}

TEST(DataSkipping, WholeTableReadKeepsEveryAdd) {
  CaseCheck check;
  PendingTransaction loser = DeleteLoser({kSkipping});
  loser.read_whole_table = true;
  ExpectAppendAbortOn(check.Run(loser, {Append({AddOf("w1", IdStats(3, 0, 4))})}), "w1");
}

TEST(DataSkipping, NoReadPredicateKeepsEveryAdd) {
  CaseCheck check;
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}, {}), {Append({AddOf("w1", IdStats(3, 0, 4))})}), "w1");
}

TEST(DataSkipping, UnboundPredicateKeepsEveryAdd) {
  CaseCheck check;
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}, {"nosuch > 5"}),
                                {Append({AddOf("w1", IdStats(3, 0, 4))})}),
                      "w1");
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}, {"id >"}), {Append({AddOf("w1", IdStats(3, 0, 4))})}),
      "w1");
  // One bad predicate among good ones is enough.
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}, {"id > 5", "id >"}),
                                {Append({AddOf("w1", IdStats(3, 0, 4))})}),
                      "w1");
}

TEST(DataSkipping, ReadsCombineWithOrConjunctsWithAnd) {
  CaseCheck check;
  const std::vector<std::string> two_reads = {"id < 0", "id > 100"};
  EXPECT_TRUE(
      check.Run(DeleteLoser({kSkipping}, two_reads), {Append({AddOf("w1", IdStats(3, 0, 100))})})
          .commits());
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}, two_reads), {Append({AddOf("w1", IdStats(3, 0, 101))})}),
      "w1");
  // Within one read the conjuncts narrow: 0..10 holds rows < 3, none that is also > 50.
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping}, {"id < 3"}), {Append({AddOf("w1", IdStats(3, 0, 10))})}),
      "w1");
  EXPECT_TRUE(check
                  .Run(DeleteLoser({kSkipping}, {"id < 3 AND id > 50"}),
                       {Append({AddOf("w1", IdStats(3, 0, 10))})})
                  .commits());
}

TEST(DataSkipping, PartitionValuesAndStatisticsDecideTogether) {
  CaseCheck check;
  check.read_table.metadata = TestTable({"part"});
  // (part = 'a' AND id > 5) OR (part = 'b' AND id < 0): a file in 'a' with ids 0..4 matches
  // neither, although each half alone (partition or statistics) admits it.
  PendingTransaction loser =
      DeleteLoser({kSkipping}, {"(part = 'a' AND id > 5) OR (part = 'b' AND id < 0)"});
  delta::AddFile w1 = AddOf("part=a/w1", IdStats(3, 0, 4));
  w1.partition_values = {{"part", "a"}};
  EXPECT_TRUE(check.Run(loser, {Append({w1})}).commits());
  loser.flags.SetCase(CaseId::kDataSkipping, false);
  ExpectAppendAbortOn(check.Run(loser, {Append({w1})}), "part=a/w1");
}

TEST(DataSkipping, ColumnMappingResolvesStatisticsByPhysicalName) {
  CaseCheck check;
  check.read_table.metadata.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":)"
      R"({"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"col-1"}}]})";
  check.read_table.metadata.configuration.emplace_back("delta.columnMapping.mode", "name");
  const std::string physical =
      R"({"numRecords":3,"minValues":{"col-1":0},"maxValues":{"col-1":4}})";
  const std::string logical = R"({"numRecords":3,"minValues":{"id":0},"maxValues":{"id":4}})";
  EXPECT_TRUE(check.Run(DeleteLoser({kSkipping}), {Append({AddOf("w1", physical)})}).commits());
  // Statistics under the logical name are not this column's: kept.
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}), {Append({AddOf("w1", logical)})}), "w1");
}

TEST(DataSkipping, DeleteAgainstUpdateOnDisjointRowsPrunesTheUpdatesNewFile) {
  // The UPDATE winner set id = 15 on a row of f2 (DV on f2, new file u1 with the image); the
  // DELETE loser deleted `id = 5` from f1. u1 cannot hold id = 5, so Case 1 prunes it; what
  // remains is f2's DV update, a same-file change for Case 2 (rowLevelConcurrency) to resolve.
  CaseCheck check;
  delta::AddFile f2_dv = AddOf("f2", IdStats(10, 10, 19));
  f2_dv.deletion_vector = InlineDv({5});
  const std::vector<Action> update = {InfoOf("UPDATE"), RemoveOf("f2"), f2_dv,
                                      AddOf("u1", IdStats(1, 15, 15))};
  PendingTransaction loser =
      LoserOf({"id = 5"}, {"f1"}, {InfoOf("DELETE"), RemoveOf("f1")}, {kSkipping});
  const Verdict with_skipping = check.Run(loser, {WinnerAt(1, update)});
  // f2's re-add survives (its statistics 10..19 exclude id = 5 too, so it is pruned as well).
  EXPECT_TRUE(with_skipping.commits()) << Show(with_skipping);
  loser.flags.SetCase(CaseId::kDataSkipping, false);
  loser.flags.SetCase(CaseId::kRowLevelConcurrency,
                      true);  // Case 2 alone does not prune the image file
  ExpectAppendAbortOn(check.Run(loser, {WinnerAt(1, update)}), "f2");
}

// ---- exact tier ----------------------------------------------------------------------------

TEST(DataSkippingExact, RowsWithoutALiveMatchAreSkipped) {
  CaseCheck check;
  // Statistics 0..9 admit id > 5; the rows are 0..4 and 9, and row 5 (id 9) is deleted.
  delta::AddFile w1 = AddOf("w1", IdStats(6, 0, 9));
  w1.deletion_vector = InlineDv({5});
  check.files.PutRows("w1", IdRows({0, 1, 2, 3, 4, 9}));
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping}), {Append({w1})}), "w1");  // stats alone
  const Verdict v = check.Run(DeleteLoser({kSkipping, kExact}), {Append({w1})});
  EXPECT_TRUE(v.commits()) << Show(v);
  ASSERT_NE(FindEvent(v, kFilesSkippedEvent), nullptr);
  // Without the DV, row 5 is live and matches.
  w1.deletion_vector.reset();
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping, kExact}), {Append({w1})}), "w1");
}

TEST(DataSkippingExact, SurvivorsAreJudgedOneByOne) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 9}));
  check.files.PutRows("w2", IdRows({1, 2}));
  const Verdict v =
      check.Run(DeleteLoser({kSkipping, kExact}),
                {Append({AddOf("w2", IdStats(2, 0, 9)), AddOf("w1", IdStats(2, 0, 9))})});
  ExpectAppendAbortOn(v, "w1");
  EXPECT_EQ(FindEvent(v, kFilesSkippedEvent)->data.at("skippedFiles"), "1");
}

TEST(DataSkippingExact, NoRowReaderKeepsEverySurvivor) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 1}));
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping, kExact}), {Append({AddOf("w1", IdStats(2, 0, 9))})},
                /*with_files=*/false),
      "w1");
  // A reader without this file's rows (a Parquet file): kept.
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping, kExact}), {Append({AddOf("w9", IdStats(2, 0, 9))})}), "w9");
}

TEST(DataSkippingExact, ByteBudgetBoundsTheRead) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 1}));
  PendingTransaction loser = DeleteLoser({kSkipping, kExact});
  ASSERT_TRUE(loser.flags.Set("conflictDetection.dataSkipping.valueExact.maxBytes", "99").ok());
  ExpectAppendAbortOn(check.Run(loser, {Append({AddOf("w1", IdStats(2, 0, 9))})}),
                      "w1");  // 100 > 99
  ASSERT_TRUE(loser.flags.Set("conflictDetection.dataSkipping.valueExact.maxBytes", "100").ok());
  EXPECT_TRUE(check.Run(loser, {Append({AddOf("w1", IdStats(2, 0, 9))})}).commits());
  ASSERT_TRUE(loser.flags.Set("conflictDetection.dataSkipping.valueExact.maxBytes", "0")
                  .ok());  // unbounded
  EXPECT_TRUE(check.Run(loser, {Append({AddOf("w1", IdStats(2, 0, 9))})}).commits());
}

TEST(DataSkippingExact, RowCountDisagreeingWithNumRecordsKeepsTheFile) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 1}));
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping, kExact}), {Append({AddOf("w1", IdStats(3, 0, 9))})}), "w1");
}

TEST(DataSkippingExact, DvThatDoesNotLoadKeepsTheFile) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 9}));
  delta::AddFile w1 = AddOf("w1", IdStats(2, 0, 9));
  w1.deletion_vector = InlineDv({1});
  w1.deletion_vector->cardinality = 2;  // the bitmap holds one row: the loader refuses it
  ExpectAppendAbortOn(check.Run(DeleteLoser({kSkipping, kExact}), {Append({w1})}), "w1");
}

TEST(DataSkippingExact, RowThatCannotBeEvaluatedCountsAsAMatch) {
  CaseCheck check;
  check.files.PutRows("w1", {{{{"part"}, predicate::Literal::String("a")}}});  // no id column
  ExpectAppendAbortOn(
      check.Run(DeleteLoser({kSkipping, kExact}), {Append({AddOf("w1", IdStats(1, 0, 9))})}), "w1");
}

TEST(DataSkippingExact, ExactFlagAloneDoesNothing) {
  CaseCheck check;
  check.files.PutRows("w1", IdRows({0, 1}));
  ExpectAppendAbortOn(check.Run(DeleteLoser({kExact}), {Append({AddOf("w1", IdStats(2, 0, 9))})}),
                      "w1");
}

// ---- 1b ------------------------------------------------------------------------------------

// A reader loser (UPDATE of rows id > 5, which it found in f1) and a DELETE winner that adds a
// DV to f1. f1's rows: ids 0..9 at positions 0..9.
PendingTransaction ReaderLoser(std::vector<std::string> flags) {
  return LoserOf({"id > 5"}, {"f1"}, {InfoOf("UPDATE"), AddOf("new", IdStats(1, 6, 6))}, flags);
}

// `post_stats` lets a test craft a post-image whose statistics Case 1 prunes, so that the
// removed-vs-read arm is the one that decides.
std::vector<Action> DvDelete(const std::string& path, std::vector<uint64_t> old_dv,
                             std::vector<uint64_t> new_dv,
                             std::string post_stats = IdStats(10, 0, 9)) {
  delta::RemoveFile r = RemoveOf(path);
  r.stats = IdStats(10, 0, 9);
  if (!old_dv.empty()) r.deletion_vector = InlineDv(old_dv);
  delta::AddFile a = AddOf(path, post_stats);
  a.deletion_vector = InlineDv(new_dv);
  return {InfoOf("DELETE"), r, a};
}

// f1 and f2 hold ids 0..9 at positions 0..9.
struct TableWithF1 : CaseCheck {
  TableWithF1() {
    files.PutRows("f1", IdRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    files.PutRows("f2", IdRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    Active(AddOf("f1", IdStats(10, 0, 9)));  // both in the read snapshot, without a DV
    Active(AddOf("f2", IdStats(10, 0, 9)));
  }
  // f2 as the read snapshot holds it: with a DV of these rows, so that a winner's DV update of
  // f2 removes the version active at the read (what log replay requires of it).
  void F2WithDv(const std::vector<uint64_t>& rows) {
    delta::AddFile f2 = AddOf("f2", IdStats(10, 0, 9));
    f2.deletion_vector = InlineDv(rows);
    Active(f2);
  }
};

TEST(DeleteRead, RemovedRowsThatDoNotMatchSuppressTheAbort) {
  TableWithF1 check;
  const Verdict v =
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f1", {}, {1, 2}))});
  ASSERT_TRUE(v.commits()) << Show(v);
  // Both arms of 1b reconciled: the re-add of f1 left out of the added-files check, and its
  // remove waived for the loser's read.
  std::set<std::string> arms;
  for (const Event& e : v.events) {
    if (e.name != kFilesSkippedEvent || e.data.count("arm") == 0) continue;
    arms.insert(e.data.at("arm"));
    EXPECT_EQ(e.winner_version, 1);
    EXPECT_EQ(e.data.at("candidateFiles"), "1");
    EXPECT_EQ(e.data.at("skippedFiles"), "1");
  }
  EXPECT_EQ(arms, (std::set<std::string>{"deleteRead", "reAdd"}));
}

TEST(DeleteRead, RemovedRowThatMatchesAborts) {
  TableWithF1 check;
  const Verdict v =
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f1", {}, {1, 7}))});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->path, "f1");
}

// A MERGE whose clause condition names a data column scans every partition (Delta prunes none
// by a filter that names one), and fails on a row its source matches twice wherever it sits. 1b
// clears the winner's DV delete of f1 (rows 1 and 2, which `id > 5` does not select); the
// winner's new file in partition b then conflicts though `part = 'a'` rules its partition out.
// With every flag off, Delta's rules abort on f1 (its re-add and its remove), never on w2. An
// UPDATE (whose read is its predicate) commits.
TEST(DeleteRead, AMergeCarriedBy1bSeesNewRowsInEveryPartition) {
  TableWithF1 check;
  check.read_table.metadata = TestTable({"part"});
  delta::AddFile f1 = AddOf("f1", IdStats(10, 0, 9));
  f1.partition_values = {{"part", "a"}};
  check.Active(f1);
  std::vector<Action> winner = DvDelete("f1", {}, {1, 2});
  std::get<delta::RemoveFile>(winner[1]).partition_values = f1.partition_values;
  std::get<delta::AddFile>(winner[2]).partition_values = f1.partition_values;
  delta::AddFile elsewhere = AddOf("w2", IdStats(1, 3, 3));
  elsewhere.partition_values = {{"part", "b"}};
  winner.push_back(elsewhere);
  const auto loser = [](const std::string& operation, const std::string& predicate,
                        std::vector<std::string> flags) {
    return LoserOf({predicate}, {"f1"}, {InfoOf(operation), AddOf("new", IdStats(1, 6, 6))}, flags);
  };
  const Verdict merge = check.Run(loser("MERGE", "part = 'a' AND id > 5", {kSkipping, kExact}),
                                  {WinnerAt(1, winner)});
  ASSERT_FALSE(merge.commits());
  EXPECT_EQ(merge.abort->kind, ConflictKind::kConcurrentAppend);
  EXPECT_EQ(merge.abort->path, "w2");
  const Verdict off = check.Run(loser("MERGE", "part = 'a' AND id > 5", {}), {WinnerAt(1, winner)});
  ASSERT_FALSE(off.commits());
  EXPECT_EQ(off.abort->path, "f1");  // its DV update, a file of partition a
  EXPECT_TRUE(
      check
          .Run(loser("UPDATE", "part = 'a' AND id > 5", {kSkipping, kExact}), {WinnerAt(1, winner)})
          .commits());
}

TEST(DeleteRead, RowsAlreadyDeletedBeforeDoNotCount) {
  // Row 7 (a match) was deleted before the loser read; the winner adds row 1.
  TableWithF1 check;
  delta::AddFile read = AddOf("f1", IdStats(10, 0, 9));
  read.deletion_vector = InlineDv({7});
  check.Active(read);
  EXPECT_TRUE(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f1", {7}, {1, 7}))})
          .commits());
}

TEST(DeleteRead, PostImageThatRevivesARowAborts) {
  // Old DV {7, 8}, new DV {1, 8}: row 1 is deleted (no match) but row 7 (a match) comes back.
  // The re-add then stays in the append check, which aborts first.
  TableWithF1 check;
  delta::AddFile read = AddOf("f1", IdStats(10, 0, 9));
  read.deletion_vector = InlineDv({7, 8});
  check.Active(read);
  ExpectAppendAbortOn(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f1", {7, 8}, {1, 8}))}),
      "f1");
  // With post-image statistics that Case 1 prunes (0..5), removed-vs-read still refuses it.
  const Verdict v = check.Run(ReaderLoser({kSkipping, kExact}),
                              {WinnerAt(1, DvDelete("f1", {7, 8}, {1, 8}, IdStats(10, 0, 5)))});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead) << Show(v);
}

TEST(DeleteRead, FilesAreNeverNettedAgainstEachOther) {
  // The reference's G11 (docs/gaps.md#g11): f1 loses a matching row (+1), f2 revives one (-1);
  // a sum over both files is 0, "no conflict". Per file, f1 conflicts. (f2's post-image carries
  // statistics that Case 1 prunes, so the append check lets it through and removed-vs-read
  // decides.)
  TableWithF1 check;
  delta::AddFile f2_read = AddOf("f2", IdStats(10, 0, 9));
  f2_read.deletion_vector = InlineDv({8});
  check.Active(f2_read);
  PendingTransaction loser = ReaderLoser({kSkipping, kExact});
  loser.read_files = {"f1", "f2"};
  std::vector<Action> winner = DvDelete("f1", {}, {7});
  std::vector<Action> f2 = DvDelete("f2", {8}, {1}, IdStats(10, 0, 5));
  winner.insert(winner.end(), f2.begin() + 1, f2.end());
  const Verdict v = check.Run(loser, {WinnerAt(1, winner)});
  ASSERT_FALSE(v.commits());
  EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  EXPECT_EQ(v.abort->path, "f1");
}

TEST(DeleteRead, FullRemovalIsJudgedOnEveryLiveRow) {
  CaseCheck check;
  check.files.PutRows("f1", IdRows({0, 1, 2, 7}));
  delta::AddFile read = AddOf("f1", IdStats(4, 0, 7));
  read.deletion_vector = InlineDv({3});  // id 7 was already deleted
  check.Active(read);
  delta::RemoveFile r = RemoveOf("f1");
  r.stats = IdStats(4, 0, 7);
  r.deletion_vector = InlineDv({3});
  EXPECT_TRUE(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), r})}).commits());
  read.deletion_vector.reset();  // id 7 is live, and removed
  check.Active(read);
  r.deletion_vector.reset();
  EXPECT_FALSE(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), r})}).commits());
}

TEST(DeleteRead, StatisticsAloneCanClearAFile) {
  // No row reader at all: f1's statistics (ids 0..4) prove no row matches id > 5. They are the
  // active add's: the remove need not repeat them.
  CaseCheck check;
  check.Active(AddOf("f1", IdStats(5, 0, 4)));
  delta::RemoveFile r = RemoveOf("f1");
  EXPECT_TRUE(check
                  .Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), r})},
                       /*with_files=*/false)
                  .commits());
  r.stats = IdStats(5, 0, 4);  // repeated faithfully
  EXPECT_TRUE(check
                  .Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), r})},
                       /*with_files=*/false)
                  .commits());
  // Without statistics, and without rows, it conflicts.
  check.Active(AddOf("f1", std::nullopt));
  r.stats.reset();
  EXPECT_FALSE(check
                   .Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), r})},
                        /*with_files=*/false)
                   .commits());
}

TEST(DeleteRead, TheRemoversStatisticsAreNotTrusted) {
  // f1 holds ids 0..9 (6..9 match id > 5). A foreign remove claims ids 100..200: its statistics
  // would clear the file. They disagree with the active add's, which is doubt: the loser aborts,
  // rows or no rows.
  TableWithF1 check;
  delta::RemoveFile r = RemoveOf("f1");
  r.stats = IdStats(10, 100, 200);
  for (bool with_files : {true, false}) {
    const Verdict v = check.Run(ReaderLoser({kSkipping, kExact}),
                                {WinnerAt(1, {InfoOf("DELETE"), r})}, with_files);
    ASSERT_FALSE(v.commits());
    EXPECT_EQ(v.abort->kind, ConflictKind::kConcurrentDeleteRead);
  }
  // A remove of a path the log holds no version of is doubt too (statistics that would clear it).
  delta::RemoveFile ghost = RemoveOf("f1");
  ghost.deletion_vector = InlineDv({0});
  ghost.stats = IdStats(10, 0, 4);
  EXPECT_FALSE(check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, {InfoOf("DELETE"), ghost})})
                   .commits());
}

TEST(DeleteRead, NeedsBothFlags) {
  TableWithF1 check;
  const WinningCommit w = WinnerAt(1, DvDelete("f1", {}, {1, 2}));
  EXPECT_FALSE(check.Run(ReaderLoser({kSkipping}), {w}).commits());
  EXPECT_FALSE(check.Run(ReaderLoser({kExact}), {w}).commits());
  // A full removal (no re-add for the append check to see): only the refinement clears it, and
  // only with both flags. f3's rows (ids 0..2) do not match; it has no statistics.
  check.files.PutRows("f3", IdRows({0, 1, 2}));
  check.Active(AddOf("f3", std::nullopt));
  PendingTransaction loser = ReaderLoser({kSkipping, kExact});
  loser.read_files = {"f3"};
  const WinningCommit removal = WinnerAt(1, {InfoOf("DELETE"), RemoveOf("f3")});
  EXPECT_TRUE(check.Run(loser, {removal}).commits());
  loser.flags.SetCase(CaseId::kValueExact, false);
  EXPECT_EQ(check.Run(loser, {removal}).abort->kind, ConflictKind::kConcurrentDeleteRead);
}

TEST(DeleteRead, DvThatDoesNotLoadKeepsTheReAdd) {
  // f2's old DV {3, 9} is corrupt (its descriptor claims 3 rows); the new DV {9} revives row 3.
  // Unable to load the old DV, the re-add cannot be shown to bring no row back: it stays.
  TableWithF1 check;
  check.F2WithDv({3, 9});
  std::vector<Action> update = DvDelete("f2", {3, 9}, {9});
  std::get<delta::RemoveFile>(update[1]).deletion_vector->cardinality = 3;
  ExpectAppendAbortOn(check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, update)}), "f2");
}

TEST(DeleteRead, WholeTableReadOrNoPredicateAborts) {
  TableWithF1 check;
  const WinningCommit w = WinnerAt(1, DvDelete("f1", {}, {1, 2}));
  PendingTransaction whole = ReaderLoser({kSkipping, kExact});
  whole.read_whole_table = true;
  EXPECT_EQ(check.Run(whole, {w}).abort->kind, ConflictKind::kConcurrentDeleteRead);
  PendingTransaction no_predicate = ReaderLoser({kSkipping, kExact});
  no_predicate.read_predicates.clear();
  EXPECT_EQ(check.Run(no_predicate, {w}).abort->kind, ConflictKind::kConcurrentDeleteRead);
}

TEST(DeleteRead, PartitionValuesComeFromTheActiveAdd) {
  // The loser read partition b only; the active add of part=a/f1 says partition a. A remove that
  // leaves its partition values out, or claims another partition, is judged as the add says.
  CaseCheck check;
  check.read_table.metadata = TestTable({"part"});
  check.files.PutRows("part=a/f1", IdRows({0, 7}));
  delta::AddFile read = AddOf("part=a/f1", IdStats(2, 0, 7));
  read.partition_values = {{"part", "a"}};
  check.Active(read);
  PendingTransaction loser =
      LoserOf({"part = 'b'"}, {"part=a/f1"}, {InfoOf("UPDATE"), AddOf("new", IdStats(1, 6, 6))},
              {kSkipping, kExact});
  delta::RemoveFile r = RemoveOf("part=a/f1");
  EXPECT_TRUE(
      check.Run(loser, {WinnerAt(1, {InfoOf("DELETE"), r})}, /*with_files=*/false).commits());
  r.partition_values = delta::StringMap{{"part", "b"}};
  EXPECT_TRUE(
      check.Run(loser, {WinnerAt(1, {InfoOf("DELETE"), r})}, /*with_files=*/false).commits());
  // Read as partition a, the file may hold a matching row.
  loser.read_predicates = {"part = 'a'"};
  EXPECT_FALSE(
      check.Run(loser, {WinnerAt(1, {InfoOf("DELETE"), r})}, /*with_files=*/false).commits());
}

TEST(DeleteRead, SamePathReAddWithoutNewRowsLeavesTheAppendCheck) {
  // The loser did not read f2; the winner's DV update of f2 brings no row back, so it cannot be
  // a phantom for the loser, although f2's statistics admit id > 5.
  TableWithF1 check;
  check.F2WithDv({3});
  const WinningCommit w = WinnerAt(1, DvDelete("f2", {3}, {3, 9}));
  EXPECT_TRUE(check.Run(ReaderLoser({kSkipping, kExact}), {w}).commits());
  ExpectAppendAbortOn(check.Run(ReaderLoser({kSkipping}), {w}), "f2");
  // A DV update that revives row 3 (a non-match) is still a new row: it stays in the check.
  check.F2WithDv({3, 9});
  ExpectAppendAbortOn(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f2", {3, 9}, {9}))}),
      "f2");
}

TEST(DeleteRead, ReAddOfAPathTheLoserNeverSawStaysInTheAppendCheck) {
  // f3 came after the loser's read, from a blind append the loser never checked (under
  // WriteSerializable). A DV update of f3 carries that append's rows, which match id > 5: they
  // are new to the loser, however few rows the update itself deletes.
  TableWithF1 check;
  check.files.PutRows("f3", IdRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  ExpectAppendAbortOn(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f3", {}, {1}))}), "f3");
  // Once f3 is in the read snapshot, the same update brings the loser no new row.
  check.Active(AddOf("f3", IdStats(10, 0, 9)));
  EXPECT_TRUE(check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f3", {}, {1}))})
                  .commits());
}

TEST(DeleteRead, ReAddBringingBackARowDeletedAtReadStaysInTheAppendCheck) {
  // At the read, f2's DV deleted rows 3 and 9. A first winner revives row 3 (DV {9}); a second
  // deletes row 9's neighbour 0 on top (DV {0, 9}): row 3 is live again, the loser never saw it.
  TableWithF1 check;
  check.F2WithDv({3, 9});
  const std::vector<WinningCommit> reviving = {WinnerAt(1, DvDelete("f2", {3, 9}, {9})),
                                               WinnerAt(2, DvDelete("f2", {9}, {0, 9}))};
  ExpectAppendAbortOn(check.Run(ReaderLoser({kSkipping, kExact}), reviving), "f2");
  // With the read's DV kept, nothing comes back.
  EXPECT_TRUE(
      check.Run(ReaderLoser({kSkipping, kExact}), {WinnerAt(1, DvDelete("f2", {3, 9}, {0, 3, 9}))})
          .commits());
}

}  // namespace
}  // namespace rlc::conflict
