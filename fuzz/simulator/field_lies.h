// FieldLie: the grammar of a foreign writer's commit, field by field. For every field a winner's
// actions carry, a writer may tell it honestly (no lie drawn), leave it out, tell a stale value
// (the value an earlier action of the same file carried), or contradict the log or the data
// files. A writer's lies are a list drawn from this grammar, not a list of known bugs: any field
// of any action, in any combination, the action order included.
//
// Concern: the rewriting of a commit's actions as they are written to the log. The engine's own
// conflict check has already judged the honest actions (a lie is about the log, told to those
// who read it afterwards); the commit is then judged by the rows the oracle reads back, since a
// lie about a DV, a path's partition values or the order of a remove and an add may change them.
//
// Which action a lie is about: `which` counts the commit's actions of the field's kind (adds,
// removes, the commitInfo) in order, modulo their number; a commit without one is left as is.
//
// Thread-safety: stateless functions over plain values.
#ifndef RLC_FUZZ_SIMULATOR_FIELD_LIES_H_
#define RLC_FUZZ_SIMULATOR_FIELD_LIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::simulator {

struct FieldLie {
  enum class Field : uint8_t {
    kAddStats,       // minValues, maxValues, nullCount
    kAddNumRecords,  // stats.numRecords
    kAddSize,
    kAddDeletionVector,
    kAddTags,
    kAddDataChange,
    kAddPartitionValues,
    kRemoveStats,
    kRemoveSize,
    kRemoveDeletionVector,
    kRemoveDataChange,
    kRemovePartitionValues,
    kRemoveTags,
    kCommitReadVersion,
    kCommitIsBlindAppend,
    kCommitOperation,
    kCommitOperationParameters,
    kActionOrder,  // the file actions in reverse order (legal: a commit is a set of actions)
  };
  enum class Telling : uint8_t {
    kAbsent,         // the field left out (for a required field: the protocol's error)
    kStale,          // the value an earlier action of the same path carried (the remove's)
    kContradicting,  // a value the log or the data files refute
  };
  Field field = Field::kAddStats;
  Telling telling = Telling::kAbsent;
  uint8_t which = 0;
  friend bool operator==(const FieldLie&, const FieldLie&) = default;
};

inline constexpr int kFieldCount = static_cast<int>(FieldLie::Field::kActionOrder) + 1;

// "add.stats", "remove.deletionVector", "commitInfo.readVersion", "actions.order", ...
std::string_view FieldName(FieldLie::Field field);
// "absent", "stale", "contradicting".
std::string_view TellingName(FieldLie::Telling telling);

// Whether the conflict check takes the field on trust (docs/trust.md#fields lists it as
// trusted): a lie about it may cost data, which the ledger says and the explorer counts apart
// (tests/explorer/trust_ledger_test.cc holds this list to the ledger).
bool IsTrustedClaim(FieldLie::Field field);

// "add.stats:contradicting:1": the field, the telling and which action; ParseFieldLie reads it back
// (nullopt for text that is not one).
std::string FieldLieText(const FieldLie& lie);
std::optional<FieldLie> ParseFieldLie(std::string_view text);

// `actions` as a writer telling `lies` writes them, each lie in turn.
void ApplyFieldLies(const std::vector<FieldLie>& lies, std::vector<delta::Action>& actions);

}  // namespace rlc::simulator

#endif  // RLC_FUZZ_SIMULATOR_FIELD_LIES_H_
