// Escaping text for the HTML and XML (JUnit) reports the commands write.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_MARKUP_H_
#define RLC_CLI_MARKUP_H_

#include <string>

namespace rlc::cli {

// <, >, & and " as entities; everything else unchanged (the reports are UTF-8).
inline std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace rlc::cli

#endif  // RLC_CLI_MARKUP_H_
