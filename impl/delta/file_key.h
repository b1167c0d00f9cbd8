// A data file's identity in a log, and the small facts every layer asks of an add or a remove.
//
// Concern: one home for what the checker, the cases and the audit all need. A file is named in a
// log by a URI-escaped path; two actions name the same file when their decoded paths are equal
// (docs/formats.md#a1). The policy for a path whose escapes do not decode: the raw path is its
// own key (such a path can only ever equal itself). Two actions name the same version of a file
// when they also name the same DV (by its unique id, or both none). An add's row count is its
// statistics' numRecords, absent when the statistics are missing or do not parse.
//
// Thread-safety: pure functions.
#ifndef RLC_IMPL_DELTA_FILE_KEY_H_
#define RLC_IMPL_DELTA_FILE_KEY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "impl/delta/actions.h"
#include "impl/dv/descriptor.h"

namespace rlc::delta {

// The path with %XX escapes decoded (the raw path when it does not decode).
std::string DecodedPath(const std::string& path);
// Whether the path holds an escape (a path without one is its own decoded key).
inline bool HasEscape(const std::string& path) { return path.find('%') != std::string::npos; }
// A hash of the decoded path: equal for two spellings of one file. Taken where the path is at
// hand (a winner's summary takes it as it parses), so that a lookup of a winner's 100,000s of
// removed paths need not read the paths themselves.
uint64_t PathKey(const std::string& path);

// The same DV (by unique id), or both without one.
bool SameDv(const std::optional<dv::DvDescriptor>& a, const std::optional<dv::DvDescriptor>& b);

// Delta's "remove from an add": a remove of exactly that version of the file, carrying its
// partition values, size, statistics, tags, DV and row-tracking fields (extendedFileMetadata).
RemoveFile RemoveFrom(const AddFile& add, int64_t deletion_timestamp_ms, bool data_change);

// numRecords of an action's statistics; nullopt when they are absent, do not parse or lack it.
std::optional<int64_t> NumRecordsOf(const std::optional<StatsJson>& stats);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_FILE_KEY_H_
