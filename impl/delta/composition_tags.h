// Composition tags: where an OPTIMIZE put a removed source's rows (docs/formats.md#d).
//
// Concern: parse and write the two RemoveFile tags
//   compactedInto  = JSON array of exactly one string: the output's path as in its AddFile;
//   compactionInfo = JSON array of exactly one object {rowOffsetInTarget,
//   sourceNumPhysicalRecords}.
// As docs/decisions.md#composition-tags says: unknown keys in the tag map and unknown fields
// inside the compactionInfo entry are ignored; any other shape (a tag missing, not exactly one
// output, not exactly one entry, a missing or non-integer field, a negative number, malformed
// JSON) means "no composition": the parser returns nullopt and a reconcile that needs it aborts.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DELTA_COMPOSITION_TAGS_H_
#define RLC_IMPL_DELTA_COMPOSITION_TAGS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "impl/delta/actions.h"

namespace rlc::delta {

inline constexpr std::string_view kCompactedIntoTag = "compactedInto";
inline constexpr std::string_view kCompactionInfoTag = "compactionInfo";

struct CompositionTag {
  std::string output_path;                  // the compacted output's AddFile.path
  int64_t row_offset_in_target = 0;         // output position of this source's first live row
  int64_t source_num_physical_records = 0;  // live rows written + |the tombstone's DV|
  friend bool operator==(const CompositionTag&, const CompositionTag&) = default;
};

// nullopt for any shape but the one above.
std::optional<CompositionTag> ParseCompositionTags(const StringMap& tags);
std::optional<CompositionTag> ParseCompositionTags(std::string_view compacted_into_json,
                                                   std::string_view compaction_info_json);

// Sets (or replaces) the two tags in `tags`, keeping every other tag.
void WriteCompositionTags(const CompositionTag& tag, StringMap* tags);
// Removes the two tags, keeping every other tag; an emptied map becomes absent.
void EraseCompositionTags(std::optional<StringMap>* tags);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_COMPOSITION_TAGS_H_
