#include "impl/storage/storage.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rlc::storage {
namespace {

void ExerciseStorage(Storage& s, const std::string& root) {
  ASSERT_TRUE(s.PutIfAbsent(root + "/a/b.bin", "hello").ok());
  Status again = s.PutIfAbsent(root + "/a/b.bin", "other");
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(*s.ReadFile(root + "/a/b.bin"), "hello");  // the loser did not overwrite
  EXPECT_EQ(*s.ReadRange(root + "/a/b.bin", 1, 3), "ell");
  EXPECT_EQ(*s.ReadRange(root + "/a/b.bin", 3, 100), "lo");  // short at the end
  EXPECT_EQ(*s.ReadRange(root + "/a/b.bin", 5, 1), "");
  Result<std::string> past = s.ReadRange(root + "/a/b.bin", 6, 1);
  EXPECT_EQ(past.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(past.status().message().find("offset 6 is past the end"), std::string::npos);
  EXPECT_EQ(*s.FileSize(root + "/a/b.bin"), 5u);
  Result<std::string> missing = s.ReadFile(root + "/a/none");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(root + "/a/none"), std::string::npos);
  ASSERT_TRUE(s.PutIfAbsent(root + "/a/c.bin", "").ok());
  EXPECT_EQ(*s.List(root + "/a"), (std::vector<std::string>{"b.bin", "c.bin"}));
  EXPECT_EQ(s.List(root + "/zzz").status().code(), StatusCode::kNotFound);
}

TEST(InMemoryStorage, ReadsListsAndRefusesOverwrites) {
  InMemoryStorage s;
  ExerciseStorage(s, "/mem");
}

TEST(LocalStorage, ReadsListsAndRefusesOverwrites) {
  const std::string root =
      (std::filesystem::temp_directory_path() / ("rlc-storage-test-" + std::to_string(::getpid())))
          .string();
  std::filesystem::remove_all(root);
  auto s = NewLocalStorage();
  ExerciseStorage(*s, root);
  // No temporary files are left behind by PutIfAbsent.
  EXPECT_EQ(*s->List(root + "/a"), (std::vector<std::string>{"b.bin", "c.bin"}));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace rlc::storage
