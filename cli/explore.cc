#include "cli/explore.h"

#include "cli/heartbeat.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/scenario_command.h"
#include "cli/summary_text.h"
#include "cli/text_file.h"
#include "cli/version.h"
#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"

namespace rlc::cli {
namespace {

bool ParseShard(const std::string& text, int* index, int* count) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  const auto a = std::from_chars(text.data(), text.data() + slash, *index);
  const auto b = std::from_chars(text.data() + slash + 1, text.data() + text.size(), *count);
  return a.ec == std::errc() && a.ptr == text.data() + slash && b.ec == std::errc() &&
         b.ptr == text.data() + text.size() && *count >= 1 && *index >= 0 && *index < *count;
}

// --flags: the flags the generator may draw (every one when `names` is empty; none for "none").
Status AllowFlags(const std::vector<std::string>& names, conflict::Flags& allowed) {
  if (names.empty()) return Status::Ok();
  allowed = conflict::Flags{};
  if (names.size() == 1 && names[0] == "none") return Status::Ok();
  for (const std::string& name : names) RLC_RETURN_IF_ERROR(allowed.Set(name, "true"));
  return Status::Ok();
}

// After a campaign: its summary (printed, and saved under --out), the histories filed as Delta's
// own (--write-anomalies), and the exit code.
int ReportExplore(const ExploreCommand& c, explorer::Summary summary, std::ostream& out,
                  std::ostream& err) {
  summary.rlc_version = kVersion;
  if (!c.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(c.out_dir, ec);
    std::ofstream(std::filesystem::path(c.out_dir) / "summary.json")
        << explorer::SummaryToJson(summary) << "\n";
  }
  out << (c.json ? explorer::SummaryToJson(summary) + "\n" : ExploreSummaryText(summary));
  if (!c.write_anomalies.empty()) {
    const Result<int> written = explorer::WriteDeltasOwn(summary, c.write_anomalies);
    if (!written.ok()) {
      err << "rlc explore: --write-anomalies: " << written.status().ToString() << "\n";
      return 2;
    }
    if (!c.json)
      out << "wrote " << *written << " histories filed as Delta's own to " << c.write_anomalies
          << "\n";
  }
  if (summary.oracle_violations > 0) return 1;
  if (summary.determinism_mismatches > 0) {
    err << "rlc explore: " << summary.determinism_mismatches << " re-run(s) gave another outcome\n";
    return 1;
  }
  if (c.require_coverage && !c.exhaustive && !summary.MissingCoverage().empty()) {
    err << "rlc explore: --require-coverage: " << summary.MissingCoverage().size()
        << " count(s) are 0\n";
    return 1;
  }
  return 0;
}

}  // namespace

int RunExplore(const ExploreCommand& c, std::ostream& out, std::ostream& err) {
  explorer::ExploreOptions o;
  o.runs = c.runs;
  o.seconds = c.seconds;
  o.seed = c.seed;
  o.jobs = c.jobs;
  o.out_dir = c.out_dir;
  o.generator.max_writers = c.max_writers;
  o.oracle_max_orders = static_cast<size_t>(c.oracle_max_orders);
  if (!ParseShard(c.shard, &o.shard_index, &o.shard_count)) {
    err << "rlc explore: --shard " << c.shard << ": expected I/N with 0 <= I < N\n";
    return 2;
  }
  o.exhaustive = c.exhaustive;
  o.exhaustive_writers = c.exhaustive_writers;
  if (c.runs <= 0 && c.seconds <= 0 && !c.exhaustive) {
    err << "rlc explore: give --runs N or --seconds S\n";
    return 2;
  }
  if (c.max_writers < 2) {
    err << "rlc explore: --max-writers must be at least 2\n";
    return 2;
  }
  if (const Status s = AllowFlags(c.flags, o.generator.allowed_flags); !s.ok()) {
    err << "rlc explore: --flags: " << s.message() << "\n";
    return 2;
  }
  if (!c.write_histories.empty()) {
    const Status written = explorer::WriteHistories(o, c.write_histories);
    if (!written.ok()) {
      err << "rlc explore: --write-histories: " << written.ToString() << "\n";
      return 2;
    }
    out << "wrote the campaign's histories to " << c.write_histories << "\n";
    return 0;
  }
  Heartbeat heartbeat("rlc explore: ", c.heartbeat_seconds);
  auto progress = [&](const explorer::Summary& s) {
    heartbeat.Update(s.histories, s.oracle_violations, s.seconds);
  };
  Result<explorer::Summary> summary = explorer::Explore(o, progress);
  heartbeat.Finish();
  if (!summary.ok()) {
    err << "rlc explore: " << summary.status().ToString() << "\n";
    return 2;
  }
  return ReportExplore(c, *summary, out, err);
}

namespace {

// Each shard of the campaign exactly once: a missing or repeated shard would merge into a
// campaign that never ran (too few histories, or some counted twice). Empty when they hold.
std::string CheckShards(const std::vector<std::string>& files,
                        const std::vector<explorer::Summary>& shards) {
  const int count = shards.front().shard_count;
  std::vector<std::string> by_index(static_cast<size_t>(count));
  for (size_t i = 0; i < shards.size(); ++i) {
    const int index = shards[i].shard_index;
    if (index < 0 || index >= count)
      return files[i] + ": shard " + std::to_string(index) + " of " + std::to_string(count);
    std::string& seen = by_index[static_cast<size_t>(index)];
    if (!seen.empty()) {
      return "shard " + std::to_string(index) + "/" + std::to_string(count) +
             " given twice: " + seen + " and " + files[i];
    }
    seen = files[i];
  }
  std::string missing;
  for (int index = 0; index < count; ++index) {
    if (by_index[static_cast<size_t>(index)].empty())
      missing +=
          (missing.empty() ? "" : ", ") + std::to_string(index) + "/" + std::to_string(count);
  }
  return missing.empty() ? ""
                         : "shard(s) " + missing + " missing: the merge would not be the campaign";
}

}  // namespace

int RunExploreMerge(const std::vector<std::string>& files, bool json, std::ostream& out,
                    std::ostream& err) {
  std::vector<explorer::Summary> shards;
  for (const std::string& file : files) {
    const std::optional<std::string> text = ReadTextFile(file);
    if (!text) {
      err << "rlc explore merge: " << file << ": cannot read the file\n";
      return 2;
    }
    Result<explorer::Summary> shard = explorer::SummaryFromJson(*text);
    if (!shard.ok()) {
      err << "rlc explore merge: " << file << ": " << shard.status().message() << "\n";
      return 2;
    }
    const explorer::Summary& first = shards.empty() ? *shard : shards.front();
    if (shard->seed != first.seed || shard->shard_count != first.shard_count) {
      err << "rlc explore merge: " << file << ": seed " << shard->seed << " shards "
          << shard->shard_count << " do not match the first summary's seed " << first.seed
          << " shards " << first.shard_count << "\n";
      return 2;
    }
    shards.push_back(std::move(*shard));
  }
  if (const std::string problem = CheckShards(files, shards); !problem.empty()) {
    err << "rlc explore merge: " << problem << "\n";
    return 2;
  }
  explorer::Summary total;
  total.seed = shards.front().seed;
  total.shard_count = shards.front().shard_count;
  for (const explorer::Summary& shard : shards) explorer::MergeInto(total, shard);
  total.shard_index = 0;
  total.shard_count = 1;
  out << (json ? explorer::SummaryToJson(total) + "\n" : ExploreSummaryText(total));
  return total.oracle_violations > 0 ? 1 : 0;
}

int RunReplay(const std::string& file, const std::string& export_dir, std::ostream& out,
              std::ostream& err) {
  if (export_dir.empty()) {
    ScenarioOptions options;
    options.paths = {file};
    options.verbose = true;
    return RunScenarios(options, out, err);
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(export_dir, ec) &&
      !fs::is_empty(export_dir, ec)) {  // the run replaces its table folder
    err << "rlc replay: --export " << export_dir << ": the folder exists and is not empty\n";
    return 2;
  }
  const std::optional<std::string> text = ReadTextFile(file);
  if (!text) {
    err << "rlc replay: " << file << ": cannot read the file\n";
    return 2;
  }
  Result<scenario::Scenario> parsed = scenario::ParseScenario(*text, file);
  if (!parsed.ok()) {
    err << "rlc replay: " << parsed.status().message() << "\n";
    return 2;
  }
  Result<scenario::ScenarioReport> report = scenario::RunScenario(*parsed, export_dir);
  if (!report.ok()) {
    err << "rlc replay: " << file << ": cannot run: " << report.status().ToString() << "\n";
    return 2;
  }
  out << scenario::RenderReport(*report, true) << "table: " << export_dir
      << " (_delta_log, DV files and Parquet data files as written)\n";
  return report->passed() ? 0 : 1;
}

}  // namespace rlc::cli
