// Fuzz target: the pending-transaction JSON that `rlc check --txn` reads, and Delta schema
// strings (TableSchema::Parse), both read from files a user supplies.
//
// Checks: neither parser crashes on any bytes; a parsed transaction's actions write back as
// lines that parse to equal actions; a parsed schema resolves each of its top-level fields.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/targets/fuzz_check.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/commit_writer.h"
#include "impl/predicate/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rlc::Result<rlc::conflict::PendingTransaction> txn = rlc::conflict::ParsePendingTransaction(text);
  if (txn.ok()) {
    for (const rlc::delta::Action& action : txn->actions) {
      rlc::Result<rlc::delta::Action> again =
          rlc::delta::ParseActionLine(rlc::delta::WriteActionLine(action));
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(*again == action);
    }
  }
  rlc::Result<rlc::predicate::TableSchema> schema =
      rlc::predicate::TableSchema::Parse(text, rlc::predicate::ColumnMappingMode::kName, {});
  if (schema.ok()) {
    for (const rlc::predicate::SchemaField& field : schema->fields()) {
      (void)schema->Resolve({field.name});  // may fail (e.g. no physical name), must not crash
    }
  }
  return 0;
}
