#include "cli/verify.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "cli/inspect.h"
#include "cli/sample_table.h"

namespace rlc::cli {
namespace {

// Compares one version's inspection with what the writer put there; returns the findings.
std::vector<std::string> CompareVersion(const ExpectedVersion& want, const InspectReport& got) {
  std::vector<std::string> findings;
  std::map<std::string, const InspectedFile*> by_path;
  for (const InspectedFile& f : got.files) by_path[f.path] = &f;
  for (const auto& [path, file] : want.files) {
    auto it = by_path.find(path);
    if (it == by_path.end()) {
      findings.push_back(fmt::format("version {}: file {} is missing", want.version, path));
      continue;
    }
    const InspectedFile& f = *it->second;
    if (f.num_records != file.num_records) {
      findings.push_back(fmt::format("version {}: {}: numRecords differs", want.version, path));
    }
    if (f.deleted_row_indexes != file.deleted.ToVector()) {
      findings.push_back(fmt::format("version {}: {}: deleted rows differ ({} expected, {} read)",
                                     want.version, path, file.deleted.Cardinality(), f.deleted_rows));
    }
    by_path.erase(it);
  }
  for (const auto& [path, f] : by_path) {
    findings.push_back(fmt::format("version {}: unexpected file {}", want.version, path));
  }
  if (got.live_rows != want.LiveRows()) {
    findings.push_back(fmt::format("version {}: {} live rows expected, {} read", want.version,
                                   want.LiveRows(), got.live_rows.value_or(-1)));
  }
  return findings;
}

}  // namespace

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  const auto started = std::chrono::steady_clock::now();
  std::error_code ec;
  fs::path out_dir = options.out_dir;
  if (out_dir.empty()) {
    out_dir = fs::temp_directory_path() /
              fmt::format("rlc-verify-{}", std::chrono::system_clock::now().time_since_epoch().count());
  }
  fs::create_directories(out_dir, ec);
  if (ec) {
    err << "rlc verify: cannot create " << out_dir.string() << ": " << ec.message() << "\n";
    return 2;
  }
  const std::string table = fs::absolute(out_dir / "sample-table").string();
  if (fs::exists(fs::path(table) / "_delta_log")) {
    err << "rlc verify: " << table << " already holds a table; choose an empty --out folder\n";
    return 2;
  }
  out << "rlc verify: writing the sample table to " << table << "\n";
  auto storage = storage::NewLocalStorage();
  Result<std::vector<ExpectedVersion>> expected = WriteSampleTable(*storage, table);
  if (!expected.ok()) {
    err << "rlc verify: writing the sample table failed: " << expected.status().ToString() << "\n";
    return 1;
  }
  int findings = 0;
  for (const ExpectedVersion& want : *expected) {
    InspectOptions inspect;
    inspect.version = want.version;
    inspect.with_row_indexes = true;
    Result<InspectReport> got = InspectTable(*storage, table, inspect);
    if (!got.ok()) {
      out << fmt::format("  FAIL version {}: {}\n", want.version, got.status().ToString());
      ++findings;
      continue;
    }
    std::vector<std::string> diffs = CompareVersion(want, *got);
    for (const std::string& d : diffs) out << "  FAIL " << d << "\n";
    findings += int(diffs.size());
    if (diffs.empty()) {
      out << fmt::format("  ok   version {}: {} files, {} live rows, {} deleted rows\n", want.version,
                         got->files.size(), *got->live_rows, got->deleted_rows);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out << fmt::format("rlc verify: sample table: {} versions checked, {} findings ({:.2f} s)\n",
                     expected->size(), findings, seconds);
  return findings == 0 ? 0 : 1;
}

}  // namespace rlc::cli
