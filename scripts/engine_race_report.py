#!/usr/bin/env python3
"""The engine races' summaries (rlc race --engine ... --json) told in the proposal's terms: per
run, per winning operation (which engine committed it), what the losers did against it (forward
and reverse remaps, DV merges, files ruled out, aborts by exception); why the cases declined
rlc's losers that aborted; per engine, commits and aborts; and whether the table came out right
(rows, duplicates, lost commits, Delta Spark's read of every version against the oracle's).
Usage: engine_race_report.py SUMMARY.json..."""
import json
import os
import sys

EVENTS = {
    "delta.optimize.conflictReconciliation.remapped": "forward remaps (4a)",
    "delta.optimize.conflictReconciliation.reverseRemapped": "reverse remaps (4b)",
    "delta.rowLevelConcurrency.deletionVectorsMerged": "DV merges (2)",
    "delta.conflictDetection.dataSkipping.filesSkipped": "files ruled out (1)",
}
TITLES = {"4a": "Case 4a", "4b": "Case 4b", "2": "Case 2", "3": "Case 3", "1": "Case 1",
          "mixed": "Mixed"}


def counts_text(counts):
    parts = []
    for key, n in sorted(counts.items()):
        parts.append(f"{n} {EVENTS.get(key, key)}")
    return ", ".join(parts) if parts else "nothing"


def engine_line(s, engine):
    procs = [p for p in s["processes"] if p["engine"] == engine]
    commits = sum(p["commits"] for p in procs)
    attempts = sum(p["attempts"] for p in procs)
    aborts = {}
    for p in procs:
        for k, n in p["aborts"].items():
            aborts[k] = aborts.get(k, 0) + n
    killed = " (one killed)" if any(p["killed"] for p in procs) else ""
    abort_text = ", ".join(f"{n} {k}" for k, n in sorted(aborts.items())) or "none"
    return (f"{engine} side{killed}: {attempts} attempts, {commits} commits, "
            f"{sum(aborts.values())} aborts ({abort_text})")


def run_text(name, s):
    title = TITLES.get(s["case"], s["case"])
    lines = [f"### {title}, {s['isolation']} ({name})", "",
             f"{s['procs']} rlc processes against {s.get('engine', 'no engine')}, "
             f"{s['seconds']:.0f} s, {s['versions']} versions committed.", ""]
    for winner, counts in sorted(s["byWinningOperation"].items()):
        lines.append(f"- {winner} winner: {counts_text(counts)}")
    lines.append(f"- {engine_line(s, 'rlc')}")
    if s.get("engine"):
        lines.append(f"- {engine_line(s, s['engine'])}")
    lines.append(f"- Case 3 commits past an OPTIMIZE: {s['case3Commits']}; this case's "
                 f"reconciles: {s['caseReconciles']}")
    read = ""
    if s.get("engine"):
        read = (f"; {s['engine']} read {s['engineReadVersions']} versions, "
                f"{s['engineReadDifferences']} differing from the oracle's read")
    declines = s.get("abortDeclines", {})
    if declines:
        lines.append("- why rlc's aborted losers got no reconcile: " + "; ".join(
            f"{reason} ({n})" for reason, n in sorted(declines.items(), key=lambda kv: -kv[1])))
    lines.append(f"- final rows {s['finalRows']} (oracle: {s['rowsCheck']}), duplicated rows "
                 f"{s['duplicatedRows']}, duplicated keys {s['duplicatedKeys']}, lost commits "
                 f"{s['lostCommits']}, checkpoints {s['checkpoints']}{read}")
    lines.append("- " + ("no problem" if not s["problems"] else
                         "PROBLEMS: " + "; ".join(s["problems"][:5])))
    return "\n".join(lines) + "\n"


def main():
    print("## Racing a real engine\n")
    for path in sys.argv[1:]:
        with open(path) as f:
            s = json.load(f)
        print(run_text(os.path.splitext(os.path.basename(path))[0], s))


if __name__ == "__main__":
    main()
