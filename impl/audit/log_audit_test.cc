// AuditLog on small logs written in memory: each rule fires on the commit that breaks it, and a
// log that breaks none is clean.
#include "impl/audit/log_audit.h"

#include <gtest/gtest.h>

#include "impl/delta/commit_writer.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/log.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"

namespace rlc::audit {
namespace {

using delta::Action;

dv::DvDescriptor Dv(const std::vector<uint64_t>& rows) {
  return dv::InlineDescriptor(dv::RowBitmap::FromSorted(rows));
}

delta::AddFile Add(const std::string& path, std::optional<int64_t> rows,
                   std::vector<uint64_t> dv = {}, bool data_change = true) {
  delta::AddFile a;
  a.path = path;
  a.size_bytes = 1;
  a.data_change = data_change;
  if (rows) a.stats = R"({"numRecords":)" + std::to_string(*rows) + "}";
  if (!dv.empty()) a.deletion_vector = Dv(dv);
  return a;
}

delta::RemoveFile Remove(const delta::AddFile& add, bool data_change = true) {
  delta::RemoveFile r;
  r.path = add.path;
  r.data_change = data_change;
  r.deletion_vector = add.deletion_vector;
  return r;
}

delta::RemoveFile Tagged(delta::RemoveFile r, const std::string& output, int64_t offset,
                         int64_t physical) {
  delta::StringMap tags;
  delta::WriteCompositionTags({output, offset, physical}, &tags);
  r.tags = tags;
  return r;
}

struct Log {
  storage::InMemoryStorage storage;
  int64_t next = 0;
  void Commit(std::vector<Action> actions) {
    if (next == 0) {
      delta::Metadata m;
      m.id = "t";
      m.schema_string =
          R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]})";
      delta::Protocol p;
      actions.insert(actions.begin(), {p, m});
    }
    ASSERT_TRUE(storage
                    .PutIfAbsent("/t/_delta_log/" + delta::CommitFileName(next++),
                                 delta::WriteCommitFile(actions))
                    .ok());
  }
  AuditReport Run() {
    Result<AuditReport> r = AuditLog(storage, "/t");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : AuditReport{};
  }
};

std::vector<std::string> Rules(const AuditReport& r) {
  std::vector<std::string> rules;
  for (const Finding& f : r.findings)
    rules.push_back("v" + std::to_string(f.version) + " " + f.rule + " " + f.path);
  return rules;
}

TEST(AuditLog, ACleanHistoryWithACompactionIsClean) {
  Log log;
  const delta::AddFile f1 = Add("f1", 4), f2 = Add("f2", 3);
  log.Commit({f1, f2});
  const delta::AddFile f1_dv = Add("f1", 4, {1});
  log.Commit({Remove(f1), f1_dv});
  log.Commit({Tagged(Remove(f1_dv, false), "c1", 0, 4), Tagged(Remove(f2, false), "c1", 3, 3),
              Add("c1", 6, {}, false)});
  const AuditReport r = log.Run();
  EXPECT_TRUE(r.findings.empty()) << testing::PrintToString(Rules(r));
  EXPECT_EQ(r.versions_checked, 3);
  EXPECT_EQ(r.dvs_checked, 1);
  EXPECT_EQ(r.tag_groups_checked, 1);
  EXPECT_EQ(r.tag_groups_tiled, 1);
  EXPECT_EQ(r.no_data_change_commits, 1);
}

TEST(AuditLog, SingleActiveVersion) {
  Log log;
  const delta::AddFile f1 = Add("f1", 4);
  log.Commit({f1, Add("f1", 4, {0})});    // two adds of one path
  log.Commit({Remove(Add("ghost", 1))});  // not active
  log.Commit({Add("f1", 4, {2})});        // a second version, the first not removed
  EXPECT_EQ(Rules(log.Run()), (std::vector<std::string>{"v0 single-active-version f1",
                                                        "v1 single-active-version ghost",
                                                        "v2 single-active-version f1"}));
}

TEST(AuditLog, DvWithinFile) {
  Log log;
  log.Commit({Add("f1", 4, {4}), Add("f2", std::nullopt, {0})});
  EXPECT_EQ(Rules(log.Run()),
            (std::vector<std::string>{"v0 dv-within-file f1", "v0 dv-within-file f2"}));
}

TEST(AuditLog, DvNeverShrinks) {
  Log log;
  const delta::AddFile f1 = Add("f1", 4, {1, 2});
  log.Commit({f1});
  log.Commit({Remove(f1), Add("f1", 4, {2, 3})});  // row 1 comes back
  const AuditReport r = log.Run();
  EXPECT_EQ(Rules(r), (std::vector<std::string>{"v1 dv-never-shrinks f1"}));
  EXPECT_NE(r.findings[0].detail.find("row 1"), std::string::npos);
}

TEST(AuditLog, ProtocolFeatures) {
  Log log;
  log.Commit({Add("f1", 4)});
  delta::Protocol ok;  // deletionVectors is a reader-writer feature; rowTracking writer-only
  ok.min_reader_version = 3;
  ok.min_writer_version = 7;
  ok.reader_features = std::vector<std::string>{"deletionVectors"};
  ok.writer_features = std::vector<std::string>{"deletionVectors", "domainMetadata", "rowTracking"};
  log.Commit({ok});
  delta::Protocol writer_only_as_reader = ok;
  writer_only_as_reader.reader_features->push_back("rowTracking");
  log.Commit({writer_only_as_reader});
  delta::Protocol reader_only = ok;
  reader_only.reader_features->push_back("columnMapping");
  log.Commit({reader_only});
  delta::Protocol too_low = ok;
  too_low.min_reader_version = 2;
  log.Commit({too_low});
  delta::Protocol without_domains = ok;
  without_domains.writer_features = std::vector<std::string>{"deletionVectors", "rowTracking"};
  log.Commit({without_domains});
  const AuditReport r = log.Run();
  EXPECT_EQ(Rules(r), (std::vector<std::string>{"v2 protocol-features ", "v3 protocol-features ",
                                                "v4 protocol-features ", "v5 protocol-features "}));
  EXPECT_NE(r.findings[0].detail.find("rowTracking"), std::string::npos) << r.findings[0].detail;
}

TEST(AuditLog, TagsTileOutput) {
  Log log;
  const delta::AddFile f1 = Add("f1", 4, {1}), f2 = Add("f2", 3);
  log.Commit({f1, f2});
  // f1 holds 3 live rows: f2's run must start at 3, not 4 (a gap), and the output has 6 rows.
  log.Commit({Tagged(Remove(f1, false), "c1", 0, 4), Tagged(Remove(f2, false), "c1", 4, 3),
              Add("c1", 6, {}, false)});
  const delta::AddFile g = Add("g", 2);
  log.Commit({g});
  log.Commit(
      {Tagged(Remove(g, false), "elsewhere", 0, 2), Add("c2", 2, {}, false)});  // output not added
  const delta::AddFile h = Add("h", 2);
  log.Commit({h});
  delta::RemoveFile half = Remove(h, false);
  half.tags = delta::StringMap{{"compactedInto", R"(["c3"])"}};  // one tag without the other
  log.Commit({half, Add("c3", 2, {}, false)});
  const AuditReport r = log.Run();
  EXPECT_EQ(Rules(r),
            (std::vector<std::string>{"v1 tags-tile-output c1", "v3 tags-tile-output elsewhere",
                                      "v5 tags-tile-output h"}));
  EXPECT_EQ(r.tag_groups_checked, 2);
  EXPECT_EQ(r.tag_groups_tiled, 0);
}

TEST(AuditLog, NoDataChangeConserves) {
  Log log;
  const delta::AddFile f1 = Add("f1", 4);
  log.Commit({f1});
  log.Commit(
      {Remove(f1, false), Add("c1", 3, {}, false)});  // a row vanishes under dataChange=false
  log.Commit({Add("u", std::nullopt)});
  log.Commit({Remove(Add("u", std::nullopt), false),
              Add("u2", std::nullopt, {}, false)});  // not countable
  const AuditReport r = log.Run();
  EXPECT_EQ(Rules(r), (std::vector<std::string>{"v1 no-data-change-conserves "}));
  EXPECT_EQ(r.no_data_change_commits, 2);
  EXPECT_EQ(r.no_data_change_commits_uncounted, 1);
}

TEST(AuditLog, UnreadableHistoryIsAStatus) {
  Log log;
  EXPECT_FALSE(AuditLog(log.storage, "/t").ok());  // no log at all
  log.Commit({Add("f1", 1)});
  log.next = 2;
  log.Commit({Add("f2", 1)});
  Result<AuditReport> gap = AuditLog(log.storage, "/t");
  ASSERT_FALSE(gap.ok());
  EXPECT_NE(gap.status().message().find("version 1 is missing"), std::string::npos)
      << gap.status().ToString();
}

}  // namespace
}  // namespace rlc::audit
