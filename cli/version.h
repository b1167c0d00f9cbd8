// rlc's version: the project's version and the commit the tool was built from, as
// "0.1.0 (commit 808eb8c0a1b2)", or "(commit unknown)" for a build outside a git checkout. Printed
// by `rlc --version` and written into the artifacts a run leaves (summary.json, JUnit), so that a
// result names the code that produced it.
#ifndef RLC_CLI_VERSION_H_
#define RLC_CLI_VERSION_H_

namespace rlc::cli {

extern const char kVersion[];

}  // namespace rlc::cli

#endif  // RLC_CLI_VERSION_H_
