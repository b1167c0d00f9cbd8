// Per-file statistics: the `stats` JSON string of an add or remove (docs/formats.md#a2).
//
// Concern: parse the string into typed values. Each function takes the statistics as an action
// holds them (stats_json.h), plain or still escaped (its escapes were checked when it was kept).
// A string or a literal converts to plain statistics. numRecords counts *physical* rows (before the
// DV); it is mandatory when a DV is present (the caller checks that). minValues, maxValues and
// nullCount nest like the schema; leaves are keyed by their column path. tightBounds absent
// means true; with wide bounds (false) min/max still bound the live rows, and nullCount says
// something only when it is 0 or numRecords.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DELTA_STATS_H_
#define RLC_IMPL_DELTA_STATS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/stats_json.h"

namespace rlc::delta {

// A column's path from the top of the schema, e.g. {"address", "city"}.
using ColumnPath = std::vector<std::string>;

// A statistic's value as JSON gives it: null, a boolean, an integer, a floating-point number,
// or a string (strings, dates and timestamps; strings may be truncated prefixes).
using StatValue = std::variant<std::monostate, bool, int64_t, double, std::string>;

struct FileStats {
  std::optional<int64_t> num_records;  // physical rows
  std::map<ColumnPath, StatValue> min_values;
  std::map<ColumnPath, StatValue> max_values;
  std::map<ColumnPath, int64_t> null_count;
  bool tight_bounds = true;  // absent in the JSON means true
};

// Errors (kCorrupt) name the field, e.g. "stats.minValues.a.b: expected a number".
Result<FileStats> ParseStats(const StatsJson& stats);

// A statistic's value as a view: a string points into the parse's own buffer (see StatsView).
struct StatValueView {
  enum class Kind : uint8_t { kNull, kBool, kInt, kDouble, kString };
  Kind kind = Kind::kNull;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;
  std::string_view text;
};

// What a file's statistics say of one column; absent where they say nothing.
struct ColumnStats {
  std::optional<StatValueView> min, max;
  std::optional<int64_t> null_count;
};

// The statistics of the columns one asked for, without building any map: the conflict check
// judges every add of a winner (a hundred thousand) against a few columns. Valid until the next
// call of a function of this header on the same thread, and while the StatsJson read lives (the
// strings are views into that thread's parse buffer or into the statistics' own text).
struct StatsView {
  std::optional<int64_t> num_records;
  bool tight_bounds = true;
  std::vector<ColumnStats> columns;  // columns[i] answers the i-th column asked for
};

// Parses `stats` exactly as ParseStats does (the same checks of every field, the same errors) but
// keeps only what it says of `columns`, in `out` (whose memory is reused). Statistics of the
// common form are read where they lie, escaped or not, without unescaping or copying them.
Status ParseStatsOf(const StatsJson& stats, const std::vector<ColumnPath>& columns, StatsView* out);
// A temporary (a string converted on the way in) would die before the views into it.
Status ParseStatsOf(StatsJson&& stats, const std::vector<ColumnPath>& columns,
                    StatsView* out) = delete;

// ParseStatsOf over one text after another (the adds of a winner), for the same columns. It
// remembers the shape of the last text it read whole (every byte between the values, and what each
// value is) and reads a text of that shape by comparing those bytes and reading only the values:
// the same answer, for a fraction of the work (docs/formats.md#a2).
// Thread-safety: one reader per thread.
class StatsReader {
 public:
  // `columns` must outlive the reader.
  explicit StatsReader(const std::vector<ColumnPath>& columns);
  ~StatsReader();
  StatsReader(const StatsReader&) = delete;
  StatsReader& operator=(const StatsReader&) = delete;

  // As ParseStatsOf(stats, columns, out).
  Status Read(const StatsJson& stats, StatsView* out);
  Status Read(StatsJson&& stats, StatsView* out) = delete;  // as ParseStatsOf's

 private:
  struct Memory;
  const std::vector<ColumnPath>& columns_;
  std::unique_ptr<Memory> memory_;
};

// The same statistics with tightBounds=false (a DV changed which rows are live, so min, max and
// nullCount now describe a superset of them; docs/formats.md#a2). Every other field is kept
// as written. kCorrupt when the statistics are not an object.
Result<StatsJson> WithWideBounds(const StatsJson& stats);

// Only numRecords, without building the maps (the replay's hot path).
Result<std::optional<int64_t>> ParseNumRecords(const StatsJson& stats);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_STATS_H_
