#!/usr/bin/env python3
"""Prints ours/baseline ratios (medians) from a Google Benchmark JSON file."""
import json
import sys

runs = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}


# How the measured binary allocates: the second argument, when the run was not rlc_bench's.
allocator = sys.argv[2] if len(sys.argv) > 2 else "allocating with the C library's malloc"


def time(name):
    return runs[name]["real_time"] if name in runs else None


if any(n.startswith("BM_DvDecodeValidate/") for n in runs):
    print("\nDV decode+validate vs CRoaring raw deserialize (median; aim <= 1.5x)")
    print("%-8s %10s %12s %12s %7s" % ("shape", "deleted", "ours", "baseline", "ratio"))
shapes = {"0": "sparse", "1": "dense", "2": "runs"}
for name in runs:
    if name.startswith("BM_DvDecodeValidate/"):
        base = name.replace("BM_DvDecodeValidate", "BM_DvDecodeRawCRoaring")
        args = dict(kv.split(":") for kv in name.split("/")[1:])
        ours, theirs = time(name), time(base)
        if theirs:
            print("%-8s %10s %10.1fus %10.1fus %6.2fx" % (shapes[args["shape"]], args["deleted"], ours, theirs, ours / theirs))

if "BM_ParquetRowsRlc" in runs and "BM_ParquetRowsArrowFloor" in runs:
    print("\nParquet rows with positions, 10,000,000 rows, one int64 column (median; aim <= 1.2x)")
    for name in ("BM_ParquetRowsRlc", "BM_ParquetRowsArrowFloor"):
        print("%-28s %8.1f ms" % (name, runs[name]["real_time"]))
    print("ratio rlc / Arrow's column read: %.2fx" % (
        runs["BM_ParquetRowsRlc"]["real_time"] / runs["BM_ParquetRowsArrowFloor"]["real_time"]))

replay = [n for n in runs if n.startswith("BM_CheckpointReplayRlc")]
floor = [n for n in runs if n.startswith("BM_CheckpointColumnsArrowFloor")]
if replay and floor:
    print("\nReplay from a Parquet checkpoint of 1,000,000 files plus 10 commits (median; aim <= 1.5x)")
    print("%-28s %8.1f ms" % ("rlc replay", runs[replay[0]]["real_time"]))
    print("%-28s %8.1f ms" % ("Arrow column read (floor)", runs[floor[0]]["real_time"]))
    print("ratio: %.2fx" % (runs[replay[0]]["real_time"] / runs[floor[0]]["real_time"]))

if "BM_CommitParseRlc" in runs:
    print("\nCommit parse, 100,000 actions, %s (median; aim: rlc <= 1.5x simdjson On-Demand"
          " extracting the same fields)" % allocator)
    for name in ("BM_CommitParseRlc", "BM_CommitOnDemandExtractFloor", "BM_CommitOnDemandStreamExtractFloor",
                 "BM_CommitNewlineScanFloor", "BM_CommitParseNlohmann"):
        b = runs.get(name)
        if b:
            print("%-36s %8.1f ms %8.0f MB/s" % (name, b["real_time"], b["bytes_per_second"] / 1e6))
    ours = runs["BM_CommitParseRlc"]["real_time"]
    ratios = [("On-Demand per line", "BM_CommitOnDemandExtractFloor"),
              ("On-Demand stream", "BM_CommitOnDemandStreamExtractFloor"),
              ("nlohmann", "BM_CommitParseNlohmann"), ("newline-scan floor", "BM_CommitNewlineScanFloor")]
    print("   ".join("rlc / %s: %.2fx" % (label, ours / time(name)) for label, name in ratios if time(name)))

if "BM_CheckerBaseline100kWinner" in runs and "BM_ParseWinnerOnly" in runs:
    print("\nBaseline check, 100,000-action winner vs 10,000-action loser, from bytes, %s (median; aim <= 2x)"
          % allocator)
    for name in ("BM_CheckerBaseline100kWinner", "BM_ParseWinnerOnly"):
        print("%-30s %8.1f ms" % (name, runs[name]["real_time"]))
    print("ratio checker / parse-only: %.2fx" % (
        runs["BM_CheckerBaseline100kWinner"]["real_time"] / runs["BM_ParseWinnerOnly"]["real_time"]))

if "BM_DataSkippingStatsTier100kAdds" in runs and "BM_BaselineCheck100kAdds" in runs:
    print("\nCase 1 statistics tier, 100,000-add winner vs a loser with 3 predicates, %s (median)" % allocator)
    for name in ("BM_DataSkippingStatsTier100kAdds", "BM_BaselineCheck100kAdds"):
        print("%-34s %8.1f ms" % (name, runs[name]["real_time"]))
    print("ratio statistics tier / baseline check: %.2fx" % (
        runs["BM_DataSkippingStatsTier100kAdds"]["real_time"] / runs["BM_BaselineCheck100kAdds"]["real_time"]))

paired = [n for n in runs if n.startswith("BM_StatsTierOverBaselinePaired")]
if paired:
    b = runs[paired[0]]
    print("\nThe same two checks paired, one after the other, ratio per pair, %s (median; aim <= 1.25x)"
          % allocator)
    print("statistics tier %8.1f ms   baseline check %8.1f ms   ratio %.2fx" % (
        b["tier_ms"], b["baseline_ms"], b["ratio"]))

if any(n.startswith("BM_RawCRoaringUnion/") for n in runs):
    print("\nCase 2 union and Case 4 remaps vs CRoaring's raw union of the same bitmaps (median; aim <= 1.5x)")
    print("%-10s %-8s %10s %10s %10s %10s %10s %7s %7s %7s %7s" % ("rows", "deleted", "raw union", "RowBitmap |",
                                                                "case 2", "forward", "reverse", "plain/raw",
                                                                "c2/raw", "fwd/raw", "rev/raw"))
    for name in runs:
        if not name.startswith("BM_RawCRoaringUnion/"):
            continue
        args = name.split("/", 1)[1]
        raw = time(name)
        step, c2, fwd, rev = (time(k + "/" + args) for k in ("BM_RowBitmapPlainUnion", "BM_Case2MergeKernel",
                                                              "BM_ForwardRemapKernel", "BM_ReverseRemapKernel"))
        kv = dict(x.split(":") for x in args.split("/"))
        print("%-10s %-8s %8.0fus %8.0fus %8.0fus %8.0fus %8.0fus %6.2fx %6.2fx %6.2fx %6.2fx" % (
            kv["rows"], "1%" if kv["deleted"] == "0" else kv["deleted"], raw, step, c2, fwd, rev, step / raw,
            c2 / raw, fwd / raw, rev / raw))

if "BM_ThreeWriterHistory" in runs:
    print("\nExplorer: 3-writer histories per second on one core, %s (median; aim >= 10,000/s)" % allocator)
    whole, table = runs["BM_ThreeWriterHistory"], runs.get("BM_StartingTableOnly")
    print("%-24s %9.1f us  %8.0f histories/s" % ("BM_ThreeWriterHistory", whole["real_time"], whole["items_per_second"]))
    if table:
        print("%-24s %9.1f us  (the starting table alone: %.1fx of a history is the rest)" %
              ("BM_StartingTableOnly", table["real_time"], whole["real_time"] / table["real_time"]))
