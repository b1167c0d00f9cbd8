#include "impl/delta/file_table.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rlc::delta {
namespace {

// A batch of adds laid out as a checkpoint reader lays them out (add_columns.h), built from
// plain rows. A row is an add with a path, no partition values, a size, a modification time,
// dataChange and optional statistics; `without_size` rows have a NULL size (not a direct add);
// `no_add` rows hold another action (the add struct is NULL there).
struct BatchRows {
  struct Row {
    Row(std::string p, std::optional<std::string> s = std::nullopt, int64_t z = 1,
        bool null_size = false, bool other_action = false)
        : path(std::move(p)),
          stats(std::move(s)),
          size(z),
          without_size(null_size),
          no_add(other_action) {}
    std::string path;
    std::optional<std::string> stats;
    int64_t size;
    bool without_size, no_add;
  };
  std::vector<Row> rows;

  // The memory the views point into; kept by the batch's owner.
  struct Memory {
    std::vector<int32_t> path_offsets{0}, stats_offsets{0}, map_offsets{0};
    std::string path_bytes, stats_bytes;
    std::vector<int64_t> sizes, times;
    std::vector<uint8_t> add_valid, size_valid, stats_valid, true_bits;
  };

  static void SetBit(std::vector<uint8_t>& bits, size_t i, bool on) {
    if (bits.size() <= i / 8) bits.resize(i / 8 + 1, 0);
    if (on) bits[i / 8] |= uint8_t(1u << (i % 8));
  }

  AddColumns Make(std::string source) const {
    auto m = std::make_shared<Memory>();
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      m->path_bytes += r.path;
      m->path_offsets.push_back(int32_t(m->path_bytes.size()));
      m->stats_bytes += r.stats.value_or("");
      m->stats_offsets.push_back(int32_t(m->stats_bytes.size()));
      m->map_offsets.push_back(0);
      m->sizes.push_back(r.size);
      m->times.push_back(7);
      SetBit(m->add_valid, i, !r.no_add);
      SetBit(m->size_valid, i, !r.without_size);
      SetBit(m->stats_valid, i, r.stats.has_value());
      SetBit(m->true_bits, i, true);
    }
    AddColumns c;
    c.length = int64_t(rows.size());
    c.source = std::move(source);
    c.add = {m->add_valid.data(), 0};
    c.path = {{}, m->path_offsets.data(), m->path_bytes.data(), 0};
    c.partition_values.offsets = m->map_offsets.data();
    c.size = {{m->size_valid.data(), 0}, m->sizes.data(), 0};
    c.modification_time = {{}, m->times.data(), 0};
    c.data_change = {{}, {m->true_bits.data(), 0}, true};
    c.stats = {{m->stats_valid.data(), 0}, m->stats_offsets.data(), m->stats_bytes.data(), 0};
    const std::string name = c.source;
    const std::vector<Row> copy = rows;
    c.slow_row = [copy, name](int64_t row) -> Result<Action> {
      if (copy[size_t(row)].without_size)
        return Status::Corrupt(name + ": row " + std::to_string(row) + ": add.size is null");
      return Status::Corrupt("unexpected slow row");
    };
    c.owner = m;
    return c;
  }
};

AddFile Add(const std::string& path, int64_t size = 1) {
  AddFile a;
  a.path = path;
  a.size_bytes = size;
  a.modification_time_ms = 7;
  return a;
}

FileTable FromRows(const std::vector<BatchRows::Row>& rows,
                   std::map<std::string, AddFile> loose = {}) {
  std::vector<AddColumns> batches;
  batches.push_back(BatchRows{rows}.Make("cp.parquet"));
  Result<FileTable> t = FileTable::FromColumns(std::move(batches), std::move(loose));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(*t) : FileTable();
}

std::vector<std::string> Keys(const FileTable& t) {
  std::vector<std::string> keys;
  for (const auto& [key, add] : t) keys.push_back(key);
  return keys;
}

TEST(FileTable, ABatchsAddsAreFoundByDecodedPathAndBuiltAsTheParseBuildsThem) {
  const FileTable t = FromRows({{"b.parquet", R"({"numRecords":3})", 30},
                                {"a%20b.parquet", std::nullopt, 20},
                                {"x", std::nullopt, 1, false, true}});
  EXPECT_EQ(t.size(), 2u);
  ASSERT_TRUE(t.contains("a b.parquet"));
  EXPECT_FALSE(t.contains("a%20b.parquet"));  // keys are decoded paths
  EXPECT_FALSE(t.contains("x"));              // a row without an add holds no file
  const AddFile& b = t.at("b.parquet");
  EXPECT_EQ(b.path, "b.parquet");
  EXPECT_EQ(b.size_bytes, 30);
  EXPECT_EQ(b.modification_time_ms, 7);
  EXPECT_TRUE(b.data_change);
  EXPECT_EQ(b.stats, R"({"numRecords":3})");
  EXPECT_EQ(t.at("a b.parquet").path, "a%20b.parquet");  // the add keeps its raw path
  EXPECT_EQ(t.at("a b.parquet").stats, std::nullopt);
  EXPECT_EQ(&t.at("b.parquet"), &t.find("b.parquet")->second);  // built once, then kept
  EXPECT_EQ(Keys(t), (std::vector<std::string>{"a b.parquet", "b.parquet"}));
}

TEST(FileTable, OnePathAddedTwiceIsCorruptNamingTheFile) {
  std::vector<AddColumns> batches;
  batches.push_back(BatchRows{{{"a"}, {"b"}, {"a"}}}.Make("cp.parquet"));
  Result<FileTable> twice = FileTable::FromColumns(std::move(batches), {});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(twice.status().message(), "cp.parquet: two adds of path 'a'");
  // A batch row and an add from elsewhere in the checkpoint, too.
  batches.clear();
  batches.push_back(BatchRows{{{"a%2Fb"}}}.Make("part-2.parquet"));
  std::map<std::string, AddFile> loose = {{"a/b", Add("a/b")}};
  twice = FileTable::FromColumns(std::move(batches), std::move(loose));
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().message(), "part-2.parquet: two adds of path 'a/b'");
}

TEST(FileTable, ARowWithoutARequiredFieldGoesThroughTheGeneralParseAndItsError) {
  std::vector<AddColumns> batches;
  batches.push_back(BatchRows{{{"a"}, {"b", std::nullopt, 1, true}}}.Make("cp.parquet"));
  Result<FileTable> t = FileTable::FromColumns(std::move(batches), {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "cp.parquet: row 1: add.size is null");
}

TEST(FileTable, ChangesOnTopOfTheBaseShadowIt) {
  FileTable t = FromRows({{"a"}, {"c"}, {"e"}});
  EXPECT_EQ(t.erase("c"), 1u);
  EXPECT_EQ(t.erase("c"), 0u);
  EXPECT_FALSE(t.contains("c"));
  t.insert_or_assign("e", Add("e", 99));  // replaces the base's e
  EXPECT_EQ(t.at("e").size_bytes, 99);
  EXPECT_FALSE(t.emplace("a", Add("a", 5)).second);  // the base's a stays
  EXPECT_EQ(t.at("a").size_bytes, 1);
  t["a"].size_bytes = 6;  // copied up, then changed
  EXPECT_EQ(t.at("a").size_bytes, 6);
  EXPECT_TRUE(t.emplace("b", Add("b")).second);
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(Keys(t), (std::vector<std::string>{"a", "b", "e"}));
  const FileTable copy = t;  // shares the base, copies the changes
  t.erase("b");
  EXPECT_TRUE(copy.contains("b"));
  EXPECT_FALSE(t.contains("b"));
}

// The map idiom of keying by a field of the value moved in: the key is taken first.
TEST(FileTable, AnAddMovedInIsKeyedByItsOwnPath) {
  FileTable t;
  for (const std::string path : {"x", "y"}) {
    AddFile add = Add(path);
    EXPECT_TRUE(t.emplace(add.path, std::move(add)).second);
    AddFile again = Add(path, 5);
    t.insert_or_assign(again.path, std::move(again));
  }
  EXPECT_EQ(Keys(t), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(t.at("y").size_bytes, 5);
}

TEST(FileTable, IteratingOnFromAFoundFileVisitsTheRestInOrder) {
  FileTable t = FromRows({{"d"}, {"b"}, {"f"}});
  t.emplace("c", Add("c"));
  t.emplace("g", Add("g"));
  std::vector<std::string> from_b, from_c;
  for (auto it = t.find("b"); it != t.end(); ++it) from_b.push_back(it->first);
  for (auto it = t.find("c"); it != t.end(); ++it) from_c.push_back(it->first);
  EXPECT_EQ(from_b, (std::vector<std::string>{"b", "c", "d", "f", "g"}));
  EXPECT_EQ(from_c, (std::vector<std::string>{"c", "d", "f", "g"}));
  EXPECT_TRUE(t.find("e") == t.end());
}

// Random changes to a table with a base and to std::map: the same answers and the same order.
TEST(FileTable, BehavesAsAnOrderedMapUnderRandomChanges) {
  std::mt19937 random(20261203);
  for (int round = 0; round < 200; ++round) {
    std::vector<BatchRows::Row> rows;
    std::map<std::string, AddFile> model;
    const int n = int(random() % 12);
    for (int i = 0; i < n; ++i) {
      const std::string path = "f" + std::to_string(random() % 30);
      if (model.count(path) != 0) continue;
      rows.push_back({path, std::nullopt, int64_t(i)});
      model.emplace(path, Add(path, i));
    }
    FileTable t = rows.empty() ? FileTable() : FromRows(rows);
    for (int step = 0; step < 20; ++step) {
      const std::string key = "f" + std::to_string(random() % 30);
      const int64_t size = int64_t(random() % 100);
      switch (random() % 4) {
        case 0:
          ASSERT_EQ(t.erase(key), model.erase(key));
          break;
        case 1:
          t.insert_or_assign(key, Add(key, size));
          model.insert_or_assign(key, Add(key, size));
          break;
        case 2:
          ASSERT_EQ(t.emplace(key, Add(key, size)).second,
                    model.emplace(key, Add(key, size)).second);
          break;
        default:
          t[key].size_bytes = size;
          model[key].size_bytes = size;
          break;
      }
      ASSERT_EQ(t.size(), model.size());
      const std::map<std::string, AddFile> seen(t.begin(), t.end());
      ASSERT_EQ(seen, model) << "round " << round;
      for (const auto& [k, add] : model) ASSERT_EQ(t.at(k), add);
    }
  }
}

}  // namespace
}  // namespace rlc::delta
