#!/usr/bin/env python3
"""Derives the expected live-row counts of ../shared/delta-tables, independently of rlc.

For every table and version it replays the JSON log with its own few lines (keyed on
(path, DV uniqueId), as the Delta protocol says) and sums stats.numRecords - deletionVector.cardinality.
It then cross-checks the results against two sources that rlc's code never touches:
  * the live-row counts the source repositories' tests assert (delta-tables/README.md), and
  * the writer's own .crc files (numFiles, numDeletedRecordsOpt) where a table has them.
The output, expected_live_rows.json, is what the external tests compare `rlc inspect` with; rlc
itself additionally checks each cardinality against the decoded DV bytes.

Usage: derive_expected.py SHARED_DELTA_TABLES_DIR > expected_live_rows.json
"""
import json
import os
import sys

# From delta-tables/README.md ("live rows at latest version (from the source repo's tests)").
README_COUNTS = {
    "delta__table-with-dv-small": {"latest": 8},
    "delta__table-with-dv-large": {0: 2000, 1: 1995, 2: 1997, 3: 1991, 4: 1993},
    "delta__partitioned-table-with-dv-large": {0: 2000, 1: 1993, 2: 1995, 3: 1988, 4: 1990},
    "delta__table-with-dv-special-char": {"latest": 5},
    "delta__dv-partitioned-with-checkpoint": {"latest": 35},
    "delta__dv-with-columnmapping": {"latest": 35},
    "delta__log-replay-dv-key-cases": {"latest": 47},
    "delta__basic-dv-no-checkpoint": {"latest": 8},
    "delta__basic-dv-with-checkpoint": {"latest": 454},
    "delta__dat-v0.0.3__deletion_vectors": {"latest": 1},
    "delta-rs__table-with-dv-small": {"latest": 8},
    "delta-rs__table_with_deletion_logs": {"latest": 98},
    "delta-rs__cdf-table-with-cdc-and-dvs": {"latest": 5},
    "delta-kernel-rs__with-short-dv": {"latest": 7},
    "delta-kernel-rs__cdf-table-with-dv": {"latest": 10},
}

# DV files named "test%dv%prefix-deletion_vector_<uuid>.bin": only `--dv-file-prefix` finds them.
TEST_PREFIX_TABLES = {"delta__table-with-dv-small", "delta__table-with-dv-large",
                      "delta__partitioned-table-with-dv-large"}


def dv_id(dv):
    if not dv:
        return ""
    s = dv["storageType"] + dv["pathOrInlineDv"]
    if dv.get("offset") is not None:
        s += "@" + str(dv["offset"])
    return s


def replay(table_dir):
    log = os.path.join(table_dir, "_delta_log")
    versions = sorted(int(n[:20]) for n in os.listdir(log) if n.endswith(".json") and len(n) == 25)
    assert versions == list(range(len(versions))), table_dir
    active = {}
    results = []
    for v in versions:
        with open(os.path.join(log, "%020d.json" % v)) as f:
            actions = [json.loads(line) for line in f if line.strip()]
        for a in actions:
            if "remove" in a:
                r = a["remove"]
                active.pop((r["path"], dv_id(r.get("deletionVector"))), None)
        for a in actions:
            if "add" in a:
                ad = a["add"]
                active[(ad["path"], dv_id(ad.get("deletionVector")))] = ad
        live, deleted, with_dv = 0, 0, 0
        for ad in active.values():
            n = json.loads(ad["stats"])["numRecords"]
            c = (ad.get("deletionVector") or {}).get("cardinality", 0)
            live += n - c
            deleted += c
            with_dv += 1 if ad.get("deletionVector") else 0
        crc_path = os.path.join(log, "%020d.crc" % v)
        if os.path.exists(crc_path):
            with open(crc_path) as f:
                crc = json.load(f)
            assert crc["numFiles"] == len(active), (table_dir, v, "numFiles")
            if "numDeletedRecordsOpt" in crc:
                assert crc["numDeletedRecordsOpt"] == deleted, (table_dir, v, "numDeletedRecordsOpt")
        results.append({"version": v, "liveRows": live, "numFiles": len(active),
                        "deletedRows": deleted, "filesWithDv": with_dv})
    return results


def main():
    root = sys.argv[1]
    out = {}
    for name in sorted(os.listdir(root)):
        if name.startswith("_") or not os.path.isdir(os.path.join(root, name)):
            continue
        versions = replay(os.path.join(root, name))
        for key, count in README_COUNTS[name].items():
            v = versions[-1] if key == "latest" else versions[key]
            assert v["liveRows"] == count, (name, key, v["liveRows"], count)
        out[name] = {"dvFilePrefix": "test%dv%prefix-" if name in TEST_PREFIX_TABLES else "",
                     "versions": versions}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
