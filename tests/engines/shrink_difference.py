"""A baseline difference shrunk with Delta Spark in the loop.

When Delta Spark's verdict on a flags-off transaction differs from rlc's (baseline_judge.py), the
history that showed it is an rlc baseline bug; like any counterexample it is worth little until it
is small. The explorer's own shrinking cannot do it: its property is the oracle's, not Delta's.
Here the judge is Delta Spark itself. Each round proposes every one-step reduction of the scenario
text (a transaction dropped with every line of it, one line dropped, one starting row dropped),
replays each with `rlc replay --export` (rlc refuses a text that no longer makes a scenario: that
candidate is dropped), and asks Delta Spark about all of them in one JVM run; the first reduction
on which the two still disagree the same way (rlc's outcome and Delta's outcome, as kinds: commit,
or abort with the exception class; versions move as winners go) becomes the scenario of the next
round. It ends when no reduction keeps the difference: the result is one-minimal under these
steps. Expectations and comments are dropped first (they describe the original); the result ends
with what Delta Spark does, so `rlc scenario` of it fails until the baseline is fixed.
"""
import os

import baseline_judge
from engines_common import EngineError, ExportedTable

# Lines that belong to one transaction: the keyword, then the transaction's name.
OWNED_BY_NAME = ("txn", "flags", "reads", "writer", "optimize", "expect")


def outcome_kind(verdict):
    """'commit at 3' -> 'commit'; 'abort X' stays: the kind of a verdict, without its version."""
    return "commit" if verdict.startswith("commit at ") else verdict


def split_rows(text):
    """The tuples of a `rows` line's text, quotes respected: "(1, 'a'), (2, 'b')" -> two."""
    rows, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == "'":
            quoted = not quoted
        elif not quoted and c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
            if depth == 0:
                rows.append(text[start:i + 1])
    return rows


def transactions_of(lines):
    return [l.split()[1] for l in lines if l.startswith("txn ") and len(l.split()) > 1]


def owned_by(line, name):
    words = line.split()
    return bool(words) and (words[0] == name or
                            (words[0] in OWNED_BY_NAME and len(words) > 1 and words[1] == name))


def reductions(lines, target):
    """Every one-step reduction, the largest first: a transaction other than the target with all
    its lines; one line (not the header, the table line or the target's own txn line); one row."""
    for name in transactions_of(lines):
        if name != target:
            yield [l for l in lines if not owned_by(l, name)]
    for i, line in enumerate(lines):
        if line.startswith(("scenario ", "table ", f"txn {target} ")):
            continue
        yield lines[:i] + lines[i + 1:]
    for i, line in enumerate(lines):
        if line.startswith("rows "):
            rows = split_rows(line[len("rows "):])
            for k in range(len(rows)) if len(rows) > 1 else []:
                kept = rows[:k] + rows[k + 1:]
                yield lines[:i] + ["rows " + ", ".join(kept)] + lines[i + 1:]


class Shrinker:
    """Shrinks one difference. `judge(requests) -> {id: answer}` is Delta Spark (one JVM run per
    call; engines_common.run_delta_spark) or, in tests, a stand-in."""

    def __init__(self, rlc, judge, work):
        self.rlc, self.judge, self.work, self.rounds, self.tried = rlc, judge, work, 0, 0

    def _cases(self, texts, file_name, target):
        """Each text replayed; (index, judge case, rlc transaction) for those that make a scenario
        with the target judged."""
        out = []
        for i, lines in enumerate(texts):
            folder = os.path.join(self.work, f"round{self.rounds}", str(i))
            os.makedirs(folder)
            path = os.path.join(folder, file_name)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            try:
                judged = baseline_judge.cases_of(ExportedTable(self.rlc, path, folder), [])
            except (EngineError, OSError, ValueError):
                continue  # no longer a scenario (rlc replay refused it, or wrote no table)
            for case, t in judged:
                if t["name"] == target:
                    case["id"] = f"{self.rounds}/{i}:{target}"
                    out.append((i, case, t))
        return out

    def _first_still_differing(self, texts, file_name, target, kinds):
        cases = self._cases(texts, file_name, target)
        self.tried += len(texts)
        self.rounds += 1
        if not cases:
            return None
        answers = self.judge([c for _, c, _ in cases])
        for i, case, t in cases:
            ours = outcome_kind(baseline_judge.rlc_verdict(t))
            theirs = outcome_kind(baseline_judge.delta_verdict(answers[case["id"]]))
            if (ours, theirs) == kinds:
                return i
        return None

    def shrink(self, text, file_name, target, kinds):
        """The smallest scenario text (a list of lines) found on which rlc and Delta Spark still
        disagree as `kinds` = (rlc's outcome kind, Delta's); None when the stripped original does
        not show the difference (a difference that depends on timing, or a wrong target)."""
        lines = [l for l in text.splitlines()
                 if l.strip() and not l.startswith("#") and not l.startswith("expect ")]
        if self._first_still_differing([lines], file_name, target, kinds) is None:
            return None
        while True:
            candidates = list(reductions(lines, target))
            chosen = self._first_still_differing(candidates, file_name, target, kinds)
            if chosen is None:
                return lines
            lines = candidates[chosen]


def expectation(target, delta_kind):
    if delta_kind == "commit":
        return f"expect {target} commits"
    return f"expect {target} aborts {delta_kind[len('abort '):]}"


def shrunk_text(original_lines, lines, target, kinds, rounds):
    """The shrunk scenario as a file: why it exists (and the original's first comment, the
    explorer's seed and history number), the history, what Delta Spark does."""
    header = [l for l in lines if l.startswith("scenario ")]
    provenance = original_lines[:1] if original_lines[0].startswith("#") else []
    return "\n".join([
        *header, *provenance,
        f"# Shrunk with Delta Spark judging ({rounds} rounds) from a history of "
        f"{len(original_lines)} lines: on it rlc's baseline ({kinds[0]}) and Delta Spark",
        f"# ({kinds[1]}) disagree on {target}. The expectation is Delta Spark's verdict.",
        *[l for l in lines if not l.startswith("scenario ")],
        expectation(target, kinds[1]),
    ]) + "\n"


def shrink_difference(rlc, judge, scenario_path, target, kinds, work, out_dir):
    """Shrinks the difference on `target` of the scenario file; writes the result to out_dir
    (named after the scenario, `.shrunk.scenario`) and returns (path, lines before, lines after),
    or None when the difference did not reproduce."""
    with open(scenario_path) as f:
        text = f.read()
    shrinker = Shrinker(rlc, judge, work)
    name = os.path.basename(scenario_path)
    lines = shrinker.shrink(text, name, target, kinds)
    if lines is None:
        return None
    original = [l for l in text.splitlines() if l.strip()]
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name[:-len(".scenario")] + f".{target}.shrunk.scenario")
    with open(path, "w") as f:
        f.write(shrunk_text(original, lines, target, kinds, shrinker.rounds))
    return path, len(original), len(lines) + 1  # the history and its expectation
