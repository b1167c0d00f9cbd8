#include "bench/commit_fixture.h"

#include <random>

namespace rlc::bench {

conflict::ReadTable BenchReadTable(bool partitioned) {
  delta::Metadata m;
  m.id = "bench-table";
  m.schema_string =
      std::string(
          R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)") +
      R"({"name":"name","type":"string","nullable":true,"metadata":{}},)" +
      R"({"name":"ts","type":"timestamp","nullable":true,"metadata":{}})" +
      (partitioned ? R"(,{"name":"part","type":"string","nullable":true,"metadata":{}}]})" : "]}");
  if (partitioned) m.partition_columns = {"part"};
  m.configuration = {{"delta.enableDeletionVectors", "true"},
                     {"delta.isolationLevel", "WriteSerializable"}};
  delta::Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = std::vector<std::string>{"deletionVectors"};
  p.writer_features = std::vector<std::string>{"deletionVectors"};
  return conflict::ReadTable{m, p};
}

std::string BenchFilePath(const char* prefix, int i) {
  return std::string(prefix) + std::to_string(100000 + i) +
         "-c3f0a6e2-9b1f-4b8e-9a49-5b9d1f1c2e7a.c000.snappy.parquet";
}

std::string MakeFileActionsCommit(int actions, const CommitShape& shape) {
  std::mt19937_64 rng(7);
  const std::string data_change = shape.data_change ? "true" : "false";
  std::string out =
      R"({"commitInfo":{"timestamp":1,"operation":")" + shape.operation +
      R"(","operationParameters":{"predicate":"[]"},"readVersion":5,"isolationLevel":")" +
      shape.isolation_level + R"(","isBlindAppend":false}})" + "\n";
  for (int i = 1; i < actions; ++i) {
    std::string partition_values = "{}";
    std::string path = BenchFilePath("part-", i);
    if (shape.partitions > 0) {
      const std::string part = "p" + std::to_string(1 + i % shape.partitions);
      partition_values = R"({"part":")" + part + R"("})";
      path = "part=" + part + "/" + path;
    }
    const std::string stats =
        R"({\"numRecords\":)" + std::to_string(rng() % 1000000) + R"(,\"minValues\":{\"id\":)" +
        std::to_string(rng() % 1000) +
        R"(,\"name\":\"alpha\",\"ts\":\"2024-01-01T00:00:00.000Z\"},\"maxValues\":{\"id\":)" +
        std::to_string(1000 + rng() % 1000) +
        R"(,\"name\":\"omega\",\"ts\":\"2024-12-31T00:00:00.000Z\"},\"nullCount\":{\"id\":0,\"name\":3,\"ts\":0},\"tightBounds\":true})";
    std::string dv;
    if (i % 5 == 0) {
      dv =
          R"(,"deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":)" +
          std::to_string(1 + i) + R"(,"sizeInBytes":36,"cardinality":)" +
          std::to_string(1 + i % 40) + "}";
    }
    if (shape.adds_only || i % 2 == 0) {
      out += R"({"add":{"path":")" + path + R"(","partitionValues":)" + partition_values +
             R"(,"size":)" + std::to_string(rng() % 100000000) +
             R"(,"modificationTime":1700000000000,"dataChange":)" + data_change + R"(,"stats":")" +
             stats + "\"" + dv + R"(,"tags":{"INSERTION_TIME":"1700000000000000"}}})" + "\n";
    } else {
      out += R"({"remove":{"path":")" + path +
             R"(","deletionTimestamp":1700000000000,"dataChange":)" + data_change +
             R"(,"extendedFileMetadata":true,"partitionValues":)" + partition_values +
             R"(,"size":)" + std::to_string(rng() % 100000000) + R"(,"stats":")" + stats + "\"" +
             dv + "}}\n";
    }
  }
  return out;
}

std::string BenchWinner() {
  return MakeFileActionsCommit(100000, {.operation = "MERGE",
                                        .isolation_level = "WriteSerializable",
                                        .data_change = true,
                                        .partitions = 50});
}

std::string BenchLoserReadFile(int i) { return "part=p0/" + BenchFilePath("loser-", i); }

conflict::PendingTransaction BenchLoser() {
  conflict::PendingTransaction t;
  t.read_version = 5;
  t.read_predicates = {"part = 'p0' AND id > 100"};
  delta::CommitInfo info;
  info.operation = "DELETE";
  info.is_blind_append = false;
  t.actions.push_back(info);
  for (int i = 0; i < 10000; ++i) {
    const std::string path = BenchLoserReadFile(i);
    t.read_files.push_back(path);
    if (i < 5000) {
      delta::RemoveFile r;
      r.path = path;
      r.deletion_timestamp_ms = 1700000000000;
      r.partition_values = delta::StringMap{{"part", "p0"}};
      r.size_bytes = 1000;
      t.actions.push_back(r);
    } else if (i < 9999) {
      delta::AddFile a;
      a.path = "part=p0/" + BenchFilePath("rewritten-", i);
      a.partition_values = {{"part", "p0"}};
      a.size_bytes = 1000;
      a.stats = R"({"numRecords":10})";
      t.actions.push_back(a);
    }
  }
  return t;
}

}  // namespace rlc::bench
