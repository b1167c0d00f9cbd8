// The oracle's check (a): do the rows a reader sees equal the model's serial result?
//
// Concern: turn what the oracle's own reader sees (reference_reader.h) into the model's row
// values, and compare them with the serial results of the committed transactions in the orders
// the isolation level allows (model/isolation: Observe, CheckFinalRows). Rows are compared by
// value (identities dropped), as two tables must agree.
//
// Thread-safety: stateless functions.
#ifndef RLC_FUZZ_ORACLE_FINAL_ROWS_H_
#define RLC_FUZZ_ORACLE_FINAL_ROWS_H_

#include <optional>
#include <string>
#include <vector>

#include "fuzz/oracle/reference_reader.h"
#include "model/isolation/history.h"
#include "model/isolation/isolation.h"
#include "model/semantics/table.h"

namespace rlc::oracle {

// The snapshot's live rows as model values in the order of `table`'s schema, sorted; nullopt (and
// why) when a row does not fit the schema. A partition value is read as the table's writers wrote
// it: a timestamp without a zone in their session zone (table.session_offset_minutes).
std::optional<std::vector<std::vector<model::Value>>> ReferenceContents(
    const ReferenceSnapshot& snapshot, const model::LogicalTable& table, std::string* why);

struct FinalRowsReport {
  model::OracleResult result;
  std::vector<std::vector<model::Value>> actual;
  std::string error;  // the table could not be read
};

FinalRowsReport CheckFinalRowsOfTable(const std::string& table_dir,
                                      const model::CommittedHistory& history,
                                      model::IsolationLevel level, size_t max_orders = 5000);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_FINAL_ROWS_H_
