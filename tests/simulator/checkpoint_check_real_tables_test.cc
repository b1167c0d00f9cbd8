// CheckCheckpointReplay on checkpoints other engines wrote (../shared/checkpoint-tables): a race
// with Delta Spark has its checkpoints among rlc's, so the check must hold them to the JSON log
// as those engines write them (adds with dataChange false, as Delta writes every checkpoint), and
// still name the first difference when there is one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/simulator/checkpoint_check.h"
#include "impl/storage/storage.h"

namespace rlc::simulator {
namespace {

namespace fs = std::filesystem;

std::string Table(const std::string& name) {
  return std::string(RLC_SHARED_DIR) + "/checkpoint-tables/" + name;
}

// Tables whose JSON log reaches back to version 0, with classic, multi-part or V2 checkpoints
// written by Delta Spark, delta-rs and the Delta Kernel's tests.
class RealCheckpoints : public ::testing::TestWithParam<const char*> {};

TEST_P(RealCheckpoints, ReadAsTheJsonLogReads) {
  auto storage = storage::NewLocalStorage();
  const Result<int64_t> compared = CheckCheckpointReplay(*storage, Table(GetParam()));
  ASSERT_TRUE(compared.ok()) << compared.status().ToString();
  EXPECT_GE(*compared, 1);
}

INSTANTIATE_TEST_SUITE_P(
    CheckpointTables, RealCheckpoints,
    ::testing::Values("delta__checkpoint", "delta-rs__simple_table_with_checkpoint",
                      "delta-kernel-rs__with_checkpoint_no_last_checkpoint",
                      "delta__multi-part-checkpoint", "delta-kernel-rs__app-txn-checkpoint",
                      "delta-kernel-rs__v2-classic-checkpoint-parquet",
                      "delta-kernel-rs__v2-checkpoints-json-with-sidecars",
                      "delta-kernel-rs__v2-checkpoints-parquet-with-sidecars"));

// A checkpoint that really reads otherwise is still caught, and the error names what differs.
TEST(RealCheckpoints, ACheckpointThatLosesAFileIsNamed) {
  const fs::path copy = fs::temp_directory_path() / "rlc-checkpoint-check-mismatch";
  fs::remove_all(copy);
  fs::copy(Table("delta-rs__simple_table_with_checkpoint"), copy, fs::copy_options::recursive);
  // The JSON log after the checkpoint's version gains nothing; the checkpoint is replaced by the
  // one of a table whose files differ.
  auto storage = storage::NewLocalStorage();
  const Result<int64_t> before = CheckCheckpointReplay(*storage, copy.string());
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  // Drop one add from the commit the checkpoint stands for: the checkpoint now holds a file the
  // JSON replay does not.
  fs::path commit;
  for (const auto& e : fs::directory_iterator(copy / "_delta_log")) {
    if (e.path().filename().string() == "00000000000000000000.json") commit = e.path();
  }
  ASSERT_FALSE(commit.empty());
  std::ifstream in(commit);
  std::string kept, line;
  bool dropped = false;
  while (std::getline(in, line)) {
    if (!dropped && line.rfind("{\"add\"", 0) == 0) {
      dropped = true;
      continue;
    }
    kept += line + "\n";
  }
  ASSERT_TRUE(dropped);
  std::ofstream(commit, std::ios::trunc) << kept;
  const Result<int64_t> after = CheckCheckpointReplay(*storage, copy.string());
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.status().message().find("reads otherwise"), std::string::npos);
  EXPECT_NE(after.status().message().find("file "), std::string::npos) << after.status().message();
  fs::remove_all(copy);
}

}  // namespace
}  // namespace rlc::simulator
