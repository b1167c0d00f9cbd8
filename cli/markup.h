// Escaping text for the HTML and XML (JUnit) reports the commands write, and JUnit's time values.
//
// Thread-safety: stateless.
#ifndef RLC_CLI_MARKUP_H_
#define RLC_CLI_MARKUP_H_

#include <cstdio>
#include <string>

namespace rlc::cli {

// <, >, & and " as entities; everything else unchanged (the reports are UTF-8).
inline std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Seconds as JUnit readers parse them: a plain decimal with microseconds, never the exponent
// form a stream writes for small values ("7.6e-05"), which schema-checking readers reject.
inline std::string JunitSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", seconds < 0 ? 0.0 : seconds);
  return text;
}

}  // namespace rlc::cli

#endif  // RLC_CLI_MARKUP_H_
