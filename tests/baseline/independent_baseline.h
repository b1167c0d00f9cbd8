// An independent baseline of Delta's conflict checks with every RLC flag off: a plain
// transcription of docs/baseline.md (B0-B4; docs/formats.md#a8) and docs/decisions.md#isolation,
// written for the flags-off property (docs/decisions.md#independence).
//
// Concern: given the loser (what it read, what it commits), the table as it read it, and the
// winners' actions in version order, say whether the loser commits or which exception aborts it,
// at which winner, on which path. It shares no code with impl/conflict/ and never parses
// predicates with impl/predicate/: it takes actions as typed values (impl/delta/actions.h) and
// evaluates only the tiny predicate grammar below.
//
// Read predicates: text in the tiny grammar `conjunct {AND conjunct}` where a conjunct is
//   part = 'x' | part IN ('x', 'y', ...) | part IS NULL | id > k
// (`part` is the partition column of a partitioned table, `id` a data column). A conjunct
// outside this grammar is treated as "may match" (on doubt, conflict).
//
// Project choices where docs/baseline.md is silent, taken from baseline_rules.h's documentation
// (the behaviour, not the code): any winner metaData aborts (the strict rule 2a), and a non-blind
// loser with no read predicate has read every partition. Files are compared by their path as
// written (the generated paths need no URL decoding).
//
// Thread-safety: stateless functions.
#ifndef RLC_TESTS_BASELINE_INDEPENDENT_BASELINE_H_
#define RLC_TESTS_BASELINE_INDEPENDENT_BASELINE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::test_baseline {

struct BaselineLoser {
  std::vector<std::string> read_predicates;  // the tiny grammar above
  std::vector<std::string> read_files;       // paths as in the log
  bool read_whole_table = false;
  std::vector<std::string> read_app_ids;
  std::vector<delta::Action> actions;        // commitInfo included
  std::vector<std::string> writer_features;  // what its writer supports beyond the read protocol
};

struct BaselineWinner {
  int64_t version = 0;
  std::vector<delta::Action> actions;
};

struct BaselineVerdict {
  bool commits = true;
  std::string exception;  // Delta's name, e.g. "ConcurrentAppendException"
  int64_t winner_version = 0;
  std::optional<std::string> path;  // the conflicting file, when the check names one
  std::string check;                // "B3.1", ..., "B3.7": which check fired (for coverage only)
};

// REQUIRES: winners are the consecutive versions after the loser's read version, in order.
BaselineVerdict BaselineCheck(const BaselineLoser& loser, const delta::Metadata& read_metadata,
                              const delta::Protocol& read_protocol,
                              const std::vector<BaselineWinner>& winners);

// The tiny grammar's evaluation on one file's partition values: may a row of that file satisfy
// the predicate? Exposed for the generator's own sanity checks.
bool TinyPredicateMayMatch(const std::string& predicate, const delta::StringMap& partition_values);

}  // namespace rlc::test_baseline

#endif  // RLC_TESTS_BASELINE_INDEPENDENT_BASELINE_H_
