#include "impl/conflict/rewrite_inputs.h"

#include <algorithm>

#include "impl/conflict/baseline_rules.h"
#include "impl/delta/stats.h"

namespace rlc::conflict {

bool DeletionVectorsWritable(const delta::Metadata& metadata, const delta::Protocol& protocol) {
  return protocol.HasWriterFeature("deletionVectors") &&
         metadata.Property("delta.enableDeletionVectors") == "true";
}

std::optional<delta::AddFile> WithDeletionVector(const delta::AddFile& add,
                                                 const dv::DvDescriptor& dv) {
  // An add with a DV must say how many rows its file holds (commit rule 5): a rebuilt add whose
  // statistics give no count would make the commit corrupt.
  if (!add.stats.has_value()) return std::nullopt;
  const Result<std::optional<int64_t>> num_records = delta::ParseNumRecords(*add.stats);
  if (!num_records.ok() || !num_records->has_value()) return std::nullopt;
  delta::AddFile out = add;
  out.deletion_vector = dv;
  Result<delta::StatsJson> wide = delta::WithWideBounds(*add.stats);
  if (!wide.ok()) return std::nullopt;
  out.stats = *wide;
  return out;
}

void DropReadFiles(const std::set<std::string>& paths, PendingTransaction& loser) {
  if (paths.empty()) return;
  std::erase_if(loser.read_files,
                [&](const std::string& p) { return paths.count(DecodedPath(p)) != 0; });
}

bool IsMultiDimensionalClustering(const std::optional<delta::CommitInfo>& commit_info) {
  if (!commit_info.has_value()) return false;
  for (const delta::UnknownField& p : commit_info->operation_parameters) {
    if (p.key != "zOrderBy" && p.key != "clusterBy") continue;
    // The value is JSON, often a string holding a JSON array ("[\"id\"]"): strip quoting and
    // spacing; anything but nothing, [] or null names columns.
    std::string bare;
    for (char ch : p.raw_json) {
      if (ch != '"' && ch != '\\' && ch != ' ') bare += ch;
    }
    if (!bare.empty() && bare != "[]" && bare != "null") return true;
  }
  return false;
}

}  // namespace rlc::conflict
