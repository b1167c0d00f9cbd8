// `rlc audit`: checks the invariants of every commit of a table's JSON log (impl/audit).
//
// Concern: run the audit, print each finding (version, rule, path, detail) and a summary of what
// was checked, as text or one JSON object. Exit codes: 0 clean, 1 findings, 2 unreadable.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_AUDIT_H_
#define RLC_CLI_AUDIT_H_

#include <ostream>
#include <string>

namespace rlc::cli {

struct AuditOptions {
  std::string table_dir;
  bool json = false;
  std::string dv_file_prefix;  // as `rlc inspect --dv-file-prefix`
};

int RunAudit(const AuditOptions& options, std::ostream& out, std::ostream& err);

}  // namespace rlc::cli

#endif  // RLC_CLI_AUDIT_H_
