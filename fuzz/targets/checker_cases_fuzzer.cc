// Fuzz target: the conflict checker with every reconcile case on, against hostile winners.
//
// Input: a pending transaction (the `rlc check --txn` JSON), then "\n---\n", then a winning commit
// (Delta JSON lines), optionally a second "\n---\n" and a second winner. The read table is fixed
// (unpartitioned, DVs enabled, WriteSerializable); DVs the cases write go to memory.
//
// Checks: nothing crashes on any bytes (tags that lie, DVs that do not decode, numbers at the
// edges); and monotonicity: where the check with every flag off commits, the check with all six
// flags on commits too, with the same actions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_check.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/dv_writer.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/table_files.h"

namespace {

namespace conflict = rlc::conflict;

const conflict::ReadTable& Table() {
  static const conflict::ReadTable table = [] {
    conflict::ReadTable t{{}, {}};
    t.metadata.id = "t";
    t.metadata.schema_string =
        R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]})";
    t.metadata.configuration = {{"delta.enableDeletionVectors", "true"},
                                {"delta.isolationLevel", "WriteSerializable"}};
    t.protocol.min_reader_version = 3;
    t.protocol.min_writer_version = 7;
    t.protocol.reader_features = std::vector<std::string>{"deletionVectors"};
    t.protocol.writer_features = std::vector<std::string>{"deletionVectors"};
    return t;
  }();
  return table;
}

rlc::Result<conflict::Verdict> Run(const conflict::PendingTransaction& loser,
                                   const std::vector<conflict::WinningCommit>& winners) {
  rlc::storage::InMemoryStorage memory;  // fresh per run: the seeded writer reuses names
  conflict::StorageTableFiles files(memory, "/t");
  conflict::StorageDvWriter writer(memory, "/t", "/t", /*seed=*/1);
  conflict::CheckEnvironment env;
  env.files = &files;
  env.dv_writer = &writer;
  env.now_ms = 1700000000000;
  return conflict::CheckConflicts(loser, Table(), winners, env);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n---\n";
  const size_t first = text.find(kSeparator);
  if (first == std::string_view::npos) return 0;
  rlc::Result<conflict::PendingTransaction> parsed =
      conflict::ParsePendingTransaction(text.substr(0, first));
  if (!parsed.ok()) return 0;
  conflict::PendingTransaction loser = std::move(parsed).value();
  if (loser.read_version < 0 || loser.read_version > 1000) return 0;
  std::vector<conflict::WinningCommit> winners;
  std::string_view rest = text.substr(first + kSeparator.size());
  while (winners.size() < 2) {
    const size_t next = rest.find(kSeparator);
    winners.push_back({loser.read_version + 1 + static_cast<int64_t>(winners.size()),
                       std::string(rest.substr(0, next)), "winner"});
    if (next == std::string_view::npos) break;
    rest = rest.substr(next + kSeparator.size());
  }
  loser.flags = conflict::Flags{};
  const rlc::Result<conflict::Verdict> off = Run(loser, winners);
  loser.flags = conflict::Flags::Every();
  const rlc::Result<conflict::Verdict> on = Run(loser, winners);
  // (With flags on, the check may reach a later winner whose bytes are bad where the flags-off
  // check had already aborted; only a flags-off commit, which read every winner, binds.)
  if (off.ok() && off->commits()) {
    FUZZ_CHECK(on.ok());
    FUZZ_CHECK(on->commits());
    FUZZ_CHECK(on->actions == off->actions);
  }
  return 0;
}
