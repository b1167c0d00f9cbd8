// The oracle's check (c): per-commit invariants of a table's log, through its own reader.
//
// Concern: the properties every commit must keep, whoever wrote it, judged from the log and DV
// bytes with the oracle's code alone (reference_reader.h), not impl/audit (which shares impl/'s
// replay and DV codec):
//   one-active-version      no path added twice in one commit, no path with two active versions;
//   dv-within-file          every DV's rows lie below the file's numRecords;
//   dv-never-shrinks        a commit that replaces a file's DV keeps every row the old one deleted;
//   tags-tile-output        the composition tags of one commit's sources tile their output (runs of
//                           sourceNumPhysicalRecords - |DV| rows, contiguous from 0 after sorting,
//                           summing to the output's numRecords);
//   no-data-change-conserves  a commit whose file actions are all dataChange=false keeps the live
//                           row count, in every partition;
//   row-tracking-ids        once the protocol lists the rowTracking writer feature, every add
//                           carries baseRowId and defaultRowCommitVersion.
//
// Thread-safety: stateless function.
#ifndef RLC_FUZZ_ORACLE_INVARIANTS_H_
#define RLC_FUZZ_ORACLE_INVARIANTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/oracle/reference_reader.h"

namespace rlc::oracle {

struct InvariantFinding {
  int64_t version = 0;
  std::string path;
  std::string rule;
  std::string detail;
};

// Findings in version order; `error` is set (and the findings so far returned) when the log or a
// DV cannot be read.
std::vector<InvariantFinding> CheckLogInvariants(const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix = "",
                                                 const ByteSource& files = LocalFiles());
// The same on a log already read (reference_log.h); its error, if any, becomes `error` after the
// findings of the versions read before it.
std::vector<InvariantFinding> CheckLogInvariants(const ReferenceLog& log,
                                                 const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix = "",
                                                 const ByteSource& files = LocalFiles());

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_INVARIANTS_H_
