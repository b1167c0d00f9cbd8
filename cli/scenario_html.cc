#include "cli/scenario_html.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "model/isolation/isolation.h"

namespace rlc::cli {
namespace {

std::string Tuple(const std::vector<model::Value>& row) {
  std::string s = "(";
  for (size_t i = 0; i < row.size(); ++i) s += (i ? ", " : "") + model::ToString(row[i]);
  return s + ")";
}

std::string Outcome(const scenario::TxnReport& t) {
  if (t.skipped) return "nothing to commit";
  if (t.committed) {
    std::string s = "commits at version " + std::to_string(t.version);
    for (const std::string& e : t.events) s += "; " + e;
    return s;
  }
  return "aborts: " + t.abort_detail;
}

std::string FlagsOf(const conflict::Flags& flags) {
  std::string s;
  for (const std::string& f : flags.ToAssignments()) {
    if (f.size() > 5 && f.substr(f.size() - 5) == "=true")
      s += (s.empty() ? "" : ", ") + f.substr(23, f.size() - 28);
  }
  return s.empty() ? "none" : s;
}

// Each cycle once: the oracle may find one cycle from several of its transactions.
std::vector<std::string> DistinctCycles(const std::vector<std::string>& cycles) {
  std::vector<std::string> out;
  for (const std::string& c : cycles) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

// The rows as the scenario format writes them, or "no rows".
std::string RowsOrNoRows(const std::vector<std::vector<model::Value>>& rows) {
  return rows.empty() ? std::string("no rows") : scenario::RowsText(rows);
}

}  // namespace

std::vector<std::string> RowDiff(const std::vector<std::vector<model::Value>>& expected,
                                 const std::vector<std::vector<model::Value>>& actual) {
  std::map<std::string, int> count;  // + in actual, - in expected
  for (const auto& row : actual) ++count[Tuple(row)];
  for (const auto& row : expected) --count[Tuple(row)];
  std::vector<std::string> diff;
  for (const auto& [tuple, n] : count) {
    for (int i = 0; i < (n < 0 ? -n : n); ++i) diff.push_back((n > 0 ? "+ " : "- ") + tuple);
  }
  return diff;
}

std::string DrawCycleSvg(const std::string& cycle_text) {
  // Edges from the "- X < Y, because ..." lines.
  std::ostringstream dot;
  dot << "digraph cycle {\n  rankdir=LR;\n  node [shape=box, fontname=\"sans-serif\"];\n";
  std::istringstream in(cycle_text);
  int edges = 0;
  for (std::string line; std::getline(in, line);) {
    const size_t dash = line.find("- ");
    const size_t lt = line.find(" < ");
    const size_t because = line.find(", because ");
    if (dash == std::string::npos || lt == std::string::npos || because == std::string::npos ||
        lt > because)
      continue;
    const std::string from = line.substr(dash + 2, lt - dash - 2);
    const std::string to = line.substr(lt + 3, because - lt - 3);
    std::string label = line.substr(because + 10);
    if (label.size() > 60) label = label.substr(0, 57) + "...";
    std::string escaped;
    // Row values ride in the sentences: a quote or backslash of theirs must not end the label.
    for (char c : label) {
      if (c == '"' || c == '\\') escaped += '\\';
      escaped += c;
    }
    dot << "  \"" << from << "\" -> \"" << to << "\" [label=\"" << escaped << "\", fontsize=10];\n";
    ++edges;
  }
  dot << "}\n";
  if (edges == 0) return "";
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("rlc-cycle-" + std::to_string(::getpid()));
  std::ofstream(tmp.string() + ".dot") << dot.str();
  const std::string command =
      "dot -Tsvg '" + tmp.string() + ".dot' -o '" + tmp.string() + ".svg' 2>/dev/null";
  std::string svg;
  if (std::system(command.c_str()) == 0) {
    std::ifstream file(tmp.string() + ".svg");
    std::stringstream text;
    text << file.rdbuf();
    svg = text.str();
    const size_t start = svg.find("<svg");
    svg = start == std::string::npos ? "" : svg.substr(start);  // drop the XML prologue and doctype
  }
  std::error_code ec;
  fs::remove(tmp.string() + ".dot", ec);
  fs::remove(tmp.string() + ".svg", ec);
  return svg;
}

namespace {

// One cell of the lanes: what transaction `t` did at `step` (empty when the step is another's).
void StepCell(const scenario::Step& step, const scenario::TxnSpec& t, const scenario::TxnReport* tr,
              std::ostringstream& html) {
  html << "<td>";
  if (t.name == step.txn) {
    if (step.kind == scenario::Step::Kind::kStart) {
      html << "starts: reads version " << (tr ? tr->read_version : -1);
    } else if (step.kind == scenario::Step::Kind::kRebase) {
      html << "rebases: checked, loses its race again";
    } else if (tr != nullptr) {
      html << "<span class=\"" << (tr->committed ? "ok" : "fail") << "\">"
           << HtmlEscape(Outcome(*tr)) << "</span>";
      if (!tr->abort_delta_message.empty()) {
        html << "<details><summary><small>as Delta raises it (" << HtmlEscape(tr->abort_error_class)
             << ")</small></summary><pre>" << HtmlEscape(tr->abort_delta_message)
             << "</pre></details>";
      }
      if (!tr->actions.empty()) {
        html << "<ul class=\"actions\">";
        for (const std::string& a : tr->actions)
          html << "<li><small>" << HtmlEscape(a) << "</small></li>";
        html << "</ul>";
      }
    }
  }
  html << "</td>";
}

// Lanes: one column per transaction, one row per step.
void Lanes(const scenario::Scenario& s, const scenario::ScenarioReport& r,
           std::ostringstream& html) {
  std::map<std::string, const scenario::TxnReport*> by_name;
  for (const scenario::TxnReport& t : r.txns) by_name[t.name] = &t;
  html << "<table class=\"timeline\"><tr><th>step</th>";
  for (const scenario::TxnSpec& t : s.txns) {
    html << "<th>" << HtmlEscape(t.name) << "<br><small>"
         << HtmlEscape(t.operation ? model::Describe(*t.operation) : "raw actions")
         << "<br>flags: " << HtmlEscape(FlagsOf(t.flags)) << "</small></th>";
  }
  html << "</tr>";
  for (size_t i = 0; i < s.steps.size(); ++i) {
    html << "<tr><td>" << i + 1 << "</td>";
    for (const scenario::TxnSpec& t : s.txns) {
      StepCell(s.steps[i], t, by_name.count(t.name) ? by_name.at(t.name) : nullptr, html);
    }
    html << "</tr>";
  }
  html << "</table>";
}

// The oracle's findings: rows (with a diff against the serial result), cycles, invariants, the
// documented matrix, and the expectations that did not hold.
void Findings(const scenario::ScenarioReport& r, std::ostringstream& html) {
  html << "<h3>Rows</h3><p>Oracle (a): " << HtmlEscape(r.rows_check) << "</p>";
  if (!r.serial_rows.empty() || r.rows_check.rfind("wrong", 0) == 0) {
    html << "<pre class=\"diff\">";
    for (const std::string& line : RowDiff(r.serial_rows, r.final_rows)) {
      html << "<span class=\"" << (line[0] == '+' ? "add" : "del") << "\">" << HtmlEscape(line)
           << "</span>\n";
    }
    html << "</pre><p><small>+ read from the table, not in the serial result in commit order; - "
            "the other way round</small></p>";
  }
  html << "<p>Table after: " << HtmlEscape(RowsOrNoRows(r.final_rows)) << "</p>";
  for (const std::string& cycle : DistinctCycles(r.cycles)) {
    html << "<h3>Forbidden dependency cycle</h3><pre class=\"cycle\">" << HtmlEscape(cycle)
         << "</pre>" << DrawCycleSvg(cycle);
  }
  for (const std::string& f : r.invariant_findings)
    html << "<p class=\"fail\">" << HtmlEscape(f) << "</p>";
  for (const oracle::ContractCheck& c : r.contract) {
    html << "<p>"
         << HtmlEscape(oracle::ContractVerdictName(c.verdict) + ": " + c.cell + "; " +
                       c.explanation)
         << "</p>";
  }
  for (const scenario::Mismatch& m : r.mismatches) {
    html << "<p class=\"fail\">line " << m.line << ": expected <code>" << HtmlEscape(m.expected)
         << "</code>, actual " << HtmlEscape(m.actual) << "</p>";
  }
}

}  // namespace

std::string RenderScenarioHtml(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                               const std::string& title, const std::string& replay_command) {
  std::ostringstream html;
  html << "<section class=\"history\"><h2>" << HtmlEscape(title) << "</h2>";
  html << "<p>Isolation " << HtmlEscape(model::IsolationLevelName(r.level)) << "; replay: <code>"
       << HtmlEscape(replay_command) << "</code></p>";
  html << "<h3>Table before</h3><p class=\"before\">"
       << HtmlEscape(r.initial_rows_error.empty() ? RowsOrNoRows(r.initial_rows)
                                                  : "not read: " + r.initial_rows_error)
       << "</p>";
  Lanes(s, r, html);
  Findings(r, html);
  html << "</section>";
  return html.str();
}

namespace {

// A Markdown table cell: no pipe or line break of its own.
std::string Cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += "<br>";
    else
      out += c;
  }
  return out;
}

// What transaction `t` did at `step`, as one cell (empty when the step is another's).
std::string StepText(const scenario::Step& step, const scenario::TxnSpec& t,
                     const scenario::TxnReport* tr) {
  if (t.name != step.txn) return "";
  if (step.kind == scenario::Step::Kind::kStart)
    return "starts: reads version " + std::to_string(tr ? tr->read_version : -1);
  if (step.kind == scenario::Step::Kind::kRebase) return "rebases: checked, loses its race again";
  if (tr == nullptr) return "";
  std::string text = "**" + Outcome(*tr) + "**";
  if (!tr->abort_error_class.empty()) text += " (" + tr->abort_error_class + ")";
  for (const std::string& a : tr->actions) text += "\n`" + a + "`";
  return Cell(text);
}

void MarkdownLanes(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                   std::ostringstream& md) {
  std::map<std::string, const scenario::TxnReport*> by_name;
  for (const scenario::TxnReport& t : r.txns) by_name[t.name] = &t;
  md << "| step |";
  for (const scenario::TxnSpec& t : s.txns) {
    md << " "
       << Cell(t.name + ": " + (t.operation ? model::Describe(*t.operation) : "raw actions") +
               "\nflags: " + FlagsOf(t.flags))
       << " |";
  }
  md << "\n|---|";
  for (size_t i = 0; i < s.txns.size(); ++i) md << "---|";
  md << "\n";
  for (size_t i = 0; i < s.steps.size(); ++i) {
    md << "| " << i + 1 << " |";
    for (const scenario::TxnSpec& t : s.txns) {
      const scenario::TxnReport* tr = by_name.count(t.name) ? by_name.at(t.name) : nullptr;
      md << " " << StepText(s.steps[i], t, tr) << " |";
    }
    md << "\n";
  }
}

void MarkdownFindings(const scenario::ScenarioReport& r, std::ostringstream& md) {
  md << "\nOracle (a), rows: " << r.rows_check << "\n";
  if (!r.serial_rows.empty() || r.rows_check.rfind("wrong", 0) == 0) {
    md << "\n```diff\n";
    for (const std::string& line : RowDiff(r.serial_rows, r.final_rows)) md << line << "\n";
    md << "```\n(+ read from the table, not in the serial result in commit order; - the other "
          "way round)\n";
  }
  md << "\nTable after: " << RowsOrNoRows(r.final_rows) << "\n";
  for (const std::string& cycle : DistinctCycles(r.cycles))
    md << "\nForbidden dependency cycle:\n\n```\n" << cycle << "\n```\n";
  for (const std::string& f : r.invariant_findings) md << "\n- " << f << "\n";
  for (const scenario::Mismatch& m : r.mismatches) {
    md << "\n- line " << m.line << ": expected `" << m.expected << "`, actual " << m.actual << "\n";
  }
}

}  // namespace

std::string RenderScenarioMarkdown(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                                   const std::string& title, const std::string& replay_command) {
  std::ostringstream md;
  md << "### " << title << "\n\nIsolation " << model::IsolationLevelName(r.level) << "; replay: `"
     << replay_command << "`\n\nTable before: "
     << (r.initial_rows_error.empty() ? RowsOrNoRows(r.initial_rows)
                                      : "not read: " + r.initial_rows_error)
     << "\n\n";
  MarkdownLanes(s, r, md);
  MarkdownFindings(r, md);
  return md.str();
}

}  // namespace rlc::cli
