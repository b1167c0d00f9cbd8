// StorageDvWriter: each DV goes to a new file named by a random version-4 UUID; a fixed seed
// repeats the names (a name taken is drawn again), and the written DV reads back as the rows
// given.
#include "impl/conflict/dv_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "impl/delta/deletion_vector_loader.h"

namespace {

using rlc::conflict::StorageDvWriter;

TEST(StorageDvWriter, NamesEachFileByADistinctVersion4Uuid) {
  rlc::storage::InMemoryStorage storage;
  StorageDvWriter writer(storage, "/t", "/t");
  const std::regex name(
      R"(/t/deletion_vector_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.bin)");
  for (uint64_t i = 0; i < 2000; ++i) {
    rlc::dv::RowBitmap rows;
    rows.Add(i);
    ASSERT_TRUE(writer.Write(rows).ok());
  }
  const std::set<std::string> distinct(writer.written_files().begin(),
                                       writer.written_files().end());
  EXPECT_EQ(distinct.size(), 2000u);
  for (const std::string& path : writer.written_files())
    EXPECT_TRUE(std::regex_match(path, name)) << path;
}

TEST(StorageDvWriter, ASeedRepeatsTheNamesAndAnotherSeedDoesNot) {
  const auto names = [](uint64_t seed) {
    rlc::storage::InMemoryStorage storage;
    StorageDvWriter writer(storage, "/t", "/t", seed);
    rlc::dv::RowBitmap rows;
    rows.Add(3);
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(writer.Write(rows).ok());
    return writer.written_files();
  };
  EXPECT_EQ(names(7), names(7));
  EXPECT_NE(names(7), names(8));
}

// Two writers of one table with the same seed draw the same names: the second draws again
// where the first has written, and neither overwrites the other's file.
TEST(StorageDvWriter, ANameAnotherWriterTookIsDrawnAgain) {
  rlc::storage::InMemoryStorage storage;
  StorageDvWriter first(storage, "/t", "/t", 7), second(storage, "/t", "/t", 7);
  rlc::dv::RowBitmap one, two;
  one.Add(1);
  two.Add(2);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(first.Write(one).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(second.Write(two).ok());
  std::set<std::string> all(first.written_files().begin(), first.written_files().end());
  all.insert(second.written_files().begin(), second.written_files().end());
  EXPECT_EQ(all.size(), 6u);
  for (const std::string& path : second.written_files()) {
    EXPECT_EQ(std::count(first.written_files().begin(), first.written_files().end(), path), 0)
        << path;
  }
}

TEST(StorageDvWriter, TheDescriptorReadsBackAsTheRows) {
  rlc::storage::InMemoryStorage storage;
  StorageDvWriter writer(storage, "/t", "/t", 1);
  rlc::dv::RowBitmap rows;
  for (uint64_t r : {0u, 5u, 6u, 7u, 4000u}) rows.Add(r);
  rlc::Result<rlc::dv::DvDescriptor> d = writer.Write(rows);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->storage_type, 'u');
  EXPECT_EQ(d->cardinality, 5);
  rlc::Result<rlc::dv::RowBitmap> back = rlc::delta::LoadDeletionVector(storage, "/t", *d);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ToVector(), rows.ToVector());
}

}  // namespace
