// libFuzzer target: rlc::delta::ParseActionLine on the input, ParseCommit on the whole input,
// and the writer's round trip.
//
// Checks:
//   - ParseActionLine(input) ok => WriteActionLine(action) parses back to an equal action;
//   - ParseCommit(input) ok => every action round-trips the same way; each non-empty line (split
//     on '\n', one trailing '\r' dropped, as ParseCommit does) parses alone with ParseActionLine
//     to the same action; WriteCommitFile(actions) parses back with ParseCommit to equal actions;
//   - the input as an add's statistics, plain and escaped as a commit holds them: ParseStatsOf
//     (whose own reader takes the common text and hands the rest to the general one) accepts it
//     exactly when ParseStats does, with the same message when not, and says of its columns what
//     ParseStats says.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/actions.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/stats.h"

namespace {

using rlc::delta::Action;

void CheckLineRoundTrip(const Action& action) {
  const std::string line = rlc::delta::WriteActionLine(action);
  rlc::Result<Action> back = rlc::delta::ParseActionLine(line);
  if (!back.ok()) {
    std::fprintf(stderr, "written line does not parse: %s\n  line: %s\n",
                 back.status().ToString().c_str(), line.c_str());
  }
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(*back == action);
}

// The non-empty lines of `bytes`, split the way ParseCommit splits them.
std::vector<std::string_view> Lines(std::string_view bytes) {
  std::vector<std::string_view> lines;
  while (!bytes.empty()) {
    const size_t newline = bytes.find('\n');
    std::string_view line = bytes.substr(0, newline);
    bytes.remove_prefix(newline == std::string_view::npos ? bytes.size() : newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

rlc::delta::StatValue Owned(const rlc::delta::StatValueView& v) {
  using K = rlc::delta::StatValueView::Kind;
  if (v.kind == K::kBool) return v.boolean;
  if (v.kind == K::kInt) return v.integer;
  if (v.kind == K::kDouble) return v.number;
  if (v.kind == K::kString) return std::string(v.text);
  return std::monostate{};
}

// Read by one reader per form from input to input: most inputs are mutations of the one before,
// so a reader reads many by the shape of the last it read whole.
void CheckStatsOf(const rlc::delta::StatsJson& stats, const std::string& json) {
  static const auto& columns = *new std::vector<rlc::delta::ColumnPath>{{"a"}, {"b", "c"}, {"id"}};
  static auto& plain_reader = *new rlc::delta::StatsReader(columns);
  static auto& escaped_reader = *new rlc::delta::StatsReader(columns);
  const rlc::Result<rlc::delta::FileStats> whole = rlc::delta::ParseStats(json);
  rlc::delta::StatsView view;
  const rlc::Status of = (stats.escaped() ? escaped_reader : plain_reader).Read(stats, &view);
  FUZZ_CHECK(of.ok() == whole.ok());
  if (!of.ok()) {
    FUZZ_CHECK(of.message() == whole.status().message());
    return;
  }
  FUZZ_CHECK(view.num_records == whole->num_records);
  FUZZ_CHECK(view.tight_bounds == whole->tight_bounds);
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto min = whole->min_values.find(columns[i]);
    const auto max = whole->max_values.find(columns[i]);
    const auto nulls = whole->null_count.find(columns[i]);
    const rlc::delta::ColumnStats& c = view.columns[i];
    FUZZ_CHECK(c.min.has_value() == (min != whole->min_values.end()));
    FUZZ_CHECK(c.max.has_value() == (max != whole->max_values.end()));
    FUZZ_CHECK(c.null_count.has_value() == (nulls != whole->null_count.end()));
    if (c.min) FUZZ_CHECK(Owned(*c.min) == min->second);
    if (c.max) FUZZ_CHECK(Owned(*c.max) == max->second);
    if (c.null_count) FUZZ_CHECK(*c.null_count == nulls->second);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string json(input);
  CheckStatsOf(json, json);
  // Text that is not UTF-8 cannot be a commit's statistics (the commit's parse refuses it).
  if (const auto escaped = rlc::delta::StatsJson::EscapedCopyOf(json)) CheckStatsOf(*escaped, json);

  rlc::Result<Action> action = rlc::delta::ParseActionLine(input);
  if (action.ok()) CheckLineRoundTrip(*action);

  rlc::Result<rlc::delta::Commit> commit = rlc::delta::ParseCommit(input, 7, "fuzz.json");
  if (!commit.ok()) return 0;
  FUZZ_CHECK(commit->version == 7);
  const std::vector<std::string_view> lines = Lines(input);
  FUZZ_CHECK(lines.size() == commit->actions.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const Action& a = commit->actions[i];
    CheckLineRoundTrip(a);
    rlc::Result<Action> alone = rlc::delta::ParseActionLine(lines[i]);
    FUZZ_CHECK(alone.ok());
    FUZZ_CHECK(*alone == a);
  }
  const std::string file = rlc::delta::WriteCommitFile(commit->actions);
  rlc::Result<rlc::delta::Commit> again = rlc::delta::ParseCommit(file, 7, "rewritten.json");
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->actions == commit->actions);
  return 0;
}
