// JUnit XML, the one writer every command that reports to CI uses (`rlc verify`, `rlc prove
// --junit`): a test suite of cases, each passing or failing with a message and a detail.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_JUNIT_H_
#define RLC_CLI_JUNIT_H_

#include <string>
#include <utility>
#include <vector>

#include "cli/markup.h"

namespace rlc::cli {

struct JunitCase {
  std::string classname;  // the stage or kind: "proof", "scenario", ...
  std::string name;
  double seconds = 0;
  bool ok = true;
  std::string failure_message;  // short, on the <failure> element
  std::string failure_detail;   // the element's text
  std::string system_out;       // optional
  // Not run (e.g. the budget ran out first): a <skipped> element with this message; neither a
  // pass nor a failure.
  bool skipped = false;
  std::string skipped_message = {};
};

// The document: one <testsuite> named `suite`, its case count, failures and (when >= 0) time,
// and `properties` (name, value) first: what produced the result (version, seed, flags).
inline std::string JunitXml(
    const std::string& suite, const std::vector<JunitCase>& cases, double seconds = -1,
    const std::vector<std::pair<std::string, std::string>>& properties = {}) {
  int failures = 0, skipped = 0;
  for (const JunitCase& c : cases) {
    skipped += c.skipped ? 1 : 0;
    failures += c.ok || c.skipped ? 0 : 1;
  }
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" + HtmlEscape(suite) +
      "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) +
      "\" skipped=\"" + std::to_string(skipped) + "\"" +
      (seconds >= 0 ? " time=\"" + JunitSeconds(seconds) + "\"" : std::string()) + ">\n";
  if (!properties.empty()) {
    xml += "  <properties>\n";
    for (const auto& [name, value] : properties) {
      xml +=
          "    <property name=\"" + HtmlEscape(name) + "\" value=\"" + HtmlEscape(value) + "\"/>\n";
    }
    xml += "  </properties>\n";
  }
  for (const JunitCase& c : cases) {
    xml += "  <testcase classname=\"" + HtmlEscape(c.classname) + "\" name=\"" +
           HtmlEscape(c.name) + "\" time=\"" + JunitSeconds(c.seconds) + "\">";
    if (c.skipped) {
      xml += "<skipped message=\"" + HtmlEscape(c.skipped_message) + "\"/>";
    } else if (!c.ok) {
      xml += "<failure message=\"" + HtmlEscape(c.failure_message) + "\">" +
             HtmlEscape(c.failure_detail) + "</failure>";
    }
    if (!c.system_out.empty()) xml += "<system-out>" + HtmlEscape(c.system_out) + "</system-out>";
    xml += "</testcase>\n";
  }
  return xml + "</testsuite>\n";
}

}  // namespace rlc::cli

#endif  // RLC_CLI_JUNIT_H_
