// ArrowActionReader builds a checkpoint's adds straight from its columns; every action it gives
// must be the one the JSON way gives (each row written as its JSON line, then parsed by the commit
// parser). Checked on every Parquet checkpoint and sidecar of the shared real tables (written by
// Delta Spark, delta-rs and Delta Kernel) and on checkpoints rlc writes, so that the fast path
// can only ever be faster. The same for the adds a checkpoint's reader hands over as columns
// (ForEachActionOrAddBatch, what a checkpoint replay reads).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "impl/parquet/checkpoint_actions.h"

namespace {

namespace fs = std::filesystem;

std::string Bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The actions ForEachActionOrAddBatch gives: each batch's adds (a direct row built from the
// columns, any other through its slow_row) and every other action, in the reader's order.
std::vector<rlc::delta::Action> BatchedActions(const rlc::parquet::ArrowActionReader& reader,
                                               const std::string& path, const std::string& bytes) {
  std::vector<rlc::delta::Action> actions;
  const rlc::Status s = reader.ForEachActionOrAddBatch(
      path, std::make_shared<const std::string>(bytes),
      [&](rlc::delta::Action&& a) {
        actions.push_back(std::move(a));
        return rlc::Status::Ok();
      },
      [&](rlc::delta::AddColumns&& batch) {
        for (int64_t row = 0; row < batch.length; ++row) {
          if (!batch.add.Get(row)) continue;
          if (rlc::delta::IsDirectAdd(batch, row)) {
            actions.push_back(rlc::delta::AddAt(batch, row));
            continue;
          }
          rlc::Result<rlc::delta::Action> slow = batch.slow_row(row);
          if (!slow.ok()) return slow.status();
          actions.push_back(std::move(*slow));
        }
        return rlc::Status::Ok();
      });
  EXPECT_TRUE(s.ok()) << path << ": " << s.ToString();
  return actions;
}

// The same actions, each as often, in any order.
bool SameActions(std::vector<rlc::delta::Action> a, std::vector<rlc::delta::Action> b) {
  if (a.size() != b.size()) return false;
  for (const rlc::delta::Action& x : a) {
    const auto at = std::find(b.begin(), b.end(), x);
    if (at == b.end()) return false;
    b.erase(at);
  }
  return true;
}

TEST(CheckpointActions, TheDirectAddsAreTheParsedOnesOnEveryRealCheckpoint) {
  const rlc::parquet::ArrowActionReader reader;
  const rlc::delta::ParquetActionReader& base = reader;
  if (!fs::exists(RLC_SHARED_DIR)) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true")
      FAIL() << "CI=true but " RLC_SHARED_DIR " is missing";
    GTEST_SKIP() << "shared tables missing at " RLC_SHARED_DIR;
  }
  int files = 0;
  int64_t adds = 0;
  for (const char* folder : {"/checkpoint-tables", "/delta-tables"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(std::string(RLC_SHARED_DIR) + folder)) {
      const std::string path = entry.path().string();
      if (!entry.is_regular_file() || entry.path().extension() != ".parquet" ||
          path.find("_delta_log") == std::string::npos)
        continue;
      const std::string bytes = Bytes(entry.path());
      const rlc::Result<std::vector<rlc::delta::Action>> direct = reader.Actions(path, bytes);
      std::vector<rlc::delta::Action> collected;
      const rlc::Status walked =
          base.ParquetActionReader::ForEachAction(path, bytes, [&](rlc::delta::Action&& a) {
            collected.push_back(std::move(a));
            return rlc::Status::Ok();
          });
      const rlc::Result<std::vector<rlc::delta::Action>> parsed =
          walked.ok() ? rlc::Result<std::vector<rlc::delta::Action>>(std::move(collected))
                      : rlc::Result<std::vector<rlc::delta::Action>>(walked);
      ASSERT_EQ(direct.ok(), parsed.ok()) << path;
      if (!direct.ok()) {
        EXPECT_EQ(direct.status().message(), parsed.status().message());
        continue;
      }
      EXPECT_EQ(*direct, *parsed) << path;
      EXPECT_TRUE(SameActions(BatchedActions(reader, path, bytes), *parsed)) << path;
      ++files;
      for (const auto& a : *direct) adds += std::holds_alternative<rlc::delta::AddFile>(a);
    }
  }
  EXPECT_GE(files, 20);  // the shared folders hold about 55 such files
  EXPECT_GT(adds, 0);
}

}  // namespace
