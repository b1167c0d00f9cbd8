// StatsJson: the `stats` field of an add or remove, a JSON object written inside a JSON string
// (docs/formats.md#a2), kept as the commit wrote it.
//
// Concern: most reads of a commit never look at its statistics (every baseline rule, Cases 2, 3
// and 4 but for numRecords), yet a winner's hundred thousand adds each carry one. Unescaping and
// copying each into a string of its own was the largest part of parsing a commit, so the text
// is held in one of two forms:
//   - plain: the JSON text itself (statistics built in memory, read from a checkpoint);
//   - escaped: the characters between the quotes of the JSON string as the commit file holds them
//     (`{\"numRecords\":5}`), in a chunk shared with the other statistics of the same parse
//     (StatsChunks): one bulk copy, no unescaping, no allocation per action.
// The parse checks the escaped text's escapes (IsJsonStringInside) before it keeps it, so the
// escaped form always unescapes and is written back as it was read. Both forms of the same
// statistics compare equal.
//
// Thread-safety: a const StatsJson may be read from any thread; a chunk is never written once the
// parse that filled it has returned.
#ifndef RLC_IMPL_DELTA_STATS_JSON_H_
#define RLC_IMPL_DELTA_STATS_JSON_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "impl/base/status.h"

namespace rlc::delta {

class StatsJson {
 public:
  // Plain JSON text. Implicit: statistics are written as JSON text everywhere they are built.
  StatsJson(std::string json);  // NOLINT(google-explicit-constructor)
  StatsJson(const char* json) : StatsJson(std::string(json)) {}  // NOLINT
  // Escaped text (see above), a view into `owner`, which keeps it alive.
  // REQUIRES: IsJsonStringInside(escaped).
  static StatsJson Escaped(std::shared_ptr<const std::string> owner, std::string_view escaped);
  // `json` escaped as a commit writes it (tests compare both forms' answers); nullopt when it
  // cannot stand inside a JSON string (it is not UTF-8), as no commit's statistics can.
  static std::optional<StatsJson> EscapedCopyOf(std::string_view json);

  bool escaped() const { return escaped_; }
  // The text as held: plain JSON, or escaped as between a JSON string's quotes.
  std::string_view text() const { return text_; }

  // The JSON text (a copy; unescaped when escaped).
  std::string Json() const;

  friend bool operator==(const StatsJson& a, const StatsJson& b);

 private:
  StatsJson(std::shared_ptr<const std::string> owner, std::string_view text, bool escaped)
      : owner_(std::move(owner)), text_(text), escaped_(escaped) {}

  std::shared_ptr<const std::string> owner_;
  std::string_view text_;
  bool escaped_ = false;
};

// Whether `text` may stand between the quotes of a JSON string: no quote or control character
// unescaped, every escape one JSON allows (a \u escape a valid code point or surrogate pair).
bool IsJsonStringInside(std::string_view text);

// Where one parse keeps the escaped statistics it meets: chunks filled in order, each sized from
// the bytes still to parse (statistics are a part of them), so a chunk never outgrows the commit
// and a small commit's statistics take a small chunk. Not thread-safe: one per parse.
class StatsChunks {
 public:
  // `remaining`: an upper bound of the escaped bytes still to come in this parse, this one's
  // included.
  StatsJson Keep(std::string_view escaped, size_t remaining);

 private:
  std::shared_ptr<std::string> chunk_;
};

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_STATS_JSON_H_
