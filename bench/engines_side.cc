// rlc's side of bench/engines_bench.py: the tables it hands to rlc, delta-rs and Delta Spark,
// written from the generators the in-process benchmarks use (so that every engine is measured on
// the same bytes), and rlc's own snapshot construction on such a table.
//
//   rlc_engines_side check-fixture DIR
//     DIR/table/_delta_log/0.json: protocol, metaData (checker_bench.cc's table, partitioned by
//       `part`) and the 10,000 files of p0 the loser reads, with statistics its predicate keeps;
//     DIR/winner.json: checker_bench.cc's 100,000-action MERGE, to be put in place as version 1;
//     DIR/loser.json: the loser's actions, one JSON action per line; DIR/loser-read.txt: its read
//       predicate.
//   rlc_engines_side snapshot-fixture DIR
//     DIR/table: a classic Parquet checkpoint at version 10 of 1,000,000 files with statistics
//       (parquet_checkpoint_bench.cc's shape), then commits 11..20, each removing one file and
//       adding one; no JSON before the checkpoint, as a log cleanup leaves it.
//   rlc_engines_side replay TABLE RUNS
//     Times ReplayLogWithCheckpoints (what inspect, check and audit do to build a snapshot) on the
//     table RUNS times after one warm-up; prints {"snapshotMs": median, "files": N}.
//   rlc_engines_side check RUNS
//     Times checker_bench.cc's baseline check (CheckConflicts from the winner's bytes to the
//     verdict) RUNS times after one warm-up; prints {"checkMs": median}.
// Linked with the allocator the rlc tool uses (tcmalloc), so both timings are rlc's as it runs.
// Exit 0, or 2 with a message naming what failed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/commit_fixture.h"
#include "impl/conflict/checker.h"
#include "impl/delta/checkpoint.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/checkpoint_writer.h"
#include "impl/storage/storage.h"

namespace {

namespace delta = rlc::delta;
using rlc::Status;

Status WriteText(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return out.good() ? Status::Ok() : Status::IoError(path.string() + ": cannot write");
}

Status WriteCheckFixture(const std::string& dir) {
  const rlc::conflict::ReadTable table = rlc::bench::BenchReadTable(/*partitioned=*/true);
  std::vector<delta::Action> first = {table.protocol, table.metadata};
  for (int i = 0; i < 10000; ++i) {
    delta::AddFile add;
    add.path = rlc::bench::BenchLoserReadFile(i);
    add.partition_values = {{"part", "p0"}};
    add.size_bytes = 1000;
    add.modification_time_ms = 1700000000000;
    add.stats = R"({"numRecords":10,"minValues":{"id":0},"maxValues":{"id":2000},)"
                R"("nullCount":{"id":0}})";
    first.push_back(add);
  }
  Status s = WriteText(dir + "/table/_delta_log/" + delta::CommitFileName(0),
                       delta::WriteCommitFile(first));
  if (!s.ok()) return s;
  s = WriteText(dir + "/winner.json", rlc::bench::BenchWinner());
  if (!s.ok()) return s;
  const rlc::conflict::PendingTransaction loser = rlc::bench::BenchLoser();
  s = WriteText(dir + "/loser.json", delta::WriteCommitFile(loser.actions));
  if (!s.ok()) return s;
  return WriteText(dir + "/loser-read.txt", loser.read_predicates.at(0) + "\n");
}

Status WriteSnapshotFixture(const std::string& dir) {
  const rlc::conflict::ReadTable table = rlc::bench::BenchReadTable(/*partitioned=*/false);
  delta::Snapshot snapshot;
  snapshot.version = 10;
  snapshot.protocol = table.protocol;
  snapshot.metadata = table.metadata;
  constexpr int64_t kFiles = 1'000'000;
  for (int64_t i = 0; i < kFiles; ++i) {
    delta::AddFile add;
    add.path = "part-" + std::to_string(i) + ".parquet";
    add.size_bytes = 1000 + i;
    add.modification_time_ms = 1700000000000;
    add.stats = R"({"numRecords":100,"minValues":{"id":)" + std::to_string(i) +
                R"(},"maxValues":{"id":)" + std::to_string(i + 99) + R"(},"nullCount":{"id":0}})";
    snapshot.files.emplace(add.path, std::move(add));
  }
  const std::unique_ptr<rlc::storage::Storage> storage = rlc::storage::NewLocalStorage();
  const std::string root = dir + "/table";
  rlc::Result<std::string> written = rlc::parquet::WriteCheckpoint(*storage, root, snapshot);
  if (!written.ok()) return written.status();
  for (int64_t v = 11; v <= 20; ++v) {
    delta::RemoveFile remove;
    remove.path = "part-" + std::to_string(v) + ".parquet";
    remove.deletion_timestamp_ms = 1700000000000;
    delta::AddFile add;
    add.path = "part-new-" + std::to_string(v) + ".parquet";
    add.size_bytes = 2000;
    add.modification_time_ms = 1700000000000;
    add.stats = R"({"numRecords":100})";
    const Status s = storage->PutIfAbsent(delta::LogDir(root) + "/" + delta::CommitFileName(v),
                                          delta::WriteCommitFile({remove, add}));
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

double Median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  return n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

// The median of `runs` baseline checks (after one warm-up), as a JSON line.
Status TimeCheck(int runs) {
  const std::vector<rlc::conflict::WinningCommit> winners = {
      {6, rlc::bench::BenchWinner(), "_delta_log/00000000000000000006.json"}};
  const rlc::conflict::PendingTransaction loser = rlc::bench::BenchLoser();
  const rlc::conflict::ReadTable table = rlc::bench::BenchReadTable(/*partitioned=*/true);
  std::vector<double> times;
  for (int i = 0; i <= runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    rlc::Result<rlc::conflict::Verdict> verdict =
        rlc::conflict::CheckConflicts(loser, table, winners);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (!verdict.ok()) return verdict.status();
    if (!verdict->commits()) return Status::Corrupt("the bench check aborts; it must commit");
    if (i > 0) times.push_back(took.count());
  }
  std::printf("{\"checkMs\": %.1f, \"runs\": %d}\n", Median(times), runs);
  return Status::Ok();
}

// The median of `runs` replays (after one warm-up), as a JSON line.
Status TimeReplay(const std::string& table, int runs) {
  const std::unique_ptr<rlc::storage::Storage> storage = rlc::storage::NewLocalStorage();
  std::vector<double> times;
  size_t files = 0;
  for (int i = 0; i <= runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    rlc::Result<delta::Snapshot> snapshot = delta::ReplayLogWithCheckpoints(
        *storage, table, std::nullopt, rlc::parquet::ArrowActionReader());
    if (!snapshot.ok()) return snapshot.status();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    files = snapshot->files.size();
    if (i > 0) times.push_back(took.count());
  }
  std::printf("{\"snapshotMs\": %.1f, \"files\": %zu, \"runs\": %d}\n", Median(times), files, runs);
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc >= 3 ? argv[1] : "";
  Status s = Status::InvalidArgument(
      "usage: rlc_engines_side check-fixture DIR | snapshot-fixture DIR | replay TABLE RUNS | "
      "check RUNS");
  if (mode == "check" && argc == 3) s = TimeCheck(std::max(1, std::atoi(argv[2])));
  if (mode == "check-fixture" && argc == 3) s = WriteCheckFixture(argv[2]);
  if (mode == "snapshot-fixture" && argc == 3) s = WriteSnapshotFixture(argv[2]);
  if (mode == "replay" && argc == 4) s = TimeReplay(argv[2], std::max(1, std::atoi(argv[3])));
  if (!s.ok()) {
    std::fprintf(stderr, "rlc_engines_side: %s\n", s.ToString().c_str());
    return 2;
  }
  return 0;
}
