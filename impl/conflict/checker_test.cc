#include "impl/conflict/checker.h"

#include <gtest/gtest.h>

#include <set>

#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/isolation_level.h"
#include "impl/conflict/partition_filter.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"

namespace rlc::conflict {
namespace {

using delta::Action;

delta::Metadata Table(std::vector<std::string> partition_columns = {}, std::string isolation = "") {
  delta::Metadata m;
  m.id = "t";
  m.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"part","type":"string","nullable":true,"metadata":{}}]})";
  m.partition_columns = std::move(partition_columns);
  m.configuration = {{"delta.enableDeletionVectors", "true"}};
  if (!isolation.empty()) m.configuration.emplace_back("delta.isolationLevel", isolation);
  return m;
}

delta::Protocol Protocol(std::vector<std::string> features = {"deletionVectors"}) {
  delta::Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = features;
  p.writer_features = features;
  return p;
}

delta::AddFile Add(const std::string& path, bool data_change = true, std::string part = "") {
  delta::AddFile a;
  a.path = path;
  if (!part.empty()) a.partition_values = {{"part", part}};
  a.size_bytes = 10;
  a.data_change = data_change;
  a.stats = R"({"numRecords":10})";
  return a;
}

delta::RemoveFile Remove(const std::string& path, bool data_change = true) {
  delta::RemoveFile r;
  r.path = path;
  r.data_change = data_change;
  return r;
}

delta::CommitInfo Info(const std::string& operation, bool blind) {
  delta::CommitInfo c;
  c.operation = operation;
  c.is_blind_append = blind;
  return c;
}

WinningCommit Winner(int64_t version, std::vector<Action> actions) {
  return {version, delta::WriteCommitFile(actions), "log/" + delta::CommitFileName(version)};
}

// A DELETE loser at read version 0 that read f1 through `id > 5`.
PendingTransaction DeleteLoser() {
  PendingTransaction t;
  t.read_version = 0;
  t.read_predicates = {"id > 5"};
  t.read_files = {"f1"};
  t.actions = {Info("DELETE", false), Remove("f1")};
  return t;
}

Verdict Check(const PendingTransaction& loser, std::vector<WinningCommit> winners,
              const delta::Metadata& metadata = Table(),
              const delta::Protocol& protocol = Protocol()) {
  Result<Verdict> v = CheckConflicts(loser, ReadTable{metadata, protocol}, winners);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : Verdict{};
}

void ExpectAbort(const Verdict& v, ConflictKind kind, int64_t version) {
  ASSERT_TRUE(v.abort.has_value()) << "expected " << ExceptionName(kind);
  EXPECT_EQ(v.abort->kind, kind) << Describe(*v.abort);
  EXPECT_EQ(v.abort->winner_version, version);
}

TEST(Checker, NoWinnersCommitsTheActionsUnchanged) {
  Verdict v = Check(DeleteLoser(), {});
  EXPECT_TRUE(v.commits());
  EXPECT_EQ(v.actions, DeleteLoser().actions);
  EXPECT_TRUE(v.events.empty());
}

TEST(Checker, ProtocolChangeAbortsALoserThatChangesProtocolToo) {
  PendingTransaction loser = DeleteLoser();
  loser.actions.push_back(Protocol({"deletionVectors", "rowTracking"}));
  Verdict v = Check(
      loser, {Winner(1, {Info("UPGRADE", false), Protocol({"deletionVectors", "v2Checkpoint"})})});
  ExpectAbort(v, ConflictKind::kProtocolChanged, 1);
  EXPECT_EQ(v.abort->winner_operation, "UPGRADE");
}

TEST(Checker, WinnerDroppingAFeatureTheLoserReadAborts) {
  Verdict v = Check(DeleteLoser(), {Winner(1, {Protocol({})})});
  ExpectAbort(v, ConflictKind::kProtocolChanged, 1);
  EXPECT_NE(v.abort->reason.find("dropped table feature 'deletionVectors'"), std::string::npos);
  EXPECT_EQ(v.abort->winner_operation, "UNKNOWN");  // no commitInfo
}

TEST(Checker, WinnerAddingAFeatureDoesNotAbort) {
  EXPECT_TRUE(
      Check(DeleteLoser(), {Winner(1, {Protocol({"deletionVectors", "v2Checkpoint"})})}).commits());
}

TEST(Checker, WinnerAddingAWriterFeatureTheLoserCannotWriteAborts) {
  // rowTracking: every add must then carry a baseRowId, which the loser's actions lack.
  Verdict v =
      Check(DeleteLoser(),
            {Winner(1, {Info("UPGRADE", false), Protocol({"deletionVectors", "rowTracking"})})});
  ExpectAbort(v, ConflictKind::kUnsupportedTableFeature, 1);
  EXPECT_EQ(ExceptionName(v.abort->kind), "DeltaUnsupportedTableFeatureException");
  EXPECT_NE(v.abort->reason.find("'rowTracking'"), std::string::npos);
  // Flags do not change it: it is Delta's own rule.
  PendingTransaction flagged = DeleteLoser();
  flagged.flags.SetCase(CaseId::kRowLevelConcurrency, true).SetCase(CaseId::kDataSkipping, true);
  ExpectAbort(Check(flagged, {Winner(1, {Protocol({"deletionVectors", "rowTracking"})})}),
              ConflictKind::kUnsupportedTableFeature, 1);
  // A writer that declares the feature, or a table whose read protocol had it, passes.
  PendingTransaction declared = DeleteLoser();
  declared.writer_features = {"rowTracking"};
  EXPECT_TRUE(
      Check(declared, {Winner(1, {Protocol({"deletionVectors", "rowTracking"})})}).commits());
  EXPECT_TRUE(Check(DeleteLoser(), {Winner(1, {Protocol({"deletionVectors", "rowTracking"})})},
                    Table(), Protocol({"deletionVectors", "rowTracking"}))
                  .commits());
}

TEST(Checker, LegacyWriterVersionsStandForTheirFeatures) {
  delta::Protocol legacy;
  legacy.min_reader_version = 1;
  legacy.min_writer_version =
      4;  // appendOnly, invariants, checkConstraints, changeDataFeed, generatedColumns
  EXPECT_EQ(RequiredWriterFeatures(legacy),
            (std::set<std::string>{"appendOnly", "invariants", "checkConstraints", "changeDataFeed",
                                   "generatedColumns"}));
  // A table read at writer version 2 upgraded to 4 needs changeDataFeed and generatedColumns.
  delta::Protocol read = legacy;
  read.min_writer_version = 2;
  ExpectAbort(Check(DeleteLoser(), {Winner(1, {legacy})}, Table(), read),
              ConflictKind::kUnsupportedTableFeature, 1);
  EXPECT_TRUE(Check(DeleteLoser(), {Winner(1, {legacy})}, Table(), legacy).commits());
}

TEST(Checker, AnyWinnerMetadataChangeAborts) {
  ExpectAbort(Check(DeleteLoser(), {Winner(1, {Info("SET TBLPROPERTIES", false), Table()})}),
              ConflictKind::kMetadataChanged, 1);
}

TEST(Checker, SameDomainOnBothSidesAborts) {
  delta::DomainMetadata d{"myDomain", "{}", false, {}};
  PendingTransaction loser = DeleteLoser();
  loser.actions.push_back(d);
  ExpectAbort(Check(loser, {Winner(1, {d})}), ConflictKind::kConcurrentTransaction, 1);
  delta::DomainMetadata row_tracking{"delta.rowTracking", "{}", false, {}};
  loser.actions.push_back(row_tracking);
  EXPECT_TRUE(Check(loser, {Winner(1, {row_tracking})}).commits());
}

TEST(Checker, WinnerTxnOfAnAppIdTheLoserReadAborts) {
  PendingTransaction loser = DeleteLoser();
  loser.read_app_ids = {"stream-1"};
  ExpectAbort(Check(loser, {Winner(1, {delta::Txn{"stream-1", 7, {}, {}}})}),
              ConflictKind::kConcurrentTransaction, 1);
  EXPECT_TRUE(Check(loser, {Winner(1, {delta::Txn{"stream-2", 7, {}, {}}})}).commits());
}

TEST(Checker, SerializableLoserConflictsWithABlindAppend) {
  Verdict v = Check(DeleteLoser(), {Winner(1, {Info("WRITE", true), Add("new")})});
  ExpectAbort(v, ConflictKind::kConcurrentAppend, 1);
  EXPECT_EQ(v.abort->path, "new");
  EXPECT_NE(v.abort->reason.find("unpartitioned"), std::string::npos);
}

TEST(Checker, WriteSerializableLoserIgnoresABlindAppend) {
  EXPECT_TRUE(Check(DeleteLoser(), {Winner(1, {Info("WRITE", true), Add("new")})},
                    Table({}, "WriteSerializable"))
                  .commits());
}

TEST(Checker, WriteSerializableLoserChangingMetadataSeesBlindAppends) {
  PendingTransaction loser = DeleteLoser();
  loser.actions.push_back(Table({}, "WriteSerializable"));
  ExpectAbort(
      Check(loser, {Winner(1, {Info("WRITE", true), Add("new")})}, Table({}, "WriteSerializable")),
      ConflictKind::kConcurrentAppend, 1);
}

TEST(Checker, WriteSerializableLoserConflictsWithChangedDataAdds) {
  ExpectAbort(Check(DeleteLoser(), {Winner(1, {Info("UPDATE", false), Add("image")})},
                    Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentAppend, 1);
}

TEST(Checker, NoDataChangeAddsStillConflictInTheBaseline) {
  // OPTIMIZE's compacted output is a changed-data add for check 5 unless Case 3 is on.
  ExpectAbort(Check(DeleteLoser(),
                    {Winner(1, {Info("OPTIMIZE", false), Add("big", false), Remove("f9", false)})}),
              ConflictKind::kConcurrentAppend, 1);
}

TEST(Checker, SnapshotIsolationLoserIgnoresAdds) {
  PendingTransaction optimize;
  optimize.read_version = 0;
  optimize.read_predicates = {"TRUE"};
  optimize.read_files = {"f1", "f2"};
  optimize.actions = {Info("OPTIMIZE", false), Remove("f1", false), Remove("f2", false),
                      Add("big", false)};
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kSerializable, optimize),
            IsolationLevel::kSnapshotIsolation);
  EXPECT_TRUE(Check(optimize, {Winner(1, {Info("WRITE", true), Add("new")})}).commits());
  // ... but not removes of what it read.
  ExpectAbort(Check(optimize, {Winner(1, {Info("DELETE", false), Remove("f2")})}),
              ConflictKind::kConcurrentDeleteRead, 1);
}

TEST(Checker, AnEmptyDataChangingCommitKeepsWriteSerializable) {
  // Delta records a DELETE that matched no row under WriteSerializable as a commit of its
  // commitInfo alone, and checks it at the table's level: its operation changes data. Under
  // Serializable the same commit runs (and is skipped by Delta) as SnapshotIsolation.
  PendingTransaction empty_delete = DeleteLoser();
  empty_delete.actions = {Info("DELETE", false)};
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kWriteSerializable, empty_delete),
            IsolationLevel::kWriteSerializable);
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kSerializable, empty_delete),
            IsolationLevel::kSnapshotIsolation);
  ExpectAbort(Check(empty_delete, {Winner(1, {Info("UPDATE", false), Add("image")})},
                    Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentAppend, 1);
  // An OPTIMIZE changes no data: SnapshotIsolation under either level. A commit naming no
  // operation is taken as changing data.
  PendingTransaction optimize = empty_delete;
  optimize.actions = {Info("OPTIMIZE", false), Remove("f1", false), Add("big", false)};
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kWriteSerializable, optimize),
            IsolationLevel::kSnapshotIsolation);
  optimize.actions = {Remove("f1", false), Add("big", false)};
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kWriteSerializable, optimize),
            IsolationLevel::kWriteSerializable);
}

TEST(Checker, BlindAppendLoserNeverConflictsOnAdds) {
  PendingTransaction insert;
  insert.read_version = 0;
  insert.actions = {Info("WRITE", true), Add("mine")};
  EXPECT_TRUE(insert.IsBlindAppend());
  EXPECT_TRUE(
      Check(insert, {Winner(1, {Info("UPDATE", false), Add("image"), Remove("f1")})}).commits());
}

TEST(Checker, NonBlindLoserWithoutPredicatesConflictsWithEveryAdd) {
  PendingTransaction loser = DeleteLoser();
  loser.read_predicates.clear();
  Verdict v = Check(loser, {Winner(1, {Add("other", true, "b")})}, Table({"part"}));
  ExpectAbort(v, ConflictKind::kConcurrentAppend, 1);
  EXPECT_EQ(v.abort->partition, "[part=b]");
}

TEST(Checker, WholeTableReadConflictsWithAnyAdd) {
  PendingTransaction loser = DeleteLoser();
  loser.read_whole_table = true;
  ExpectAbort(Check(loser, {Winner(1, {Add("x", true, "z")})}, Table({"part"})),
              ConflictKind::kConcurrentAppend, 1);
}

TEST(Checker, WinnerRemovingAFileTheLoserReadAborts) {
  Verdict v = Check(DeleteLoser(), {Winner(1, {Info("DELETE", false), Remove("f1")})},
                    Table({}, "WriteSerializable"));
  ExpectAbort(v, ConflictKind::kConcurrentDeleteRead, 1);
  EXPECT_EQ(v.abort->path, "f1");
}

TEST(Checker, DvOnlyChangeOfAReadFileAborts) {
  // The winner rewrites f1's DV: add(f1, new DV) + remove(f1). Files compare by path, not DV, so
  // the re-added f1 is a changed-data add the loser should have read: the added-files check, the
  // first file check, fires.
  delta::AddFile with_dv = Add("f1");
  with_dv.deletion_vector = dv::DvDescriptor{'i', "00000", std::nullopt, 1, 1, std::nullopt};
  PendingTransaction reader = DeleteLoser();
  reader.actions = {Info("UPDATE", false), Add("other")};  // reads f1, removes nothing
  Verdict v = Check(reader, {Winner(1, {Info("DELETE", false), with_dv, Remove("f1")})},
                    Table({}, "WriteSerializable"));
  ExpectAbort(v, ConflictKind::kConcurrentAppend, 1);
  EXPECT_EQ(v.abort->path, "f1");
}

TEST(Checker, WholeTableReadAbortsOnAnyRemove) {
  PendingTransaction loser = DeleteLoser();
  loser.read_files.clear();
  loser.read_whole_table = true;
  loser.actions = {Info("UPDATE", false)};
  Verdict v = Check(loser, {Winner(1, {Remove("elsewhere")})});
  ExpectAbort(v, ConflictKind::kConcurrentDeleteRead, 1);
  EXPECT_FALSE(v.abort->path.has_value());
  EXPECT_NE(v.abort->reason.find("whole table"), std::string::npos);
}

TEST(Checker, BothRemovingOneFileAbortsEvenWithoutARead) {
  PendingTransaction loser;
  loser.read_version = 0;
  loser.read_predicates = {"id = 1"};
  loser.actions = {Info("DELETE", false), Remove("f7")};
  ExpectAbort(Check(loser, {Winner(1, {Info("DELETE", false), Remove("f7")})},
                    Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteDelete, 1);
}

TEST(Checker, PathsCompareAfterUrlDecoding) {
  PendingTransaction loser = DeleteLoser();
  loser.read_files = {"a b"};
  ExpectAbort(Check(loser, {Winner(1, {Remove("a%20b")})}, Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteRead, 1);
}

// The loser's paths are the escaped ones here: its read files and its removes are kept decoded.
TEST(Checker, TheLosersEscapedPathsCompareDecodedToo) {
  PendingTransaction reader = DeleteLoser();
  reader.read_files = {"x%20y", "a%3Db"};
  ExpectAbort(Check(reader, {Winner(1, {Remove("a=b")})}, Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteRead, 1);
  PendingTransaction remover;
  remover.read_version = 0;
  remover.read_predicates = {"id = 1"};
  remover.actions = {Info("DELETE", false), Remove("c%20d"), Remove("e")};
  ExpectAbort(Check(remover, {Winner(1, {Info("DELETE", false), Remove("c d")})},
                    Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteDelete, 1);
}

// The winner's removed paths are looked up by the keys its summary took while parsing them:
// an escaped spelling must find the loser's plain one, and must not find a path that differs.
TEST(Checker, TheWinnersEscapedRemovesCompareDecodedToo) {
  PendingTransaction reader = DeleteLoser();
  reader.read_files = {"x y", "a=b"};
  ExpectAbort(Check(reader, {Winner(1, {Remove("a%3Db")})}, Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteRead, 1);
  EXPECT_TRUE(
      Check(reader, {Winner(1, {Remove("a%3Dc"), Remove("x%20z")})}, Table({}, "WriteSerializable"))
          .commits());
  PendingTransaction remover;
  remover.read_version = 0;
  remover.read_predicates = {"id = 1"};
  remover.actions = {Info("DELETE", false), Remove("c d"), Remove("e")};
  ExpectAbort(Check(remover, {Winner(1, {Info("DELETE", false), Remove("c%20d")})},
                    Table({}, "WriteSerializable")),
              ConflictKind::kConcurrentDeleteDelete, 1);
}

TEST(Checker, WinnersAreCheckedInOrderAndTheFirstAbortWins) {
  Verdict v = Check(DeleteLoser(),
                    {Winner(1, {Info("WRITE", true), Add("new")}),
                     Winner(2, {Info("DELETE", false), Remove("f1")})},
                    Table({}, "WriteSerializable"));
  ExpectAbort(v, ConflictKind::kConcurrentDeleteRead, 2);
  EXPECT_EQ(v.checked_through_version, 2);
}

TEST(Checker, NonConsecutiveWinnersAreAnError) {
  Result<Verdict> v =
      CheckConflicts(DeleteLoser(), ReadTable{Table(), Protocol()}, {Winner(2, {})});
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("expected version 1, got 2"), std::string::npos);
}

TEST(Checker, CorruptWinnerBytesAreAnErrorNamingTheFile) {
  Result<Verdict> v = CheckConflicts(DeleteLoser(), ReadTable{Table(), Protocol()},
                                     {{1, "{\"add\":{}}\n", "log/00000000000000000001.json"}});
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("log/00000000000000000001.json (version 1) line 1"),
            std::string::npos);
}

TEST(Checker, UnknownIsolationLevelPropertyIsCorrupt) {
  Result<Verdict> v =
      CheckConflicts(DeleteLoser(), ReadTable{Table({}, "ReadCommitted"), Protocol()}, {});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kCorrupt);
}

delta::AddFile AddWithIds(const std::string& path, int64_t min_id, int64_t max_id,
                          bool data_change = true) {
  delta::AddFile a = Add(path, data_change);
  a.stats = R"({"numRecords":2,"minValues":{"id":)" + std::to_string(min_id) +
            R"(},"maxValues":{"id":)" + std::to_string(max_id) + R"(},"nullCount":{"id":0}})";
  return a;
}

// Under WriteSerializable a blind append may move after the loser, unless the loser follows a
// later data-changing winner (which may have read the append). When only a case let the loser
// pass that winner, the append is checked as Serializable checks it.
TEST(Checker, ABlindAppendALaterWinnerMayDependOnIsCheckedWhenACasePassedThatWinner) {
  const delta::Metadata table = Table({}, "WriteSerializable");
  PendingTransaction loser = DeleteLoser();  // reads id > 5
  const auto winners = [](int64_t appended_id) {
    return std::vector<WinningCommit>{
        Winner(1, {Info("WRITE", true), AddWithIds("appended", appended_id, appended_id)}),
        Winner(2, {Info("WRITE", false), AddWithIds("copied", 1, 2)})};  // an INSERT ... SELECT
  };
  // Every flag off: Delta aborts at version 2 (an unpartitioned add).
  ExpectAbort(Check(loser, winners(7), table), ConflictKind::kConcurrentAppend, 2);
  // Case 1 passes version 2 (ids 1..2 cannot match); the append (id 7 matches) then counts.
  loser.flags.SetCase(CaseId::kDataSkipping, true);
  const Verdict v = Check(loser, winners(7), table);
  ExpectAbort(v, ConflictKind::kConcurrentAppend, 1);
  EXPECT_EQ(v.abort->path, "appended");
  EXPECT_NE(v.abort->reason.find("cannot order this blind append after the loser"),
            std::string::npos)
      << v.abort->reason;
  // An append whose rows cannot match the loser's read leaves its result unchanged either way.
  EXPECT_TRUE(Check(loser, winners(3), table).commits());
  // Without a data-changing winner after it, the append moves after the loser as before.
  EXPECT_TRUE(Check(loser, {winners(7)[0]}, table).commits());
  // Under Serializable the append was never passed: version 1 aborts with or without the case.
  ExpectAbort(Check(loser, winners(7), Table({}, "Serializable")), ConflictKind::kConcurrentAppend,
              1);
}

TEST(Checker, ACheckInRoundsKeepsWhatItsFirstRoundPassed) {
  // The loser passes the blind append (id 7) under WriteSerializable in round one, then loses
  // the race again; round two checks the INSERT ... SELECT (ids 1..2, read at version 1) alone.
  // The append cannot move after the loser any more: two rounds abort as one check does.
  const delta::Metadata table = Table({}, "WriteSerializable");
  PendingTransaction loser = DeleteLoser();
  loser.flags.SetCase(CaseId::kDataSkipping, true);
  delta::CommitInfo follower = Info("WRITE", false);
  follower.read_version = 1;
  const WinningCommit append = Winner(1, {Info("WRITE", true), AddWithIds("appended", 7, 7)});
  const WinningCommit copy = Winner(2, {follower, AddWithIds("copied", 1, 2)});
  Result<ConflictCheck> check = ConflictCheck::Begin(loser, ReadTable{table, Protocol()});
  ASSERT_TRUE(check.ok());
  Result<Verdict> first = check->Continue({append});
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->commits());
  EXPECT_EQ(check->checked_through_version(), 1);
  EXPECT_EQ(check->read_version(), 0);
  Result<Verdict> second = check->Continue({copy});
  ASSERT_TRUE(second.ok());
  ExpectAbort(*second, ConflictKind::kConcurrentAppend, 1);
  // Later rounds repeat the abort; a round must continue where the last one stopped.
  Result<Verdict> again = check->Continue({});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->commits());
  // A second round that starts over at version 1 as a new read forgets the append and commits.
  PendingTransaction restarted = loser;
  restarted.read_version = 1;
  restarted.actions = first->actions;
  EXPECT_TRUE(Check(restarted, {copy}, table).commits());
}

TEST(Checker, ARoundMustContinueWhereTheLastStopped) {
  Result<ConflictCheck> check = ConflictCheck::Begin(DeleteLoser(), ReadTable{Table(), Protocol()});
  ASSERT_TRUE(check.ok());
  Result<Verdict> skipped = check->Continue({Winner(2, {Info("WRITE", true)})});
  ASSERT_FALSE(skipped.ok());
  EXPECT_EQ(skipped.status().code(), StatusCode::kInvalidArgument);
}

TEST(Checker, AWinnerAfterTheAppendMayDependOnItWhateverItsReadVersionSays) {
  // The INSERT ... SELECT of version 2 says it read version 0, before the append. Nothing in the
  // log or the files can verify that (docs/trust.md): a writer that misstates it would let the
  // loser commit without the appended row. So every stated read version, or none, aborts alike.
  const delta::Metadata table = Table({}, "WriteSerializable");
  PendingTransaction loser = DeleteLoser();
  loser.flags.SetCase(CaseId::kDataSkipping, true);
  const auto winners = [](std::optional<int64_t> follower_read_version) {
    delta::CommitInfo info = Info("WRITE", false);
    info.read_version = follower_read_version;
    return std::vector<WinningCommit>{
        Winner(1, {Info("WRITE", true), AddWithIds("appended", 7, 7)}),
        Winner(2, {info, AddWithIds("copied", 1, 2)})};
  };
  ExpectAbort(Check(loser, winners(0), table), ConflictKind::kConcurrentAppend, 1);
  ExpectAbort(Check(loser, winners(1), table), ConflictKind::kConcurrentAppend, 1);
  ExpectAbort(Check(loser, winners(std::nullopt), table), ConflictKind::kConcurrentAppend, 1);
}

TEST(Checker, ABlindAppendFollowedByAWinnerDeltaAlsoPassesStaysDeltasDecision) {
  // The baseline itself commits (the later winner only removes a file the loser did not read):
  // the flags change nothing, anomaly or not, so the verdicts agree.
  const delta::Metadata table = Table({}, "WriteSerializable");
  PendingTransaction loser = DeleteLoser();
  const std::vector<WinningCommit> winners = {
      Winner(1, {Info("WRITE", true), AddWithIds("appended", 7, 7)}),
      Winner(2, {Info("DELETE", false), Remove("appended")})};
  EXPECT_TRUE(Check(loser, winners, table).commits());
  loser.flags.SetCase(CaseId::kDataSkipping, true);
  loser.flags.SetCase(CaseId::kRowLevelConcurrency, true);
  EXPECT_TRUE(Check(loser, winners, table).commits());
}

TEST(Checker, ChecksAgainstATableOnStorage) {
  storage::InMemoryStorage s;
  auto put = [&](int64_t version, std::vector<Action> actions) {
    ASSERT_TRUE(s.PutIfAbsent(delta::LogDir("/t") + "/" + delta::CommitFileName(version),
                              delta::WriteCommitFile(actions))
                    .ok());
  };
  put(0, {Protocol(), Table(), Add("f1")});
  put(1, {Info("DELETE", false), Remove("f1")});
  Result<Verdict> v = CheckConflictsAgainstLog(s, "/t", DeleteLoser());
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ExpectAbort(*v, ConflictKind::kConcurrentDeleteRead, 1);
  EXPECT_EQ(v->abort->winner_operation, "DELETE");

  // With the read snapshot given, the same verdict; a snapshot of another version is refused.
  Result<delta::Snapshot> at0 = delta::ReplayLog(s, "/t", 0);
  ASSERT_TRUE(at0.ok());
  Result<Verdict> given = CheckConflictsAgainstLog(s, "/t", DeleteLoser(), *at0);
  ASSERT_TRUE(given.ok()) << given.status().ToString();
  ExpectAbort(*given, ConflictKind::kConcurrentDeleteRead, 1);
  Result<delta::Snapshot> at1 = delta::ReplayLog(s, "/t", 1);
  ASSERT_TRUE(at1.ok());
  Result<Verdict> wrong = CheckConflictsAgainstLog(s, "/t", DeleteLoser(), *at1);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("the snapshot given is version 1"), std::string::npos);
}

}  // namespace
}  // namespace rlc::conflict

namespace rlc::conflict {
namespace {

TEST(CheckerPartitions, AddInAnotherPartitionDoesNotConflict) {
  PendingTransaction loser = DeleteLoser();
  loser.read_predicates = {"part = 'a' AND id > 5"};
  EXPECT_TRUE(
      Check(loser, {Winner(1, {Info("WRITE", true), Add("b/new", true, "b")})}, Table({"part"}))
          .commits());
}

TEST(CheckerPartitions, AddInAReadPartitionConflictsWithAHint) {
  PendingTransaction loser = DeleteLoser();
  loser.read_predicates = {"part = 'a' AND id > 5", "part = 'c'"};
  Verdict v =
      Check(loser, {Winner(1, {Info("WRITE", true), Add("b/x", true, "b"), Add("c/y", true, "c")})},
            Table({"part"}));
  ExpectAbort(v, ConflictKind::kConcurrentAppend, 1);
  EXPECT_EQ(v.abort->path, "c/y");
  EXPECT_EQ(v.abort->partition, "[part=c]");
}

TEST(CheckerPartitions, DataOnlyPredicateReadsEveryPartition) {
  PendingTransaction loser = DeleteLoser();  // id > 5
  ExpectAbort(Check(loser, {Winner(1, {Add("z/x", true, "z")})}, Table({"part"})),
              ConflictKind::kConcurrentAppend, 1);
}

TEST(CheckerPartitions, UnparseablePredicateMatchesEverything) {
  ReadPredicateMatcher matcher({"part = = 'a'"}, Table({"part"}));
  EXPECT_TRUE(matcher.MayMatch({{"part", "zzz"}}));
  EXPECT_NE(matcher.match_all_reason().find("read predicate 'part = = 'a''"), std::string::npos);
  ReadPredicateMatcher good({"part = 'a'"}, Table({"part"}));
  EXPECT_FALSE(good.MayMatch({{"part", "zzz"}}));
  EXPECT_TRUE(good.MayMatch({{"part", "a"}}));
  EXPECT_EQ(good.match_all_reason(), "");
}

}  // namespace
}  // namespace rlc::conflict
