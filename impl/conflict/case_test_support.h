// Builders shared by the unit tests of the reconcile cases (*_test.cc in this folder): a small
// unpartitioned table (id long, part string), adds and removes with statistics, inline DVs that
// really encode their rows, winners as commit-file bytes, and a check that runs the checker with
// the table's rows in memory.
//
// Test-only: nothing in the library includes it.
#ifndef RLC_IMPL_CONFLICT_CASE_TEST_SUPPORT_H_
#define RLC_IMPL_CONFLICT_CASE_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "impl/conflict/checker.h"
#include "impl/conflict/table_files.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/z85.h"
#include "impl/storage/storage.h"

namespace rlc::conflict::testing {

inline delta::Metadata TestTable(std::vector<std::string> partition_columns = {}) {
  delta::Metadata m;
  m.id = "t";
  m.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"part","type":"string","nullable":true,"metadata":{}}]})";
  m.partition_columns = std::move(partition_columns);
  m.configuration = {{"delta.enableDeletionVectors", "true"},
                     {"delta.isolationLevel", "WriteSerializable"}};
  return m;
}

inline delta::Protocol TestProtocol() {
  delta::Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = std::vector<std::string>{"deletionVectors"};
  p.writer_features = std::vector<std::string>{"deletionVectors"};
  return p;
}

// numRecords = rows; id within [min_id, max_id].
inline std::string IdStats(int64_t rows, int64_t min_id, int64_t max_id) {
  return R"({"numRecords":)" + std::to_string(rows) + R"(,"minValues":{"id":)" +
         std::to_string(min_id) + R"(},"maxValues":{"id":)" + std::to_string(max_id) +
         R"(},"nullCount":{"id":0}})";
}

inline delta::AddFile AddOf(const std::string& path, std::optional<std::string> stats,
                            bool data_change = true) {
  delta::AddFile a;
  a.path = path;
  a.size_bytes = 100;
  a.data_change = data_change;
  a.stats = std::move(stats);
  return a;
}

inline delta::RemoveFile RemoveOf(const std::string& path, bool data_change = true) {
  delta::RemoveFile r;
  r.path = path;
  r.data_change = data_change;
  return r;
}

inline delta::CommitInfo InfoOf(const std::string& operation) {
  delta::CommitInfo c;
  c.operation = operation;
  c.is_blind_append = false;
  return c;
}

// An inline DV deleting `rows`, encoded as Delta writes it.
inline dv::DvDescriptor InlineDv(const std::vector<uint64_t>& rows) {
  return dv::InlineDescriptor(dv::RowBitmap::FromSorted(rows));
}

inline WinningCommit WinnerAt(int64_t version, const std::vector<delta::Action>& actions) {
  return {version, delta::WriteCommitFile(actions), "_delta_log/" + delta::CommitFileName(version)};
}

// Rows with the given ids (and part = "a").
inline std::vector<predicate::RowValues> IdRows(const std::vector<int64_t>& ids) {
  std::vector<predicate::RowValues> rows;
  for (int64_t id : ids) {
    rows.push_back(
        {{{"id"}, predicate::Literal::Long(id)}, {{"part"}, predicate::Literal::String("a")}});
  }
  return rows;
}

// A loser at read version 0 with flags set by short name
// ("conflictDetection.dataSkipping.enabled").
inline PendingTransaction LoserOf(std::vector<std::string> predicates,
                                  std::vector<std::string> read_files,
                                  std::vector<delta::Action> actions,
                                  const std::vector<std::string>& flags = {}) {
  PendingTransaction t;
  t.read_version = 0;
  t.read_predicates = std::move(predicates);
  t.read_files = std::move(read_files);
  t.actions = std::move(actions);
  for (const std::string& f : flags) EXPECT_TRUE(t.flags.Set(f, "true").ok()) << f;
  return t;
}

inline std::string Show(const Verdict& v) { return v.commits() ? "commit" : Describe(*v.abort); }

// The checker over an in-memory table: ReadTable files as given, rows from `files`.
struct CaseCheck {
  storage::InMemoryStorage storage;
  InMemoryTableFiles files{storage, "/t"};
  ReadTable read_table{TestTable(), TestProtocol()};

  void Active(const delta::AddFile& add) { read_table.files[add.path] = add; }

  StorageDvWriter dv_writer{storage, "/t", "/t", /*seed=*/7};

  Result<Verdict> Check(const PendingTransaction& loser, const std::vector<WinningCommit>& winners,
                        bool with_files = true) {
    CheckEnvironment env;
    if (with_files) {
      env.files = &files;
      env.dv_writer = &dv_writer;
    }
    env.now_ms = 1700000000000;
    return CheckConflicts(loser, read_table, winners, env);
  }
  Verdict Run(const PendingTransaction& loser, const std::vector<WinningCommit>& winners,
              bool with_files = true) {
    Result<Verdict> v = Check(loser, winners, with_files);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    return v.ok() ? *v : Verdict{};
  }
  // A winner log replay refuses is refused by the check too (delta/commit_rules.h): kCorrupt,
  // whose message holds `what`.
  void ExpectRefused(const PendingTransaction& loser, const std::vector<WinningCommit>& winners,
                     const std::string& what) {
    Result<Verdict> v = Check(loser, winners);
    ASSERT_FALSE(v.ok()) << "the check judged a winner replay refuses: " << Show(*v);
    EXPECT_EQ(v.status().code(), StatusCode::kCorrupt) << v.status().ToString();
    EXPECT_NE(v.status().message().find(what), std::string::npos) << v.status().ToString();
  }
};

}  // namespace rlc::conflict::testing

#endif  // RLC_IMPL_CONFLICT_CASE_TEST_SUPPORT_H_
