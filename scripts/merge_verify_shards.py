#!/usr/bin/env python3
"""Merges the results of `rlc verify --shard I/N` runs into one report.md and one junit.xml, as
the nightly's merge job publishes them.

Each SHARD_DIR is one shard's --out folder (summary.json, junit.xml, report.md). The shards must
be one run's: the same seed, rlc version and N, each index 0..N-1 exactly once; a missing,
duplicated or foreign shard is refused (exit 2, naming it), since a merge that quietly lacks a
shard would report a quarter of a campaign as the whole. OUT/junit.xml holds every shard's
<testsuite> (named with its shard) under one <testsuites>; OUT/report.md gives the run's
provenance, a table of each shard's checks, findings and checks not run, every finding section
of every shard's report.md (headed with its shard), and the merged campaign text when
--campaign FILE names the output of `rlc explore merge`.

Exit status: 0 nothing found, 1 some shard found something, 2 bad input.
Usage: merge_verify_shards.py OUT SHARD_DIR... [--campaign FILE]
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


class MergeError(Exception):
    pass


def read_shard(path):
    summary_path = os.path.join(path, "summary.json")
    try:
        with open(summary_path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise MergeError(f"{summary_path}: {e}")
    for key in ("seed", "rlcVersion", "shard", "checks", "findings", "notRun"):
        if key not in summary:
            raise MergeError(f"{summary_path}: no '{key}'")
    try:
        index, count = (int(x) for x in str(summary["shard"]).split("/"))
    except ValueError:
        raise MergeError(f"{summary_path}: shard '{summary['shard']}' is not I/N")
    junit_path = os.path.join(path, "junit.xml")
    try:
        suite = ET.parse(junit_path).getroot()
    except (OSError, ET.ParseError) as e:
        raise MergeError(f"{junit_path}: {e}")
    if suite.tag != "testsuite":
        raise MergeError(f"{junit_path}: the root is <{suite.tag}>, not <testsuite>")
    report_path = os.path.join(path, "report.md")
    try:
        with open(report_path) as f:
            report = f.read()
    except OSError as e:
        raise MergeError(f"{report_path}: {e}")
    return {"dir": path, "summary": summary, "index": index, "count": count, "suite": suite,
            "report": report}


def check_one_run(shards):
    first = shards[0]
    for s in shards[1:]:
        for key in ("seed", "rlcVersion"):
            if s["summary"][key] != first["summary"][key]:
                raise MergeError(f"{s['dir']}: {key} {s['summary'][key]!r}, but {first['dir']} "
                                 f"has {first['summary'][key]!r}: not one run's shards")
        if s["count"] != first["count"]:
            raise MergeError(f"{s['dir']}: shard {s['summary']['shard']}, but {first['dir']} is "
                             f"one of {first['count']}")
    seen = {}
    for s in shards:
        if s["index"] in seen:
            raise MergeError(f"shard {s['index']}/{s['count']} twice: {seen[s['index']]} and "
                             f"{s['dir']}")
        seen[s["index"]] = s["dir"]
    missing = [i for i in range(first["count"]) if i not in seen]
    if missing:
        raise MergeError("missing shard(s) " + ", ".join(f"{i}/{first['count']}"
                                                         for i in missing))


def finding_sections(report):
    """The '## Finding: ...' sections of one report.md, each up to the next '## ' heading."""
    sections, current = [], None
    for line in report.splitlines(keepends=True):
        if line.startswith("## "):
            if current is not None:
                sections.append(current)
            current = line if line.startswith("## Finding: ") else None
        elif current is not None:
            current += line
    if current is not None:
        sections.append(current)
    return sections


def merged_junit(shards):
    root = ET.Element("testsuites", name="rlc verify")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for s in shards:
        suite = s["suite"]
        suite.set("name", f"{suite.get('name', 'rlc verify')} (shard {s['summary']['shard']})")
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
        root.append(suite)
    for key, n in totals.items():
        root.set(key, str(n))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def merged_report(shards, campaign):
    first = shards[0]["summary"]
    findings = sum(s["summary"]["findings"] for s in shards)
    not_run = sum(s["summary"]["notRun"] for s in shards)
    headline = ("Everything held." if findings == 0 and not_run == 0 else
                "Everything that ran held." if findings == 0 else f"{findings} finding(s).")
    if not_run:
        headline += f" {not_run} check(s) not run: the budget ran out."
    out = [f"# rlc verify, {len(shards)} shards merged\n\n",
           f"rlcVersion {first['rlcVersion']} · seed {first['seed']} · "
           f"shards {len(shards)}\n\n{headline}\n\n",
           "| shard | checks | findings | not run |\n|---|---:|---:|---:|\n"]
    for s in shards:
        m = s["summary"]
        out.append(f"| {m['shard']} | {m['checks']} | {m['findings']} | {m['notRun']} |\n")
    for s in shards:
        for section in finding_sections(s["report"]):
            out.append("\n" + section.replace("## Finding: ",
                                              f"## Shard {s['summary']['shard']}: Finding: ", 1))
    if campaign is not None:
        out.append(f"\n## Explorer campaign, merged\n\n```\n{campaign.rstrip()}\n```\n")
    return "".join(out)


def main(argv):
    args, campaign_path = [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--campaign" and i + 1 < len(argv):
            campaign_path = argv[i + 1]
            i += 2
            continue
        args.append(argv[i])
        i += 1
    if len(args) < 2:
        print("usage: merge_verify_shards.py OUT SHARD_DIR... [--campaign FILE]", file=sys.stderr)
        return 2
    out, dirs = args[0], args[1:]
    try:
        shards = sorted((read_shard(d) for d in dirs), key=lambda s: (s["index"], s["dir"]))
        check_one_run(shards)
        campaign = None
        if campaign_path is not None:
            try:
                with open(campaign_path) as f:
                    campaign = f.read()
            except OSError as e:
                raise MergeError(f"{campaign_path}: {e}")
    except MergeError as e:
        print(f"merge_verify_shards: {e}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "junit.xml"), "w") as f:
        f.write(merged_junit(shards))
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(merged_report(shards, campaign))
    findings = sum(s["summary"]["findings"] for s in shards)
    print(f"merged {len(shards)} shards into {out}: {findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
