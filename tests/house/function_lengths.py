#!/usr/bin/env python3
"""Function lengths: fails on a function longer than the limit that is not on the exception list.

Usage: function_lengths.py ROOT [--limit 70] [--exceptions FILE] [--report]

A function is a brace-enclosed body, directly inside a namespace, a type or the file, whose head
(the text since the previous `;`, `{` or `}`) has a parameter list and is not a control statement
or an initializer. Comments, string and character literals are blanked first, so braces inside
them do not count. The length is the body's, from the line of its `{` to the line of its `}`;
lambdas and local types count toward the function that holds them. TEST(...) bodies are
functions too.

The exception list holds one `path:function` per line (`#` starts a comment); an entry within
the limit is itself an error, so the list can only shrink.
"""
import argparse
import os
import re
import sys

FOLDERS = ["impl", "model", "proofs", "fuzz", "cli", "tests", "bench"]
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$|^\s*extern\s+\"C\"")
CONTROL = re.compile(r"^(if|else|for|while|do|switch|try|catch|return|case|default)\b")


def blank(text):
    """Comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    text = re.sub(r"(?m)^[ \t]*#.*(?:\\\n.*)*$", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 digit separators
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i)); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def function_name(head):
    before = head[:head.find("(")] if "(" in head else head
    m = re.search(r"([~\w:]+(?:operator\s*\S+)?)\s*$", before.strip())
    return m.group(1) if m else before.strip()[-40:]


def is_function(head):
    h = " ".join(head.split())
    if "(" not in h or ")" not in h or CONTROL.match(h):
        return False
    if SCOPE.search(h.split("(")[0]):
        return False
    before = h[:h.find("(")]
    if "=" in before or before.rstrip().endswith(("]", "return")) or not before.strip():
        return False
    return True


def definitions(path):
    with open(path, encoding="utf-8") as f:
        text = blank(f.read())
    stack = []  # (kind, line of `{`, name)
    head_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[head_start:i]
            enclosing_is_scope = all(kind == "scope" for kind, _, _ in stack)
            if enclosing_is_scope and is_function(head):
                stack.append(("function", line, function_name(head)))
            elif enclosing_is_scope and (SCOPE.search(" ".join(head.split())) or not head.strip()):
                stack.append(("scope" if SCOPE.search(" ".join(head.split())) else "block", line, ""))
            else:
                stack.append(("block", line, ""))
            head_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    yield name, start, line - start + 1
            head_start = i + 1
        elif c == ";":
            head_start = i + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--limit", type=int, default=70)
    ap.add_argument("--exceptions")
    ap.add_argument("--report", action="store_true", help="also print the excepted functions")
    a = ap.parse_args()
    allowed = set()
    if a.exceptions:
        with open(a.exceptions, encoding="utf-8") as f:
            allowed = {l.split("#")[0].strip() for l in f if l.split("#")[0].strip()}
    over = {}
    for folder in FOLDERS:
        for dirpath, _, files in sorted(os.walk(os.path.join(a.root, folder))):
            for fname in sorted(files):
                if not fname.endswith((".cc", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, fname), a.root)
                for name, line, length in definitions(os.path.join(dirpath, fname)):
                    if length <= a.limit:
                        continue
                    key = f"{rel}:{name}"
                    over[key] = max(over.get(key, 0), length)
                    if a.report or key not in allowed:
                        print(f"{rel}:{line}: {name} is {length} lines (limit {a.limit})"
                              + ("" if key in allowed else ", not on the exception list"))
    failed = [k for k in over if k not in allowed]
    stale = sorted(allowed - set(over))
    for k in stale:
        print(f"{k}: on the exception list but within the limit now: remove it from the list")
    print(f"function lengths: {len(over)} over {a.limit} lines, {len(failed)} not excepted, "
          f"{len(stale)} stale exception(s)")
    return 1 if failed or stale else 0


if __name__ == "__main__":
    sys.exit(main())
